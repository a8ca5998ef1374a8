// gsched: HeteroCore's big/small-SM mapping decision (gs_hetero_sel, Algorithm 2 and Sec. 6.4)
// run alone (`gsim unit hetero`).
//
// run_hetero_unit() validates the JSON input (docs/rtl/gs_hetero_sel.md, "gsim unit hetero"):
//   {"window_cycles": W,          optional (20000, Sec. 4.3's measured half of the profiling)
//    "sms_big": B, "sms_small": S, optional (4 and 4): the SMs of each type every kernel ran on
//    "kernels": [{"name": "...",   optional (K0, K1, ...)
//                 "ipc_big": x,    the kernel's IPC on its big SMs together in the window
//                 "ipc_small": y,  ... on its small SMs together
//                 "ctas_big": a, "ctas_small": b, "ctas_base": c}, ...]}   its CTAs per big,
//                                  small and conventional SM; 1..HcMaxKernels kernels
// turns each IPC into the window's instructions (IPC x W, rounded), runs one side -- the golden
// twin HeteroSel here, the Verilated gs_hetero_sel (sim_top/rtl_sched/unit_hetero_rtl.hpp) -- and
// reports {"kernels": [{"name", "thick", "sms", "ipc_base_estimate", "stp_gain"}], "mapping",
// "decision_cycles"}:
// each kernel's class, where it runs ("big", "small", or "even": its profiling share of both),
// and, for reading, the paper's IPC^base estimate and (IPC^B - IPC^S) / IPC^base computed in
// floating point from the input (the same on every side). Throws InputError naming the file and
// field (exit 2) for a malformed input.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "sched/golden/gs_hetero_sel.hpp"

namespace gs {

/// One implementation of gs_hetero_sel: thick_o, big_o, even_o for an input.
class HeteroSelUnit {
 public:
  virtual ~HeteroSelUnit() = default;
  /// cycles: from the start to the decision (the first cycle busy_o is low again)
  virtual void run(const golden::HeteroSelIn& in, uint32_t& thick, uint32_t& big, bool& even, uint64_t& cycles) = 0;
};

/// The golden twin behind HeteroSelUnit.
class GoldenHeteroSelUnit final : public HeteroSelUnit {
 public:
  void run(const golden::HeteroSelIn& in, uint32_t& thick, uint32_t& big, bool& even, uint64_t& cycles) override;
};

/// Runs `unit` on the JSON input (file names it in errors); see the file comment.
nlohmann::json run_hetero_unit(HeteroSelUnit& unit, const nlohmann::json& input, const std::string& file);

}  // namespace gs
