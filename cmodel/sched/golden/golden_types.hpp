// gsched golden: parameters and records shared by the golden twins of the RTL blocks.
//
// Mirrors rtl/gs_pkg.sv: the constants below must equal its localparams (a unit test parses
// gs_pkg.sv and compares), the records carry the same fields as its packed structs. The
// golden twins (one class per RTL module, same registers, same cycle timing, same integer
// arithmetic) are composed by GoldenScheduler exactly as gs_top composes the modules.
// Sizes that the RTL fixes at build time but a config may choose (KSRT slots, command
// buffers, SM count) are run-time sizes here, bounded by kGoldenMax*; a lockstep run
// requires them to equal the RTL build (sim_top/rtl_sched/rtl_limits.cpp).
#pragma once
#include <array>
#include <cstdint>

#include "sched/scheduler_port.hpp"

namespace gs::golden {

// ---- rtl/gs_pkg.sv localparams
constexpr uint32_t kMaxSms = 32;
constexpr uint32_t kMaxKernels = 8;
constexpr uint32_t kMaxContexts = 8;
constexpr uint32_t kCmdBufDepth = 4;
constexpr uint32_t kMaxCtasPerSm = 32;
constexpr uint32_t kPtbqDepth = 128;
constexpr uint32_t kKernelIdW = 8;
constexpr uint32_t kSmIdW = 6;
constexpr uint32_t kCtaIdW = 20;
constexpr uint32_t kThreadW = 12;
constexpr uint32_t kWarpW = 7;
constexpr uint32_t kRegW = 17;
constexpr uint32_t kShmemW = 17;
constexpr uint32_t kCtaCntW = 6;
constexpr uint32_t kPrioW = 4;
constexpr uint32_t kTokenW = 16;

// ---- golden run-time bounds (slot and context sets are 32-bit masks)
constexpr uint32_t kGoldenMaxSlots = 32;
constexpr uint32_t kGoldenMaxContexts = 32;
constexpr uint32_t kGoldenMaxSms = 256;

constexpr uint32_t width_mask(uint32_t w) { return w >= 32 ? ~0u : (1u << w) - 1u; }

// gs_pkg::policy_e
enum class Policy : uint8_t { kLeftOver = 0, kEven = 1, kSpatial = 2, kNpq = 3, kPpqExcl = 4, kPpqShared = 5, kDss = 6 };
// gs_pkg::sm_state_e
enum class SmState : uint8_t { kIdle = 0, kRunning = 1, kReserved = 2 };

/// gs_pkg::launch_t
struct Launch {
  KernelId kernel = kNoKernel;
  uint32_t ctx = 0;
  uint32_t prio = 0;
  int16_t tokens = 0;
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0;
  uint32_t grid = 0;
};

/// gs_pkg::ksrt_entry_t
struct KsrtEntry {
  bool valid = false;
  KernelId kernel = kNoKernel;
  uint32_t ctx = 0;
  uint32_t prio = 0;
  int16_t tokens = 0;
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0;
  uint32_t grid = 0;
  uint32_t next_cta = 0;
  uint32_t done = 0;
};

/// gs_pkg::cta_res_t
struct CtaRes {
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0;
};

/// gs_pkg::smst_entry_t
struct SmstEntry {
  SmState state = SmState::kIdle;
  bool owner_valid = false;
  uint32_t owner = 0;
  bool next_valid = false;
  uint32_t next = 0;
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0, ctas = 0;
  bool reserved() const { return state == SmState::kReserved; }
};

/// gs_pkg::preempt_req_t (policy -> gs_preempt_ctrl)
struct PreemptReq {
  bool valid = false;
  uint32_t sm = 0;
  bool victim_all = false;
  uint32_t victim = 0;
  bool next_valid = false;
  uint32_t next = 0;
  bool assign_next = false;
};

/// gs_pkg::owner_wr_t (policy -> gs_smst)
struct OwnerWr {
  bool valid = false;
  uint32_t sm = 0;
  bool owner_valid = false;
  uint32_t owner = 0;
};

/// gs_pkg::token_upd_t (DSS -> gs_ksrt)
struct TokenUpd {
  bool inc_valid = false;
  uint32_t inc = 0;
  bool dec_valid = false;
  uint32_t dec = 0;
};

/// Per-SM capacities (gs_top cfg_sm_*_i).
struct SmCaps {
  uint32_t threads = 0, warps = 0, regs = 0, shmem = 0, ctas = 0;
};

/// Sort key of the SM driver: lower first. (prio_field, rank) compared lexicographically,
/// as the RTL compares {~prio, rank}.
struct OrderKey {
  uint32_t major = 0;
  uint32_t rank = 0;
  bool operator<(const OrderKey& o) const { return major != o.major ? major < o.major : rank < o.rank; }
};

inline uint32_t popcount32(uint32_t v) { return static_cast<uint32_t>(__builtin_popcount(v)); }

}  // namespace gs::golden
