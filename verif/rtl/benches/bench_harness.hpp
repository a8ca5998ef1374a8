// gsched block benches: the shared Verilator harness (Vortex-style unit benches).
//
// Bench<V> owns one Verilated block with its own VerilatedContext:
//   * randReset(2) + a fixed randSeed: every flop starts random (the block is verilated with
//     --x-initial unique), so a register the reset forgets shows up as a mismatch;
//   * fatalOnError(false): a failing RTL assertion is counted, not fatal; benches check
//     errors() so one failure fails one test case, not the whole binary.
// Protocol per cycle: set inputs, settle() (comb outputs valid), compare, tick() (rising edge).
// Packed-struct ports and flat tables [N*W-1:0] are read and written with put_rec / get_rec
// (rtl_sched/rtl_bits.hpp) in gs_pkg's packed order: the first field is the most significant.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>

#include "rtl_sched/rtl_bits.hpp"
#include "verilated.h"

namespace gs::bench {

template <class V>
class Bench {
 public:
  explicit Bench(uint32_t seed) : ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>(seed));
    ctx_->fatalOnError(false);
    Verilated::threadContextp(ctx_.get());
    dut_ = std::make_unique<V>(ctx_.get(), "dut");
  }
  ~Bench() {
    Verilated::threadContextp(ctx_.get());
    dut_->final();
    dut_.reset();
    Verilated::threadContextp(nullptr);
  }
  V& dut() { return *dut_; }
  /// rst_ni low for `cycles` rising edges, then high (inputs as the caller left them).
  void reset(int cycles = 2) {
    dut_->rst_ni = 0;
    for (int i = 0; i < cycles; ++i) tick();
    dut_->rst_ni = 1;
    settle();
  }
  /// Evaluates combinational logic with the current inputs (clock low).
  void settle() {
    Verilated::threadContextp(ctx_.get());
    dut_->clk_i = 0;
    dut_->eval();
  }
  /// One rising edge (after settle()).
  void tick() {
    settle();
    dut_->clk_i = 1;
    dut_->eval();
    ++cycle_;
  }
  int errors() const { return ctx_->errorCount(); }
  uint64_t cycle() const { return cycle_; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> dut_;
  uint64_t cycle_ = 0;
};

// Bit access on Verilator ports and record packing: rtl_sched/rtl_bits.hpp.
using gs::rtl::get_bits;
using gs::rtl::set_bits;

}  // namespace gs::bench
