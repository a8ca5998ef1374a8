// gsched: interim golden Left-Over / FIFO dispatcher (issue 2 item 7).
//
// Left-Over (Warped-Slicer Sec. III, Fig. 2b; the Hyper-Q default): CTAs of the oldest kernel
// are issued while they fit; a younger kernel only gets what the older ones leave over.
// One CTA per cycle, SMs scanned round-robin from the one after the last dispatch.
// Timing follows the SchedulerPort contract: the decision of cycle t is made from the state
// at the start of cycle t; the inputs of cycle t are absorbed afterwards.
// (To be superseded by the RTL-aligned GoldenScheduler of cmodel/sched/golden/.)
#include <deque>
#include <sstream>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "sched/scheduler_port.hpp"

namespace gs {
namespace {

struct SmFree {
  uint32_t threads, warps, regs, shmem, ctas;
};

class SimpleLeftOver final : public SchedulerPort {
 public:
  explicit SimpleLeftOver(const SchedOptions& opt) : opt_(opt) {}

  void reset(const GpuConfig& cfg, const SchedOptions& opt) override {
    opt_ = opt;
    free_.clear();
    for (uint32_t s = 0; s < cfg.num_sms(); ++s) {
      const auto& t = cfg.sm(s);
      free_.push_back({t.max_threads, t.max_warps, t.registers, t.shared_mem_bytes, t.max_ctas});
    }
    resident_.assign(cfg.num_sms(), std::vector<uint32_t>());
    kernels_.clear();
    rr_ = 0;
  }

  SchedOutputs step(const SchedInputs& in) override {
    SchedOutputs out;
    out.dispatch = decide();
    if (out.dispatch.valid) take(out.dispatch);
    absorb(in);
    return out;
  }

  std::string name() const override { return "golden/left-over (interim)"; }

  std::string dump_state() const override {
    std::ostringstream os;
    for (const auto& k : kernels_)
      os << "  kernel " << k.cmd.kernel << ": next_cta " << k.next_cta << "/" << k.cmd.grid << "\n";
    for (size_t s = 0; s < free_.size(); ++s)
      os << "  sm " << s << ": free ctas " << free_[s].ctas << " regs " << free_[s].regs << "\n";
    return os.str();
  }

 private:
  struct Kernel {
    LaunchCmd cmd;
    uint32_t next_cta = 0;
  };

  bool fits(const SmFree& f, const LaunchCmd& c) const {
    return f.threads >= c.threads && f.warps >= c.warps && f.regs >= c.regs && f.shmem >= c.shmem && f.ctas >= 1;
  }

  uint32_t& resident(uint32_t sm, KernelId k) {
    auto& v = resident_[sm];
    if (v.size() <= k) v.resize(k + 1u, 0);
    return v[k];
  }

  DispatchCmd decide() {
    DispatchCmd d;
    const uint32_t n = static_cast<uint32_t>(free_.size());
    for (const auto& k : kernels_) {           // oldest first
      if (k.next_cta >= k.cmd.grid) continue;
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t sm = (rr_ + i) % n;
        if (!fits(free_[sm], k.cmd)) continue;
        if (opt_.cta_limit && resident(sm, k.cmd.kernel) >= opt_.cta_limit) continue;
        d.valid = true;
        d.sm = static_cast<SmId>(sm);
        d.kernel = k.cmd.kernel;
        d.cta = k.next_cta;
        return d;
      }
      return d;  // Left-Over: a younger kernel waits while the oldest still has CTAs to issue
    }
    return d;
  }

  void take(const DispatchCmd& d) {
    for (auto& k : kernels_)
      if (k.cmd.kernel == d.kernel) {
        ++k.next_cta;
        auto& f = free_[d.sm];
        f.threads -= k.cmd.threads, f.warps -= k.cmd.warps, f.regs -= k.cmd.regs, f.shmem -= k.cmd.shmem, f.ctas -= 1;
        ++resident(d.sm, d.kernel);
      }
    rr_ = (d.sm + 1u) % static_cast<uint32_t>(free_.size());
  }

  void absorb(const SchedInputs& in) {
    if (in.launch.valid) kernels_.push_back({in.launch, 0});
    if (in.event.type == SmEventType::kCtaFinished) {
      for (auto it = kernels_.begin(); it != kernels_.end(); ++it) {
        if (it->cmd.kernel != in.event.kernel) continue;
        auto& f = free_[in.event.sm];
        f.threads += it->cmd.threads, f.warps += it->cmd.warps, f.regs += it->cmd.regs, f.shmem += it->cmd.shmem, f.ctas += 1;
        --resident(in.event.sm, in.event.kernel);
        break;
      }
    }
    // Drop kernels with nothing left to issue and nothing resident (keeps the scan short).
    while (!kernels_.empty() && kernels_.front().next_cta >= kernels_.front().cmd.grid && !any_resident(kernels_.front().cmd.kernel))
      kernels_.pop_front();
  }

  bool any_resident(KernelId k) const {
    for (const auto& v : resident_)
      if (k < v.size() && v[k]) return true;
    return false;
  }

  SchedOptions opt_;
  std::vector<SmFree> free_;
  std::vector<std::vector<uint32_t>> resident_;
  std::deque<Kernel> kernels_;
  uint32_t rr_ = 0;
};

}  // namespace

std::unique_ptr<SchedulerPort> make_golden_scheduler(const SchedOptions& opt) {
  return std::make_unique<SimpleLeftOver>(opt);
}

std::vector<std::string> list_policies() { return {"left-over"}; }

}  // namespace gs
