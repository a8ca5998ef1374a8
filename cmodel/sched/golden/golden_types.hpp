// gsched golden: parameters and records shared by the golden twins of the RTL blocks.
//
// The golden twins (one class per RTL module, same registers, same cycle timing, same integer
// arithmetic) are composed by GoldenScheduler exactly as gs_top composes the modules.
// Sizes that the RTL fixes at build time but a config may choose (KSRT slots, command
// buffers, SM count) are run-time sizes here, bounded by kGoldenMax*; a lockstep run
// requires them to equal the RTL build (sim_top/rtl_sched/rtl_limits.cpp).
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "gs_spec.hpp"
#include "sched/scheduler_port.hpp"

namespace gs::golden {

// The RTL parameters (MaxSms, ThreadW, ...), enums and records (Launch, KsrtEntry, SmstEntry,
// CtaRes, PreemptReq, OwnerWr, TokenUpd, QuotaWr) come from gs_spec.hpp, generated from
// rtl/spec/gs_spec.toml like gs_pkg.sv itself, so they cannot drift from the RTL.
using namespace ::gs::spec;

// ---- golden run-time bounds (slot and context sets are 32-bit masks)
constexpr uint32_t kGoldenMaxSlots = 32;
constexpr uint32_t kGoldenMaxContexts = 32;
constexpr uint32_t kGoldenMaxSms = 256;

constexpr uint32_t width_mask(uint32_t w) { return w >= 32 ? ~0u : (1u << w) - 1u; }
/// The same for fields up to 64 bits.
constexpr uint64_t width_mask64(uint32_t w) { return w >= 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1; }
/// SystemVerilog's $clog2: the bits of a counter over 0..v-1 (a twin's widths from its module's parameters).
constexpr uint32_t sv_clog2(uint64_t v) {
  uint32_t w = 0;
  while ((uint64_t(1) << w) < v) ++w;
  return w;
}

using ::gs::BypassWr;
using ::gs::CtaRes;
using ::gs::KsrtEntry;
using ::gs::Launch;
using ::gs::ObsSample;
using ::gs::OwnerWr;
using ::gs::Policy;
using ::gs::PreemptReq;
using ::gs::QuotaWr;
using ::gs::SbmArch;
using ::gs::SbmReg;
using ::gs::SmState;
using ::gs::SmstEntry;
using ::gs::SmstReq;
using ::gs::TokenUpd;

inline bool reserved(const SmstEntry& e) { return e.state == SmState::kReserved; }

/// Per-SM capacities (gs_top holds them by SM type: cfg_type_*_i, SmTypeTable).
struct SmCaps {
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0, ctas = 0;
  bool operator==(const SmCaps& o) const {
    return threads == o.threads && warps == o.warps && regs == o.regs && shmem == o.shmem && ctas == o.ctas;
  }
};

/// The SMs as gs_top configures them (cfg_type_*_i, cfg_type_big_i, cfg_sm_type_i): the distinct
/// (capacities, big) pairs, in order of their first SM, and each SM's index among them. More
/// than MaxSmTypes of them do not fit the RTL (rtl_limits.cpp refuses such a config).
struct SmTypeTable {
  std::vector<SmCaps> caps;
  std::vector<uint8_t> big;
  std::vector<uint32_t> of_sm;
};
inline SmTypeTable sm_type_table(const std::vector<SmCaps>& caps, const std::vector<uint8_t>& big) {
  SmTypeTable t;
  for (size_t s = 0; s < caps.size(); ++s) {
    const uint8_t b = s < big.size() ? big[s] : 0;
    size_t i = 0;
    while (i < t.caps.size() && !(t.caps[i] == caps[s] && t.big[i] == b)) ++i;
    if (i == t.caps.size()) t.caps.push_back(caps[s]), t.big.push_back(b);
    t.of_sm.push_back(static_cast<uint32_t>(i));
  }
  return t;
}

/// Sort key of the SM driver: lower first. (prio_field, rank) compared lexicographically,
/// as the RTL compares {~prio, rank}.
struct OrderKey {
  uint32_t major = 0;
  uint32_t rank = 0;
  bool operator<(const OrderKey& o) const { return major != o.major ? major < o.major : rank < o.rank; }
  bool operator==(const OrderKey& o) const { return major == o.major && rank == o.rank; }
};

inline uint32_t popcount32(uint32_t v) { return static_cast<uint32_t>(__builtin_popcount(v)); }

/// The d side of a register array, as an RTL `tbl_d = tbl_q` with per-entry write enables:
/// at(q, i) is entry i of d, copied from q[i] on its first write of the cycle, so next() can
/// apply several write ports to one entry in order while q stays untouched; commit(q) writes
/// back exactly the written entries. Sized once by reset(); nothing here allocates per cycle
/// and a cycle costs O(entries written), not O(table).
template <class T>
class ArrayD {
 public:
  void reset(size_t n) {
    val_.assign(n, T{});
    written_.assign(n, 0);
    list_.assign(n, 0);
    n_ = 0;
  }
  T& at(const std::vector<T>& q, uint32_t i) {
    if (!written_[i]) {
      written_[i] = 1;
      list_[n_++] = i;
      val_[i] = q[i];
    }
    return val_[i];
  }
  /// d[i] as a read (q[i] where not written this cycle).
  const T& get(const std::vector<T>& q, uint32_t i) const { return written_[i] ? val_[i] : q[i]; }
  void commit(std::vector<T>& q) {
    for (uint32_t k = 0; k < n_; ++k) {
      const uint32_t i = list_[k];
      q[i] = val_[i];
      written_[i] = 0;
    }
    n_ = 0;
  }

 private:
  std::vector<T> val_;
  std::vector<uint8_t> written_;
  std::vector<uint32_t> list_;  // written indices, in first-write order
  uint32_t n_ = 0;
};

/// A policy module's registers in the RTL bit layout of its `state` record (rtl/spec/gs_spec.toml
/// "policy registers"): what gs_policies drives on state_o, zero-extended to PolicyStateW bits.
/// Word i holds bits [64i, 64i+63]. The lockstep state check compares it with gs_top's
/// policy_state; the policy benches with the module's state_o.
struct PolicyState {
  static constexpr uint32_t kWords = (PolicyStateW + 63) / 64;
  std::array<uint64_t, kWords> w{};

  void clear() { w.fill(0); }
  /// Writes the low `width` (1..64) bits of v at bit `lsb` (a field may straddle two words).
  void put(uint32_t lsb, uint32_t width, uint64_t v) {
    const uint64_t m = width >= 64 ? ~0ull : (1ull << width) - 1;
    const uint32_t i = lsb / 64, off = lsb % 64;
    v &= m;
    w[i] = (w[i] & ~(m << off)) | (v << off);
    if (off + width > 64) {  // off > 0 here
      const uint64_t mh = m >> (64 - off);
      w[i + 1] = (w[i + 1] & ~mh) | (v >> (64 - off));
    }
  }
  /// Bit `i`.
  bool bit(uint32_t i) const { return w[i / 64] >> (i % 64) & 1u; }
  /// `width` (1..64) bits at `lsb`.
  uint64_t get(uint32_t lsb, uint32_t width) const {
    const uint32_t i = lsb / 64, off = lsb % 64;
    uint64_t v = w[i] >> off;
    if (off + width > 64) v |= w[i + 1] << (64 - off);
    return width >= 64 ? v : v & ((1ull << width) - 1);
  }
  bool operator==(const PolicyState& o) const { return w == o.w; }
  bool operator!=(const PolicyState& o) const { return w != o.w; }
};

}  // namespace gs::golden
