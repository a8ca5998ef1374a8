// gsched golden twin of rtl/policy/gs_seq_mul.sv: unsigned shift-and-add multiplication from the
// multiplier's low bit (the multiplier in the product's low bits), one bit per cycle, BW cycles. Same registers and arithmetic as the RTL
// at the user's widths (the module's parameters; the product fits uint64_t). Contract:
// docs/rtl/gs_seq_mul.md.
#pragma once
#include <cstdint>

#include "sched/golden/golden_types.hpp"

namespace gs::golden {

template <uint32_t AW, uint32_t BW>
class SeqMul {
 public:
  static_assert(AW >= 1 && BW >= 1 && AW + BW <= 64, "the product is held in uint64_t");
  static constexpr uint32_t kCntW = sv_clog2(BW + 1);
  static constexpr uint32_t kProdW = AW + BW;
  static constexpr uint32_t kStateW = 1 + kCntW + AW + kProdW;  // gs_seq_mul's state_o
  struct Regs {
    bool busy = false;  // busy
    uint32_t cnt = 0;   // multiplier bits still to take (kCntW bits)
    uint64_t a = 0;     // multiplicand (AW bits)
    uint64_t prod = 0;  // {partial product's high part, multiplier bits still to take} (AW + BW bits)
  };

  void reset() { q = d = Regs{}; }
  bool busy() const { return q.busy; }
  uint64_t prod() const { return q.prod; }

  /// The next state into d; start loads a / b (any running product is abandoned).
  void next(bool start, uint64_t a, uint64_t b) {
    d = q;
    if (start) {
      d.a = a & width_mask64(AW);
      d.prod = b & width_mask64(BW);
      d.cnt = BW;
      d.busy = true;
    } else if (q.busy) {
      const uint64_t sum = (q.prod >> BW) + (q.prod & 1u ? q.a : 0);  // AW + 1 bits
      d.prod = (sum << (BW - 1)) | (q.prod & width_mask64(BW)) >> 1;
      d.cnt = q.cnt - 1;
      d.busy = q.cnt != 1;
    }
  }
  void commit() { q = d; }

  /// q as gs_seq_mul's state_o ({busy, cnt, a, prod}, MSB first) at bit `lsb` of `st`.
  void state(PolicyState& st, uint32_t lsb) const {
    st.put(lsb, kProdW, q.prod);
    st.put(lsb + kProdW, AW, q.a);
    st.put(lsb + kProdW + AW, kCntW, q.cnt);
    st.put(lsb + kProdW + AW + kCntW, 1, q.busy);
  }

  Regs q, d;
};

}  // namespace gs::golden
