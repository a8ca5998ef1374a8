// gsched block benches: the shared Verilator harness (Vortex-style unit benches).
//
// Bench<V> owns one Verilated block with its own VerilatedContext:
//   * randReset(2) + a fixed randSeed: every flop starts random (the block is verilated with
//     --x-initial unique), so a register the reset forgets shows up as a mismatch;
//   * fatalOnError(false): a failing RTL assertion is counted, not fatal; benches check
//     errors() so one failure fails one test case, not the whole binary.
// Protocol per cycle: set inputs, settle() (comb outputs valid), compare, tick() (rising edge).
// Packed-struct ports and flat tables [N*W-1:0] are read and written field by field with
// FieldReader / pack_fields in gs_pkg's packed order: the first field is the most significant.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <type_traits>

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

// ---- bit access on Verilator ports (integral for <= 64 bits, VlWide above) ----
template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& p, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= uint64_t((p[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) << b;
  return v;
}
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
inline uint64_t get_bits(T p, unsigned lsb, unsigned width) {
  return (uint64_t(p) >> lsb) & (width >= 64 ? ~0ull : (1ull << width) - 1);
}
template <std::size_t N>
inline void set_bits(VlWide<N>& p, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned b = 0; b < width; ++b) {
    const uint32_t m = 1u << ((lsb + b) % 32);
    if ((v >> b) & 1u) p[(lsb + b) / 32] |= m;
    else p[(lsb + b) / 32] &= ~m;
  }
}
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
inline void set_bits(T& p, unsigned lsb, unsigned width, uint64_t v) {
  const uint64_t m = (width >= 64 ? ~0ull : (1ull << width) - 1) << lsb;
  p = static_cast<T>((uint64_t(p) & ~m) | ((v << lsb) & m));
}

struct Field {
  uint64_t value;
  unsigned width;
};

/// Writes a packed struct whose lsb is `lsb`: fields in declaration order (first = MSBs).
template <class Port>
inline void pack_fields(Port& port, unsigned lsb, std::initializer_list<Field> fields) {
  unsigned total = 0;
  for (const auto& f : fields) total += f.width;
  unsigned at = lsb + total;
  for (const auto& f : fields) {
    at -= f.width;
    set_bits(port, at, f.width, f.value);
  }
}

/// Reads a packed struct field by field in declaration order, starting at its MSB.
template <class Port>
class FieldReader {
 public:
  FieldReader(const Port& port, unsigned lsb, unsigned struct_width) : port_(port), at_(lsb + struct_width) {}
  uint64_t next(unsigned width) {
    at_ -= width;
    return get_bits(port_, at_, width);
  }

 private:
  const Port& port_;
  unsigned at_;
};

}  // namespace gs::bench
