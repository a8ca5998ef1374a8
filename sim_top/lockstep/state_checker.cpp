// gsched lockstep: the state check (see state_checker.hpp).
#include "lockstep/state_checker.hpp"

#include <algorithm>

#include "sched/golden/golden_scheduler.hpp"

namespace gs::lockstep {

const char* StateChecker::table_name(Table t) {
  switch (t) {
    case kKsrt: return "KSRT";
    case kSmst: return "SMST";
    case kPtbq: return "PTBQ";
    case kActiveQueue: return "AQ";
    case kQuota: return "QUOTA";
    case kPolicy: return "POLICY";
    case kSmd: return "SMD";
    case kTables: break;
  }
  return "?";
}

void StateChecker::reset() {
  for (auto& t : tables_) t = TableCounts{};
  mismatch_ = {};
  cycles_checked_ = 0;
}

bool StateChecker::check(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  ++cycles_checked_;
  return check_ksrt(cycle, ref, dut) && check_smst(cycle, ref, dut) && check_ptbq(cycle, ref, dut) &&
         check_active_queue(cycle, ref, dut) && check_quota(cycle, ref, dut) && check_policy(cycle, ref, dut) &&
         check_smd(cycle, ref, dut);
}

void StateChecker::fail(uint64_t cycle, Table t, uint32_t index, const std::string& field, std::string ref,
                        std::string dut) {
  fail_named(cycle, t, std::string(table_name(t)) + "[" + std::to_string(index) + "]" + field, std::move(ref),
             std::move(dut));
}

void StateChecker::fail_named(uint64_t cycle, Table t, std::string signal, std::string ref, std::string dut) {
  mismatch_.cycle = cycle;
  mismatch_.signal = std::move(signal);
  mismatch_.ref = std::move(ref);
  mismatch_.dut = std::move(dut);
  mismatch_.in_state = true;
  if (tables_[t].mismatches++ == 0) tables_[t].first = mismatch_;
}

template <class Rec>
bool StateChecker::entry(uint64_t cycle, Table t, uint32_t index, const Rec& ref, const Rec& dut) {
  if (ref == dut) return true;
  for_each_field(ref, dut, [&](const char* field, const auto& r, const auto& d) {
    if (r == d) return true;
    fail(cycle, t, index, std::string(".") + field, field_str(r), field_str(d));
    return false;
  });
  return false;
}

bool StateChecker::value(uint64_t cycle, Table t, uint32_t index, const char* field, uint32_t ref, uint32_t dut) {
  if (ref == dut) return true;
  fail(cycle, t, index, field, std::to_string(ref), std::to_string(dut));
  return false;
}

bool StateChecker::check_ksrt(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  const golden::Ksrt& ksrt = ref.ksrt();
  for (uint32_t k = 0; k < ksrt.slots(); ++k) {
    // A free slot's fields are don't-care (the RTL resets them to 0, the golden to "none" and
    // neither clears them when the kernel leaves): as the port's records, compare when valid.
    if (!ksrt.entry(k).valid && !dut.ksrt[k].valid) continue;
    if (!entry(cycle, kKsrt, k, ksrt.entry(k), dut.ksrt[k])) return false;
  }
  return true;
}

bool StateChecker::check_smst(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  const golden::Smst& smst = ref.smst();
  const uint32_t slots = ref.ksrt().slots();
  for (uint32_t s = 0; s < smst.sms(); ++s)
    if (!entry(cycle, kSmst, s, smst.entry(s), dut.smst[s])) return false;
  // the resource writes landing at the next edge (both sides zero an idle port's record)
  const SmstReq* ref_req[2] = {&smst.pend_alloc(), &smst.pend_free()};
  const SmstReq* dut_req[2] = {&dut.smst_pend_alloc, &dut.smst_pend_free};
  for (int i = 0; i < 2; ++i) {
    if (*ref_req[i] == *dut_req[i]) continue;
    for_each_field(*ref_req[i], *dut_req[i], [&](const char* field, const auto& r, const auto& d) {
      if (r == d) return true;
      fail_named(cycle, kSmst, std::string(i == 0 ? "SMST.pend_alloc." : "SMST.pend_free.") + field, field_str(r),
                 field_str(d));
      return false;
    });
    return false;
  }
  uint32_t any = 0;  // branch-free pass first (it vectorizes); the loop below names the entry
  for (uint32_t s = 0; s < smst.sms(); ++s)
    for (uint32_t k = 0; k < slots; ++k) any |= smst.resident(s, k) ^ dut.resident[s * SchedTables::kSlots + k];
  if (any == 0) return true;
  for (uint32_t s = 0; s < smst.sms(); ++s)
    for (uint32_t k = 0; k < slots; ++k) {
      const uint32_t r = smst.resident(s, k), d = dut.resident[s * SchedTables::kSlots + k];
      if (r != d) return value(cycle, kSmst, s, (".resident[" + std::to_string(k) + "]").c_str(), r, d);
    }
  return true;
}

bool StateChecker::check_ptbq(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  const golden::Ptbq& ptbq = ref.ptbq();
  for (uint32_t k = 0; k < ref.ksrt().slots(); ++k) {
    if (!value(cycle, kPtbq, k, ".count", ptbq.count(k), dut.ptbq_count[k])) return false;
    // An empty queue's head is a stale memory word the model never reads.
    if (ptbq.count(k) != 0 && !value(cycle, kPtbq, k, ".head", ptbq.head(k), dut.ptbq_head[k])) return false;
    if (!value(cycle, kPtbq, k, ".ready", ptbq.ready(k) ? 1u : 0u, dut.ptbq_ready >> k & 1u)) return false;
  }
  return value(cycle, kPtbq, 0, ".fill", ptbq.fill(), dut.ptbq_fill);
}

bool StateChecker::check_active_queue(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  const auto& rank = ref.active_queue().q.rank;
  for (uint32_t k = 0; k < rank.size(); ++k)
    if (!value(cycle, kActiveQueue, k, ".rank", rank[k], dut.rank[k])) return false;
  return true;
}

bool StateChecker::check_smd(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  const golden::SmDriver& drv = ref.sm_driver();
  const uint32_t slot_mask = (1u << ref.ksrt().slots()) - 1;
  for (uint32_t s = 0; s < drv.q.ready.size(); ++s) {
    if (!value(cycle, kSmd, s, ".ready", drv.q.ready[s], dut.smd_ready[s] & slot_mask)) return false;
    if (!value(cycle, kSmd, s, ".dirty", drv.q.dirty[s], dut.smd_dirty[s])) return false;
    if (!value(cycle, kSmd, s, ".qdirty", drv.q.qdirty[s], dut.smd_qdirty[s])) return false;
    if (!value(cycle, kSmd, s, ".cand", drv.q.cand[s], dut.smd_cand[s])) return false;
    if (!value(cycle, kSmd, s, ".cand_slot", drv.q.cand_slot[s], dut.smd_cand_slot[s])) return false;
  }
  if (drv.q.waits != dut.smd_waits) {
    fail_named(cycle, kSmd, "SMD.waits", std::to_string(drv.q.waits), std::to_string(dut.smd_waits));
    return false;
  }
  return true;
}

bool StateChecker::check_quota(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  // the change waiting for its report (its fields are don't-care while it is not valid)
  const QuotaWr& rp = ref.quota_table().pending();
  if ((rp.valid || dut.quota_pending.valid) && rp != dut.quota_pending) {
    for_each_field(rp, dut.quota_pending, [&](const char* field, const auto& r, const auto& d) {
      if (r == d) return true;
      fail_named(cycle, kQuota, std::string("QUOTA.pending.") + field, field_str(r), field_str(d));
      return false;
    });
    return false;
  }
  const auto& quota = ref.quota_table().quota();
  const uint32_t slots = ref.ksrt().slots();
  uint32_t any = 0;  // branch-free pass first, as for the resident counts
  for (uint32_t s = 0; s < ref.smst().sms(); ++s)
    for (uint32_t k = 0; k < slots; ++k) any |= quota[s * slots + k] ^ dut.quota[s * SchedTables::kSlots + k];
  if (any == 0) return true;
  for (uint32_t s = 0; s < ref.smst().sms(); ++s)
    for (uint32_t k = 0; k < slots; ++k) {
      const uint32_t r = quota[s * slots + k], d = dut.quota[s * SchedTables::kSlots + k];
      if (r != d) return value(cycle, kQuota, s, ("[" + std::to_string(k) + "]").c_str(), r, d);
    }
  return true;
}

namespace {
/// `width` bits of a policy state at `lsb`: decimal up to 64 bits, hex beyond.
std::string state_bits_str(const golden::PolicyState& st, uint32_t lsb, uint32_t width) {
  if (width <= 64) return std::to_string(st.get(lsb, width));
  std::string hex = "0x";
  for (uint32_t nib = (width + 3) / 4; nib-- > 0;) {
    const uint32_t at = lsb + nib * 4;
    const uint32_t n = static_cast<uint32_t>(st.get(at, std::min(4u, lsb + width - at)));
    hex += "0123456789abcdef"[n];
  }
  return hex;
}
}  // namespace

bool StateChecker::check_policy(uint64_t cycle, const GoldenScheduler& ref, const SchedTables& dut) {
  ref.policy_twin().state(ref_policy_state_);
  if (ref_policy_state_ == dut.policy_state) return true;
  const spec::PolicyInfo& info = spec::kPolicies[static_cast<unsigned>(ref.policy())];
  const std::string where = std::string(table_name(kPolicy)) + "." + info.module;
  for (uint32_t i = 0; i < info.state_field_count; ++i) {
    const spec::FieldInfo& f = info.state_fields[i];
    bool same = true;
    for (uint32_t b = 0; b < f.width && same; ++b)
      same = ref_policy_state_.bit(f.lsb + b) == dut.policy_state.bit(f.lsb + b);
    if (same) continue;
    fail_named(cycle, kPolicy, where + "." + f.name, state_bits_str(ref_policy_state_, f.lsb, f.width),
               state_bits_str(dut.policy_state, f.lsb, f.width));
    return false;
  }
  // bits outside the record (a module without registers drives none)
  fail_named(cycle, kPolicy, where + "(bits)", state_bits_str(ref_policy_state_, 0, spec::PolicyStateW),
             state_bits_str(dut.policy_state, 0, spec::PolicyStateW));
  return false;
}

}  // namespace gs::lockstep
