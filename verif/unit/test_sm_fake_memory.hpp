// gsched unit tests: a tiny stand-in for the memory system, for SM tests only.
//
// Every accepted line access completes a fixed `latency` cycles after it was issued (FIFO per
// SM); at most `mshrs` accesses per SM may be outstanding (0 = unlimited), beyond which
// access() refuses, like an L1 with full MSHRs. Context transfers take
// `ctx_latency + bytes / ctx_bytes_per_cycle` cycles. Completions become visible to the SM in
// the cycle after they are due, through take_completions(), as with the real memory system.
// Also holds the small config / kernel builders and run loop that the SM tests share.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "config/gpu_config.hpp"
#include "gpu/counters.hpp"
#include "gpu/mem_iface.hpp"
#include "gpu/occupancy.hpp"
#include "gpu/sm.hpp"
#include "workload/kernel_desc.hpp"

namespace gs_test {

class FakeMemory : public gs::MemoryIface {
 public:
  FakeMemory(uint32_t sms, uint32_t latency, uint32_t mshrs = 0)
      : latency_(latency), mshrs_(mshrs), q_(sms), ctx_(sms), done_(sms), outstanding_(sms, 0) {}

  bool access(uint32_t sm, const gs::MemAccess& a) override {
    if (mshrs_ && outstanding_[sm] >= mshrs_) {
      ++refused;
      return false;
    }
    ++outstanding_[sm];
    ++accesses;
    if (a.write) ++writes;
    lines.push_back(a.line_addr);
    q_[sm].push_back({now_ + latency_, a.tag});
    return true;
  }
  void context_transfer(uint32_t sm, const gs::ContextTransfer& t) override {
    transfers.push_back(t);
    ctx_[sm].push_back({now_ + ctx_latency + t.bytes / ctx_bytes_per_cycle, t.tag});
  }
  void take_completions(uint32_t sm, std::vector<uint64_t>& out) override {
    out.insert(out.end(), done_[sm].begin(), done_[sm].end());
    done_[sm].clear();
  }
  void set_bypass(uint32_t, gs::KernelId, gs::BypassLevel) override {}
  void tick(uint64_t cycle) override {
    now_ = cycle + 1;  // accesses issued during the next SM tick are stamped with that cycle
    for (size_t sm = 0; sm < q_.size(); ++sm) {
      while (!q_[sm].empty() && q_[sm].front().due <= cycle) {
        done_[sm].push_back(q_[sm].front().tag);
        q_[sm].pop_front();
        --outstanding_[sm];
      }
      auto& c = ctx_[sm];
      for (size_t i = 0; i < c.size();) {
        if (c[i].due <= cycle) {
          done_[sm].push_back(c[i].tag);
          c.erase(c.begin() + long(i));
        } else {
          ++i;
        }
      }
    }
  }
  bool idle() const override {
    for (size_t sm = 0; sm < q_.size(); ++sm)
      if (!q_[sm].empty() || !ctx_[sm].empty() || !done_[sm].empty()) return false;
    return true;
  }

  uint32_t ctx_latency = 10;
  uint32_t ctx_bytes_per_cycle = 64;
  uint64_t accesses = 0, writes = 0, refused = 0;
  std::vector<uint64_t> lines;                 // every accepted line address, in order
  std::vector<gs::ContextTransfer> transfers;  // every context transfer, in order

 private:
  struct Pending {
    uint64_t due;
    uint64_t tag;
  };
  uint32_t latency_, mshrs_;
  uint64_t now_ = 0;
  std::vector<std::deque<Pending>> q_;
  std::vector<std::vector<Pending>> ctx_;
  std::vector<std::vector<uint64_t>> done_;
  std::vector<uint32_t> outstanding_;
};

/// A GPU of `sms` identical SMs of type `t` (Fermi-like defaults unless changed).
inline gs::GpuConfig make_config(const gs::SmTypeConfig& t, uint32_t sms = 1) {
  gs::GpuConfig cfg;
  cfg.name = "test";
  cfg.file = "test-config";
  gs::SmTypeConfig tt = t;
  tt.count = sms;
  cfg.sm_types = {tt};
  cfg.sm_type_of.assign(sms, 0);
  return cfg;
}

/// A pure-ALU kernel.
inline gs::KernelDesc alu_kernel(uint32_t threads, uint32_t insts, uint32_t dep) {
  gs::KernelDesc k;
  k.name = "alu";
  k.suite = "test";
  k.threads_per_cta = threads;
  k.regs_per_thread = 16;
  k.grid_ctas = 64;
  k.insts_per_warp = insts;
  k.dep_distance = dep;
  return k;
}

/// One SM on a fake memory, run until empty; events collected.
struct SmHarness {
  SmHarness(const gs::GpuConfig& c, uint32_t mem_latency, uint32_t mshrs = 0, uint32_t kernels = 4, uint64_t seed = 7)
      : cfg(c), counters(c.num_sms(), kernels), mem(c.num_sms(), mem_latency, mshrs) {
    for (uint32_t i = 0; i < c.num_sms(); ++i) sms.push_back(std::make_unique<gs::Sm>(i, cfg, mem, counters, seed));
  }
  gs::Sm& sm(uint32_t i = 0) { return *sms[i]; }
  void start(gs::KernelId k, const gs::KernelDesc& d, gs::CtaId cta, uint32_t on_sm = 0,
             const gs::SavedCta* resume = nullptr) {
    sm(on_sm).start_cta(k, d, gs::cta_resources(d, cfg), cta, cycle, resume);
  }
  void step() {
    for (auto& s : sms) s->tick(cycle);
    mem.tick(cycle);
    for (auto& s : sms) s->take_events(events, saved, records);
    ++cycle;
  }
  /// Steps until every SM is empty (or `max` cycles); returns cycles taken.
  uint64_t run(uint64_t max = 10'000'000) {
    const uint64_t start = cycle;
    auto all_empty = [&] {
      for (auto& s : sms)
        if (!s->empty()) return false;
      return true;
    };
    while (!all_empty() && cycle - start < max) step();
    return cycle - start;
  }
  uint64_t insts(gs::KernelId k) const {
    uint64_t n = 0;
    for (uint32_t s = 0; s < counters.sms(); ++s) n += counters.at(s, k).insts_issued;
    return n;
  }

  gs::GpuConfig cfg;
  gs::CounterBank counters;
  FakeMemory mem;
  std::vector<std::unique_ptr<gs::Sm>> sms;
  uint64_t cycle = 0;
  std::vector<gs::SmEvent> events;
  std::vector<gs::SavedCta> saved;
  std::vector<gs::CtaRecord> records;
};

}  // namespace gs_test
