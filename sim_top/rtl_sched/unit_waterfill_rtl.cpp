// gsched rtl_sched: the Verilated gs_waterfill behind gs::WaterfillUnit (see unit_waterfill_rtl.hpp).
#include "rtl_sched/unit_waterfill_rtl.hpp"

#include "Vgs_waterfill.h"
#include "common/error.hpp"
#include "gs_rtl_params.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "rtl_sched/verilated_block.hpp"

namespace gs::rtl {

namespace {

class RtlWaterfillUnit final : public WaterfillUnit {
 public:
  golden::WfResult run(const golden::WfInputs& in) override {
    Vgs_waterfill& d = blk_.dut();
    drive(in);
    d.start_i = 0;
    d.rst_ni = 0;
    for (int i = 0; i < 2; ++i) clock();
    d.rst_ni = 1;
    golden::WfResult r;
    d.start_i = 1;
    // the latency contract bounds a run (docs/rtl/gs_waterfill.md); twice that is a hang
    const uint32_t bound = 2 * golden::WaterfillTwin::kMaxCycles;
    for (r.cycles = 1; r.cycles <= bound; ++r.cycles) {
      clock();
      d.start_i = 0;
      settle();
      if (d.done_o) break;
    }
    if (!d.done_o) throw InvariantError("gs_waterfill: no done_o within " + std::to_string(bound) + " cycles");
    for (uint32_t i = 0; i < WfMaxKernels; ++i)
      r.ctas[i] = static_cast<uint32_t>(get_bits(d.ctas_o, i * WfStepW, WfStepW));
    r.spatial = d.spatial_o;
    return r;
  }

 private:
  void drive(const golden::WfInputs& in) {
    Vgs_waterfill& d = blk_.dut();
    put_rec(d.avail_i, in.avail);
    for (uint32_t i = 0; i < WfMaxKernels; ++i) {
      set_bits(d.nsteps_i, i * WfStepW, WfStepW, in.k[i].nsteps);
      put_rec(d.cta_i, in.k[i].cta, i * WfResW);
      for (uint32_t j = 0; j < WfMaxSteps; ++j)
        set_bits(d.perf_i, (i * WfMaxSteps + j) * WfPerfW, WfPerfW, in.k[i].perf[j]);
    }
  }
  void settle() { blk_.settle(); }
  void clock() { blk_.clock(); }

  VerilatedBlock<Vgs_waterfill> blk_{"wf"};
};

}  // namespace

std::unique_ptr<WaterfillUnit> make_rtl_waterfill_unit() { return std::make_unique<RtlWaterfillUnit>(); }

nlohmann::json run_rtl_waterfill_unit(const nlohmann::json& input) {
  const std::unique_ptr<WaterfillUnit> unit = make_rtl_waterfill_unit();
  return run_waterfill_unit(*unit, input, "gsim unit waterfill (rtl)");
}

}  // namespace gs::rtl
