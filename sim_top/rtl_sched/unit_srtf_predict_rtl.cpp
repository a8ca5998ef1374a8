// gsched rtl_sched: the Verilated gs_srtf_predict behind gs::SrtfPredictUnit (see unit_srtf_predict_rtl.hpp).
#include "rtl_sched/unit_srtf_predict_rtl.hpp"

#include "Vgs_srtf_predict.h"
#include "gs_spec.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "verilated.h"

namespace gs::rtl {

namespace {

namespace lay = gs::spec::layout::srtf_pred_state_t;

class RtlSrtfPredictUnit final : public SrtfPredictUnit {
 public:
  RtlSrtfPredictUnit()
      : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<Vgs_srtf_predict>(ctx_.get(), "srtf")) {}
  ~RtlSrtfPredictUnit() override {
    Verilated::threadContextp(ctx_.get());
    dut_->final();
    dut_.reset();
    Verilated::threadContextp(nullptr);
  }

  void reset() override {
    drive(golden::SrtfEv{});
    dut_->rst_ni = 0;
    for (int i = 0; i < 2; ++i) edge();
    dut_->rst_ni = 1;
    settle();
  }
  void clock(const golden::SrtfEv& ev) override {
    drive(ev);
    edge();
    settle();
  }
  bool busy() override { return dut_->busy_o; }
  SrtfSlotView view(uint32_t k) override {
    const auto& s = dut_->state_o;
    SrtfSlotView v;
    v.active = get_bits(s, lay::active_lsb + k * spec::SrtfPredW, spec::SrtfPredW);
    v.pred = get_bits(dut_->pred_o, k * spec::SrtfPredW, spec::SrtfPredW);
    v.t = static_cast<uint32_t>(get_bits(s, lay::t_lsb + k * spec::CycleW, spec::CycleW));
    v.done = static_cast<uint32_t>(get_bits(s, lay::done_lsb + k * spec::CtaIdW, spec::CtaIdW));
    v.total = static_cast<uint32_t>(get_bits(s, lay::total_lsb + k * spec::CtaIdW, spec::CtaIdW));
    v.resident = static_cast<uint32_t>(get_bits(s, lay::den_lsb + k * spec::CtaCntW, spec::CtaCntW));
    v.has_pred = dut_->pred_valid_o >> k & 1u;
    return v;
  }

 private:
  void drive(const golden::SrtfEv& ev) {
    Vgs_srtf_predict& d = *dut_;
    d.ev_valid_i = ev.valid;
    d.ev_kind_i = static_cast<uint8_t>(ev.kind);
    d.ev_slot_i = ev.slot;
    d.ev_blk_i = ev.blk;
    d.ev_cycle_i = ev.cycle;
    d.ev_total_i = ev.total;
  }
  void settle() {
    Verilated::threadContextp(ctx_.get());
    dut_->clk_i = 0;
    dut_->eval();
  }
  void edge() {
    settle();
    dut_->clk_i = 1;
    dut_->eval();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vgs_srtf_predict> dut_;
};

}  // namespace

std::unique_ptr<SrtfPredictUnit> make_rtl_srtf_predict_unit() { return std::make_unique<RtlSrtfPredictUnit>(); }

nlohmann::json run_rtl_srtf_predict_unit(const nlohmann::json& input) {
  const std::unique_ptr<SrtfPredictUnit> unit = make_rtl_srtf_predict_unit();
  return run_srtf_predict_unit(*unit, input, "gsim unit srtf-predict (rtl)");
}

}  // namespace gs::rtl
