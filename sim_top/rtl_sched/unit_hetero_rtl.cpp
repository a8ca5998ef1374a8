// gsched rtl_sched: the Verilated gs_hetero_sel behind gs::HeteroSelUnit (see unit_hetero_rtl.hpp).
#include "rtl_sched/unit_hetero_rtl.hpp"

#include <memory>
#include <stdexcept>
#include <string>

#include "Vgs_hetero_sel.h"
#include "rtl_sched/hetero_sel_drive.hpp"
#include "unit/unit_hetero.hpp"
#include "verilated.h"

namespace gs::rtl {

namespace {

/// The sequential unit from reset: drive the inputs, start, clock until busy_o falls.
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

  void run(const golden::HeteroSelIn& in, uint32_t& thick, uint32_t& big, bool& even, uint64_t& cycles) override {
    Verilated::threadContextp(&ctx_);
    Vgs_hetero_sel& d = *dut_;
    drive_hetero_sel(d, in);
    d.start_i = 0;
    d.rst_ni = 0;
    edge();
    d.rst_ni = 1;
    cycles = 0;
    for (bool start = true; start || d.busy_o; start = false, ++cycles) {
      if (cycles > kMaxCycles)
        throw std::runtime_error("gs_hetero_sel: no decision after " + std::to_string(kMaxCycles) + " cycles");
      d.start_i = start;
      edge();
    }
    thick = d.thick_o;
    big = d.big_o;
    even = d.even_o;
  }

 private:
  static constexpr uint64_t kMaxCycles = 100000;  // far above the longest decision (docs/rtl/gs_hetero_sel.md)
  void edge() {
    dut_->clk_i = 0;
    dut_->eval();
    dut_->clk_i = 1;
    dut_->eval();
  }
  VerilatedContext ctx_;
  std::unique_ptr<Vgs_hetero_sel> dut_;
};

}  // namespace

nlohmann::json run_rtl_hetero_unit(const nlohmann::json& input) {
  RtlHeteroSelUnit unit;
  return run_hetero_unit(unit, input, "gsim unit hetero (rtl)");
}

}  // namespace gs::rtl
