// gs_launch_latency: end-to-end latency from a kernel launch to its first CTA dispatch, per
// policy, measured in simulation (docs/area-timing.md).
//
//   gs_launch_latency [--scheduler golden|rtl|lockstep] [--mix M]... [--policy P]... [--json F]
//
// For each mix (default: default, test-staggered, ppq-priority) and each policy (default: every
// policy of `gsim list policies`) it runs the mix on the mix's GPU config and records, per
// kernel, the cycle it arrived, the cycle its launch reached the scheduler port (the model
// queues launches; one per cycle, and only while the command buffers have room) and the cycle
// of the first dispatch of one of its CTAs. The run stops once every kernel has been
// dispatched (or after --max-cycles: reported as null). The scheduler is wrapped, not changed:
// the figures are the ones `gsim run` would produce. With the RTL in the build the default
// scheduler is lockstep, so each figure is the RTL's, checked against the golden every cycle.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"

#if defined(GS_HAVE_RTL)
#include "rtl_sched/register.hpp"
#endif

namespace {

/// Passes every call to the wrapped scheduler and notes launch and first-dispatch cycles.
class Recorder : public gs::SchedulerPort {
 public:
  explicit Recorder(std::unique_ptr<gs::SchedulerPort> inner) : inner_(std::move(inner)) {}
  void reset(const gs::GpuConfig& cfg, const gs::SchedOptions& opt) override { inner_->reset(cfg, opt); }
  gs::SchedOutputs step(const gs::SchedInputs& in) override {
    if (in.launch.valid && !launch_.count(in.launch.kernel)) launch_[in.launch.kernel] = in.cycle;
    gs::SchedOutputs out = inner_->step(in);
    if (out.dispatch.valid && !dispatch_.count(out.dispatch.kernel)) dispatch_[out.dispatch.kernel] = in.cycle;
    return out;
  }
  std::string name() const override { return inner_->name(); }
  std::string dump_state() const override { return inner_->dump_state(); }
  gs::SchedEvalStats eval_stats() const override { return inner_->eval_stats(); }

  std::map<gs::KernelId, uint64_t> launch_, dispatch_;

 private:
  std::unique_ptr<gs::SchedulerPort> inner_;
};

int usage(const char* msg) {
  std::fprintf(stderr,
               "gs_launch_latency: %s\nusage: gs_launch_latency [--scheduler S] [--mix M]... [--policy P]... "
               "[--max-cycles N] [--json F]\n",
               msg);
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
#if defined(GS_HAVE_RTL)
  gs::register_rtl_schedulers();
  std::string scheduler = "lockstep";
#else
  std::string scheduler = "golden";
#endif
  std::vector<std::string> mixes, policies;
  std::string json_path;
  uint64_t max_cycles = 2'000'000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&](std::string& dst) {
      if (i + 1 >= argc) return false;
      dst = argv[++i];
      return true;
    };
    std::string v;
    if (a == "--scheduler") {
      if (!value(scheduler)) return usage("--scheduler needs a value");
    } else if (a == "--mix") {
      if (!value(v)) return usage("--mix needs a value");
      mixes.push_back(v);
    } else if (a == "--policy") {
      if (!value(v)) return usage("--policy needs a value");
      policies.push_back(v);
    } else if (a == "--json") {
      if (!value(json_path)) return usage("--json needs a value");
    } else if (a == "--max-cycles") {
      if (!value(v)) return usage("--max-cycles needs a value");
      char* end = nullptr;
      max_cycles = std::strtoull(v.c_str(), &end, 10);
      if (v.empty() || *end || max_cycles == 0)
        return usage(("--max-cycles: '" + v + "' is not a positive integer").c_str());
    } else return usage(("unknown argument '" + a + "'").c_str());
  }
  if (mixes.empty()) mixes = {"default", "test-staggered", "ppq-priority"};
  if (policies.empty()) policies = gs::list_policies();

  nlohmann::json doc;
  doc["scheduler"] = scheduler;
  doc["max_cycles"] = max_cycles;
  doc["runs"] = nlohmann::json::array();
  try {
    const auto lib = gs::load_kernel_library();
    for (const auto& mix_name : mixes) {
      const gs::Mix mix = gs::load_mix(mix_name, lib);
      const gs::GpuConfig cfg = gs::load_gpu_config(mix.config.empty() ? "warped-slicer" : mix.config);
      for (const auto& policy : policies) {
        gs::SchedOptions so;
        so.policy = policy;
        Recorder rec(gs::make_scheduler(scheduler, so));
        gs::RunOptions ro;
        ro.sched = so;
        ro.max_cycles = max_cycles + 1;
        gs::Gpu gpu(cfg, mix, rec, ro);
        while (rec.dispatch_.size() < mix.kernels.size() && gpu.cycle() < max_cycles && gpu.step()) {
        }
        nlohmann::json run = {
            {"config", cfg.name}, {"mix", mix.name}, {"policy", policy}, {"kernels", nlohmann::json::array()}};
        for (size_t k = 0; k < mix.kernels.size(); ++k) {
          const auto id = static_cast<gs::KernelId>(k);
          nlohmann::json kj = {{"name", mix.kernels[k].kernel}, {"arrival", mix.kernels[k].arrival_cycle}};
          kj["launch_cycle"] = rec.launch_.count(id) ? nlohmann::json(rec.launch_[id]) : nlohmann::json(nullptr);
          if (rec.dispatch_.count(id)) {
            kj["first_dispatch"] = rec.dispatch_[id];
            kj["arrival_to_dispatch"] = rec.dispatch_[id] - mix.kernels[k].arrival_cycle;
            kj["port_to_dispatch"] = rec.launch_.count(id) ? nlohmann::json(rec.dispatch_[id] - rec.launch_[id])
                                                           : nlohmann::json(nullptr);
          } else {
            kj["first_dispatch"] = nullptr;
            kj["arrival_to_dispatch"] = nullptr;
            kj["port_to_dispatch"] = nullptr;
          }
          run["kernels"].push_back(kj);
          std::printf("%-14s %-16s %-12s %-28s arrival %8llu  port %8s  first dispatch %8s\n", cfg.name.c_str(),
                      mix.name.c_str(), policy.c_str(), mix.kernels[k].kernel.c_str(),
                      static_cast<unsigned long long>(mix.kernels[k].arrival_cycle),
                      kj["launch_cycle"].is_null() ? "-" : std::to_string(kj["launch_cycle"].get<uint64_t>()).c_str(),
                      kj["first_dispatch"].is_null() ? "-"
                                                     : std::to_string(kj["first_dispatch"].get<uint64_t>()).c_str());
        }
        doc["runs"].push_back(run);
      }
    }
  } catch (const gs::InputError& e) {
    std::fprintf(stderr, "gs_launch_latency: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "gs_launch_latency: %s\n", e.what());
    return 1;
  }
  if (!json_path.empty()) {
    std::ofstream f(json_path, std::ios::trunc);
    if (!(f << doc.dump(1) << "\n")) {
      std::fprintf(stderr, "gs_launch_latency: --json: cannot write %s\n", json_path.c_str());
      return 2;
    }
  }
  return 0;
}
