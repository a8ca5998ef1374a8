// gsched lockstep: SchedTables, the scheduler's tables as records -- the DUT side of the state
// check (state_checker.hpp).
//
// Contract: one fixed-size snapshot of the tables gs_top keeps, in the golden twins' terms
// (cmodel/sched/golden): KSRT entries, SMST entries, resident CTA counts and pending resource writes, PTBQ occupancy and
// head, Active Queue ranks, CTA quotas and the change waiting for its report, the selected policy's registers (its `state` record's
// bits, as golden::PolicyTwin::state() writes them), and the SM driver's ready bitmap, dirty rows and wait count. Sized for the RTL build (MaxSms x MaxKernels), filled
// by the RTL driver (GsTopDriver::tables(), decoding gs_top's table signals with the generated
// unpack functions), so the per-cycle path allocates nothing.
#pragma once
#include <array>
#include <cstdint>

#include "gs_spec.hpp"
#include "sched/golden/golden_types.hpp"

namespace gs::lockstep {

struct SchedTables {
  static constexpr uint32_t kSms = spec::MaxSms;
  static constexpr uint32_t kSlots = spec::MaxKernels;

  std::array<KsrtEntry, kSlots> ksrt{};
  std::array<SmstEntry, kSms> smst{};
  std::array<uint32_t, kSms * kSlots> resident{};  // [sm * kSlots + slot]
  SmstReq smst_pend_alloc, smst_pend_free;         // SMST: the resource writes landing at the next edge
  std::array<uint32_t, kSlots> ptbq_count{};
  std::array<uint32_t, kSlots> ptbq_head{};     // CTA id at the head (meaningful when count > 0)
  uint32_t ptbq_ready = 0;                      // PTBQ: bit k = slot k's head register holds its head
  uint32_t ptbq_fill = 0;                       // PTBQ fill unit {rd, data, slot} (Ptbq::fill())
  std::array<uint32_t, kSlots> rank{};          // Active Queue arrival rank
  std::array<uint32_t, kSms * kSlots> quota{};  // [sm * kSlots + slot]
  QuotaWr quota_pending;                        // the quota change waiting for its report
  golden::PolicyState policy_state;             // gs_top's policy_state
  std::array<uint32_t, kSms> smd_ready{};       // SM driver: ready bitmap row per SM (bit = slot)
  std::array<uint8_t, kSms> smd_dirty{};        // SM driver: the row waits for its refresh
  std::array<uint8_t, kSms> smd_qdirty{};       // SM driver: the row's limits may predate a quota write
  uint32_t smd_waits = 0;                       // SM driver: cycles a dirty row waited
  std::array<uint8_t, kSms> smd_cand{};         // SM driver stage 1a: the SM has a candidate
  std::array<uint8_t, kSms> smd_cand_slot{};    // SM driver stage 1a: its best ready slot
  /// Bumped by the producer whenever any table above changed (equal versions = equal tables).
  uint64_t version = 0;
};

}  // namespace gs::lockstep
