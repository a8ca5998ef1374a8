// gsched rtl_sched: the Verilated gs_srtf_predict behind gs::SrtfPredictUnit (see unit_srtf_predict_rtl.hpp).
#include "rtl_sched/unit_srtf_predict_rtl.hpp"

#include "Vgs_srtf_predict.h"
#include "gs_spec.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "rtl_sched/verilated_block.hpp"

namespace gs::rtl {

namespace {

namespace lay = gs::spec::layout::srtf_pred_state_t;

class RtlSrtfPredictUnit final : public SrtfPredictUnit {
 public:
  void reset() override {
    drive(golden::SrtfEv{});
    blk_.dut().rst_ni = 0;
    for (int i = 0; i < 2; ++i) edge();
    blk_.dut().rst_ni = 1;
    settle();
  }
  void clock(const golden::SrtfEv& ev) override {
    drive(ev);
    edge();
    settle();
  }
  bool busy() override { return blk_.dut().busy_o; }
  SrtfSlotView view(uint32_t k) override {
    const auto& s = blk_.dut().state_o;
    SrtfSlotView v;
    v.active = get_bits(s, lay::active_lsb + k * spec::SrtfPredW, spec::SrtfPredW);
    v.pred = get_bits(blk_.dut().pred_o, k * spec::SrtfPredW, spec::SrtfPredW);
    v.t = static_cast<uint32_t>(get_bits(s, lay::t_lsb + k * spec::CycleW, spec::CycleW));
    v.done = static_cast<uint32_t>(get_bits(s, lay::done_lsb + k * spec::CtaIdW, spec::CtaIdW));
    v.total = static_cast<uint32_t>(get_bits(s, lay::total_lsb + k * spec::CtaIdW, spec::CtaIdW));
    v.resident = static_cast<uint32_t>(get_bits(s, lay::den_lsb + k * spec::CtaCntW, spec::CtaCntW));
    v.has_pred = blk_.dut().pred_valid_o >> k & 1u;
    return v;
  }

 private:
  void drive(const golden::SrtfEv& ev) {
    Vgs_srtf_predict& d = blk_.dut();
    d.ev_valid_i = ev.valid;
    d.ev_kind_i = static_cast<uint8_t>(ev.kind);
    d.ev_slot_i = ev.slot;
    d.ev_blk_i = ev.blk;
    d.ev_cycle_i = ev.cycle;
    d.ev_total_i = ev.total;
  }
  void settle() { blk_.settle(); }
  void edge() { blk_.clock(); }

  VerilatedBlock<Vgs_srtf_predict> blk_{"srtf"};
};

}  // namespace

std::unique_ptr<SrtfPredictUnit> make_rtl_srtf_predict_unit() { return std::make_unique<RtlSrtfPredictUnit>(); }

nlohmann::json run_rtl_srtf_predict_unit(const nlohmann::json& input) {
  const std::unique_ptr<SrtfPredictUnit> unit = make_rtl_srtf_predict_unit();
  return run_srtf_predict_unit(*unit, input, "gsim unit srtf-predict (rtl)");
}

}  // namespace gs::rtl
