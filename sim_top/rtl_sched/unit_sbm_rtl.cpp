// gsched rtl_sched: the Verilated gs_sbm_ctrl behind gs::SbmCtrlUnit (see unit_sbm_rtl.hpp).
#include "rtl_sched/unit_sbm_rtl.hpp"

#include "Vgs_sbm_ctrl.h"
#include "common/error.hpp"
#include "gs_rtl_params.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "rtl_sched/verilated_block.hpp"

namespace gs::rtl {

namespace {

class RtlSbmUnit final : public SbmCtrlUnit {
 public:
  SbmReg run(uint32_t occ1, uint32_t occ2, const SbmMeasure& measure, std::vector<SbmReg>& phases,
             uint32_t& cycles) override {
    Vgs_sbm_ctrl& d = blk_.dut();
    phases.clear();
    d.occ1_i = occ1;
    d.occ2_i = occ2;
    d.res_valid_i = 0;
    d.start_i = 0;
    d.rst_ni = 0;
    for (int i = 0; i < 2; ++i) clock();
    d.rst_ni = 1;
    d.start_i = 1;
    clock();
    d.start_i = 0;
    cycles = 1;
    settle();
    while (d.busy_o) {
      const SbmReg c = get_rec<SbmReg>(d.cfg_o);
      phases.push_back(c);
      uint64_t a = 0, b = 0;
      measure(c, a, b);
      d.res_valid_i = 1;
      d.res1_i = a;
      d.res2_i = b;
      // the result held (as gs_policy_sbm holds it) until the controller has decided
      for (bool ack = false; !ack; ++cycles) {
        settle();
        ack = d.res_ack_o;
        clock();
        if (cycles > 64u * golden::SbmCtrl::kPhases) throw InvariantError("gs_sbm_ctrl: no res_ack_o after a result");
      }
      d.res_valid_i = 0;
      settle();
      if (phases.size() > golden::SbmCtrl::kPhases)
        throw InvariantError("gs_sbm_ctrl: more than " + std::to_string(golden::SbmCtrl::kPhases) + " phases");
    }
    return get_rec<SbmReg>(d.cfg_o);
  }

 private:
  void settle() { blk_.settle(); }
  void clock() { blk_.clock(); }

  VerilatedBlock<Vgs_sbm_ctrl> blk_{"sbm"};
};

}  // namespace

std::unique_ptr<SbmCtrlUnit> make_rtl_sbm_unit() { return std::make_unique<RtlSbmUnit>(); }

nlohmann::json run_rtl_sbm_unit(const nlohmann::json& input) {
  const std::unique_ptr<SbmCtrlUnit> unit = make_rtl_sbm_unit();
  return run_sbm_unit(*unit, input, "gsim unit sbm (rtl)");
}

}  // namespace gs::rtl
