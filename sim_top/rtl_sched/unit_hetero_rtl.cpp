// gsched rtl_sched: the Verilated gs_hetero_sel behind gs::HeteroSelUnit (see unit_hetero_rtl.hpp).
#include "rtl_sched/unit_hetero_rtl.hpp"

#include <memory>

#include "Vgs_hetero_sel.h"
#include "rtl_sched/hetero_sel_drive.hpp"
#include "unit/unit_hetero.hpp"
#include "verilated.h"

namespace gs::rtl {

namespace {

/// A combinational block: drive the inputs, evaluate, read the outputs.
class RtlHeteroSelUnit final : public HeteroSelUnit {
 public:
  RtlHeteroSelUnit() {
    ctx_.fatalOnError(false);
    Verilated::threadContextp(&ctx_);
    dut_ = std::make_unique<Vgs_hetero_sel>(&ctx_, "hetero");
  }
  ~RtlHeteroSelUnit() override {
    Verilated::threadContextp(&ctx_);
    dut_->final();
    dut_.reset();
    Verilated::threadContextp(nullptr);
  }

  void run(const golden::HeteroSelIn& in, uint32_t& thick, uint32_t& big, bool& even) override {
    Verilated::threadContextp(&ctx_);
    Vgs_hetero_sel& d = *dut_;
    drive_hetero_sel(d, in);
    d.eval();
    thick = d.thick_o;
    big = d.big_o;
    even = d.even_o;
  }

 private:
  VerilatedContext ctx_;
  std::unique_ptr<Vgs_hetero_sel> dut_;
};

}  // namespace

nlohmann::json run_rtl_hetero_unit(const nlohmann::json& input) {
  RtlHeteroSelUnit unit;
  return run_hetero_unit(unit, input, "gsim unit hetero (rtl)");
}

}  // namespace gs::rtl
