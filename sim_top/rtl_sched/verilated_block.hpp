// gsched rtl_sched: one Verilated block with its own context, clocked by hand -- what the
// `gsim unit <block>` RTL sides (unit_*_rtl.cpp) share: settle() evaluates with the clock low,
// clock() settles and raises it (the block's registers take d at that edge).
#pragma once
#include <memory>

#include "verilated.h"

namespace gs::rtl {

template <class V>
class VerilatedBlock {
 public:
  explicit VerilatedBlock(const char* name)
      : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<V>(ctx_.get(), name)) {}
  ~VerilatedBlock() {
    Verilated::threadContextp(ctx_.get());
    dut_->final();
    dut_.reset();
    Verilated::threadContextp(nullptr);
  }
  VerilatedBlock(const VerilatedBlock&) = delete;
  VerilatedBlock& operator=(const VerilatedBlock&) = delete;

  V& dut() { return *dut_; }
  const V& dut() const { return *dut_; }
  /// Evaluates the combinational logic with the clock low.
  void settle() {
    Verilated::threadContextp(ctx_.get());
    dut_->clk_i = 0;
    dut_->eval();
  }
  /// One rising edge (after settling).
  void clock() {
    settle();
    dut_->clk_i = 1;
    dut_->eval();
  }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> dut_;
};

}  // namespace gs::rtl
