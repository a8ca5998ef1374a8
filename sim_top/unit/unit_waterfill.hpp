// gsched: the Warped-Slicer water-filling unit run alone (`gsim unit waterfill`).
//
// parse_waterfill() validates the JSON input (docs/rtl/gs_waterfill.md, "gsim unit waterfill")
// into gs_waterfill's port values: {"resources": {threads, warps, regs, smem, slots},
// "kernels": [{"cta": {the same five keys}, "perf": [P1, ..., PN]}]}, kernel i of the list in
// slot i. run_waterfill_unit() runs one side -- the golden WaterfillTwin here, the Verilated
// gs_waterfill (sim_top/rtl_sched/unit_waterfill_rtl.hpp) -- from a start pulse to done_o and
// reports {"ctas": [T_i of the listed kernels], "spatial", "cycles" (start cycle to done_o)}.
// Throws InputError naming the file and the field for a malformed input (exit 2): N = 0,
// N above WfMaxSteps, more than WfMaxKernels kernels, a CTA that does not fit the resources
// alone, a missing, negative or too wide value.
#pragma once
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "sched/golden/gs_waterfill.hpp"

namespace gs {

/// One implementation of gs_waterfill, clocked from a start pulse to done_o.
class WaterfillUnit {
 public:
  virtual ~WaterfillUnit() = default;
  /// Runs one partition: reset, start with `in`, inputs held until done_o.
  virtual golden::WfResult run(const golden::WfInputs& in) = 0;
};

/// The golden twin behind WaterfillUnit.
class GoldenWaterfillUnit final : public WaterfillUnit {
 public:
  golden::WfResult run(const golden::WfInputs& in) override;

 private:
  golden::WaterfillTwin twin_;
};

/// The validated input, and how many kernels the list held (slots 0..kernels-1).
struct WaterfillInput {
  golden::WfInputs in;
  uint32_t kernels = 0;
};
WaterfillInput parse_waterfill(const nlohmann::json& input, const std::string& file);

/// Runs `unit` on the JSON input (file names it in errors); see the file comment.
nlohmann::json run_waterfill_unit(WaterfillUnit& unit, const nlohmann::json& input, const std::string& file);

}  // namespace gs
