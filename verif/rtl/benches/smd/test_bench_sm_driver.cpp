// gsched block bench: rtl/framework/gs_sm_driver.sv vs. golden SmDriver, every cycle, at
// MaxSms (132) SMs; and each GS_MUT_SMD_* mutant of gs_sm_driver.sv on the same stimulus
// (docs/rtl/mutations.md).
//
// The driver's inputs are other blocks' registered state, so the bench keeps that state in
// the golden Smst / Ksrt / Ptbq (the twins the other benches verify) and closes the loop the
// way gs_top does: each cycle's issue allocates in the SMST, advances next_cta (fresh) or pops
// the PTBQ (resume). Around it the bench plays the rest of the GPU: kernels launched into free
// KSRT slots (col_clr_i), CTAs finishing or being saved into the PTBQ on a reserved SM
// (free_*_i), reservations, owner writes, one quota write per cycle (quota_wr_*_i), and policy
// inputs (eligibility from an allow mask or owned SMs, keys, quota_en, the CTA limit).
// Compared every cycle: issue_valid/sm/slot/resume, the dispatch_o record, issue_res_o while
// an issue is valid, and the registers ready_o, dirty_o, qdirty_o, cand_o, cand_slot_o, waits_o.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "Vbench_gs_sm_driver.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_sm_driver_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one model per mutant
#include "sched/golden/gs_sm_driver.hpp"

namespace {
using namespace gs::bench;
using gs::DispatchCmd;

/// What the rest of the GPU does in one cycle besides the driver's own issue.
struct Env {
  bool finish = false, save = false;  // one SM event per cycle, as gs_top's event port
  uint32_t ev_sm = 0, ev_slot = 0, save_cta = 0;
  bool launch = false;
  uint32_t launch_slot = 0;
  Launch launch_rec;
  bool reserve = false, unreserve = false;
  uint32_t reserve_sm = 0, unreserve_sm = 0;
  OwnerWr owner_wr;
  bool quota_wr = false;  // one quota table write (the table's entry changes at the edge)
  uint32_t quota_sm = 0, quota_slot = 0, quota_val = 0;
};

template <class V>
struct DriverBench {
  Bench<V> rtl;
  uint32_t n;
  std::vector<SmCaps> caps;
  gs::golden::SmTypeTable types;  // caps by SM type (cfg_type_*_i, cfg_sm_type_i)
  Smst smst;
  Ksrt ksrt;
  Ptbq ptbq;
  std::vector<uint32_t> quota;  // [sm * MaxKernels + slot]
  std::vector<OrderKey> key;    // per slot
  // the policy's outputs, as the bench models them: an allow mask (PPQ exclusive), owned SMs
  // only (spatial, DSS), quotas, a CTA limit; elig is what reaches the driver (policy_out_t)
  bool owner_strict = false;
  uint32_t allow = ~0u;
  uint32_t cta_limit = 0;
  std::vector<uint32_t> elig;  // per SM, bit k
  DriverPolicy pol;
  SmDriver gold;
  uint64_t issues = 0, resumes = 0;

  DriverBench(uint32_t seed, std::vector<SmCaps> sm_caps)
      : rtl(seed), n(static_cast<uint32_t>(sm_caps.size())), caps(std::move(sm_caps)),
        types(gs::golden::sm_type_table(caps, {})) {
    REQUIRE(types.caps.size() <= MaxSmTypes);
    smst.reset(n, MaxKernels);
    ksrt.reset(MaxKernels);
    ptbq.reset(MaxKernels);
    quota.assign(n * MaxKernels, 0);
    key.assign(MaxKernels, OrderKey{});
    for (uint32_t k = 0; k < MaxKernels; ++k) key[k].rank = k;
    elig.assign(n, 0);
    pol.quota = &quota;
    pol.key = &key;
    pol.elig = &elig;
    gold.reset(n, MaxKernels);
    drive(Env{});
    rtl.reset();
  }

  void drive(const Env& env) {
    auto& d = rtl.dut();
    d.cfg_num_sms_i = n;
    for (uint32_t t = 0; t < MaxSmTypes; ++t) {  // the capacities by SM type, as gs_top holds them
      const SmCaps c = t < types.caps.size() ? types.caps[t] : SmCaps{};
      set_bits(d.cfg_type_threads_i, t * ThreadW, ThreadW, c.threads);
      set_bits(d.cfg_type_warps_i, t * WarpW, WarpW, c.warps);
      set_bits(d.cfg_type_regs_i, t * RegW, RegW, c.regs);
      set_bits(d.cfg_type_shmem_i, t * ShmemW, ShmemW, c.shmem);
      set_bits(d.cfg_type_ctas_i, t * CtaCntW, CtaCntW, c.ctas);
    }
    for (uint32_t s = 0; s < MaxSms; ++s) {
      set_bits(d.cfg_sm_type_i, s * SmTypeW, SmTypeW, s < n ? types.of_sm[s] : 0);
      put_smst(d.smst_i, s < n ? smst.entry(s) : SmstEntry{}, s * SmstW);
      for (uint32_t k = 0; k < MaxKernels; ++k) {
        set_bits(d.resident_i, (s * MaxKernels + k) * CtaCntW, CtaCntW, s < n ? smst.resident(s, k) : 0);
        set_bits(d.quota_i, (s * MaxKernels + k) * CtaCntW, CtaCntW, s < n ? quota[s * MaxKernels + k] : 0);
      }
    }
    for (uint32_t k = 0; k < MaxKernels; ++k) {
      put_ksrt(d.ksrt_i, ksrt.entry(k), k * KsrtW);
      set_bits(d.ptbq_count_i, k * PtbqCntW, PtbqCntW, ptbq.count(k));
      set_bits(d.ptbq_head_i, k * CtaIdW, CtaIdW, ptbq.count(k) != 0 ? ptbq.head(k) : 0);
      set_bits(d.ptbq_ready_i, k, 1, ptbq.ready(k) ? 1u : 0u);
      set_bits(d.key_i, k * OrderKeyW, OrderKeyW, (key[k].major << SlotW) | key[k].rank);
    }
    for (uint32_t s = 0; s < MaxSms; ++s) {
      uint32_t e = 0;
      if (s < n) {
        const SmstEntry& m = smst.entry(s);
        e = allow & (owner_strict ? (m.owner_valid ? 1u << m.owner : 0u) : ~0u) & width_mask(MaxKernels);
        elig[s] = e;
      }
      set_bits(d.elig_i, s * MaxKernels, MaxKernels, e);
    }
    pol.cta_limit = cta_limit;
    d.cfg_cta_limit_i = cta_limit;
    d.quota_en_i = pol.quota_en;
    d.free_valid_i = env.finish || env.save;
    d.free_sm_i = env.ev_sm;
    d.quota_wr_valid_i = env.quota_wr;
    d.quota_wr_sm_i = env.quota_sm;
    d.col_clr_i = env.launch ? 1u << env.launch_slot : 0u;
  }

  SmDriver::In driver_in(const Env& env) const {
    SmDriver::In in;
    in.caps = &caps;
    in.num_sms = n;
    in.smst = &smst;
    in.ksrt = &ksrt;
    in.ptbq = &ptbq;
    in.pol = pol;
    in.free_valid = env.finish || env.save;
    in.free_sm = env.ev_sm;
    in.quota_wr_valid = env.quota_wr;
    in.quota_wr_sm = env.quota_sm;
    in.col_clr = env.launch ? 1u << env.launch_slot : 0u;
    return in;
  }

  /// One cycle: compare RTL and golden, clock both, then apply `env` and the issue to the
  /// surrounding state. "" or the first difference; `out` gets this cycle's golden issue.
  std::string step(const Env& env, SmDriver::Issue* out = nullptr) {
    drive(env);
    rtl.settle();
    auto& d = rtl.dut();
    const SmDriver::In in = driver_in(env);
    const SmDriver::Issue is = gold.comb(in);
    std::ostringstream os;
    if (bool(d.issue_valid_o) != is.valid ||
        (is.valid && (uint32_t(d.issue_sm_o) != is.sm || uint32_t(d.issue_slot_o) != is.slot ||
                      bool(d.issue_resume_o) != is.resume)))
      os << "issue v=" << bool(d.issue_valid_o) << " sm=" << uint32_t(d.issue_sm_o)
         << " slot=" << uint32_t(d.issue_slot_o) << " resume=" << bool(d.issue_resume_o) << ", golden v=" << is.valid
         << " sm=" << is.sm << " slot=" << is.slot << " resume=" << is.resume;
    if (os.tellp() == 0 && is.valid && get_rec<CtaRes>(d.issue_res_o) != is.res)
      os << "issue_res " << get_rec<CtaRes>(d.issue_res_o) << " golden " << is.res;
    const DispatchCmd rd = get_rec<DispatchCmd>(d.dispatch_o);
    if (os.tellp() == 0 && rd != gold.dispatch()) os << "dispatch " << rd << " golden " << gold.dispatch();
    for (uint32_t s = 0; s < n && os.tellp() == 0; ++s) {
      const uint32_t r = static_cast<uint32_t>(get_bits(d.ready_o, s * MaxKernels, MaxKernels));
      if (r != gold.q.ready[s]) os << "ready row " << s << ": " << r << " golden " << gold.q.ready[s];
      const bool dt = get_bits(d.dirty_o, s, 1) != 0;
      if (os.tellp() == 0 && dt != bool(gold.q.dirty[s]))
        os << "dirty row " << s << ": " << dt << " golden " << int(gold.q.dirty[s]);
      const bool qd = get_bits(d.qdirty_o, s, 1) != 0;
      if (os.tellp() == 0 && qd != bool(gold.q.qdirty[s]))
        os << "qdirty row " << s << ": " << qd << " golden " << int(gold.q.qdirty[s]);
      const bool cd = get_bits(d.cand_o, s, 1) != 0;
      const uint32_t cs = static_cast<uint32_t>(get_bits(d.cand_slot_o, s * SlotW, SlotW));
      if (os.tellp() == 0 && (cd != bool(gold.q.cand[s]) || cs != gold.q.cand_slot[s]))
        os << "candidate of SM " << s << ": " << cd << " slot " << cs << " golden " << int(gold.q.cand[s]) << " slot "
           << int(gold.q.cand_slot[s]);
    }
    if (os.tellp() == 0 && uint32_t(d.waits_o) != gold.q.waits)
      os << "waits " << uint32_t(d.waits_o) << " golden " << gold.q.waits;
    if (os.tellp() != 0) return "cycle " + std::to_string(rtl.cycle()) + ": " + os.str();

    rtl.tick();
    if (rtl.errors() != 0) return "cycle " + std::to_string(rtl.cycle()) + ": RTL assertion failed";
    if (is.valid) {
      ++issues;
      if (is.resume) ++resumes;
    }
    apply(in, is, env);
    if (out) *out = is;
    return "";
  }
  /// step() that must agree.
  SmDriver::Issue cycle(const Env& env = {}) {
    SmDriver::Issue is;
    const std::string diff = step(env, &is);
    INFO(diff);
    REQUIRE(diff == "");
    return is;
  }
  /// Cycles until an issue (at most `limit`): the issue, or an invalid one.
  SmDriver::Issue next_issue(uint32_t limit = 40) {
    for (uint32_t i = 0; i < limit; ++i) {
      const SmDriver::Issue is = cycle();
      if (is.valid) return is;
    }
    return {};
  }

  CtaRes res_of(uint32_t slot) const {
    const KsrtEntry& e = ksrt.entry(slot);
    return {e.threads, e.warps, e.regs, e.shmem};
  }

  // gs_top's wiring of one issue and one SM event into SMST, KSRT and PTBQ, and one clock
  // edge: every block's next state from registered state, then all commit at once.
  void apply(const SmDriver::In& in, const SmDriver::Issue& is, const Env& env) {
    Smst::In w;
    w.alloc_valid = is.valid;
    w.alloc_sm = is.sm;
    w.alloc_slot = is.slot;
    w.alloc_res = is.res;
    const bool ev = env.finish || env.save;
    w.free_valid = ev;
    w.free_sm = env.ev_sm;
    w.free_slot = env.ev_slot;
    w.free_res = res_of(env.ev_slot);
    w.unreserve_valid = env.unreserve;
    w.unreserve_sm = env.unreserve_sm;
    w.reserve_valid = env.reserve;
    w.reserve_sm = env.reserve_sm;
    w.owner_wr = env.owner_wr;
    w.slot_free = ksrt.free_mask(env.finish, env.ev_slot);
    Ksrt::In kin;
    kin.alloc_valid = env.launch;
    kin.alloc_slot = env.launch_slot;
    kin.launch = env.launch_rec;
    kin.issue_valid = is.valid && !is.resume;
    kin.issue_slot = is.slot;
    kin.done_valid = env.finish;
    kin.done_slot = env.ev_slot;
    Ptbq::In pin;
    pin.push = env.save;
    pin.push_slot = env.ev_slot;
    pin.push_cta = env.save_cta;
    pin.pop = is.valid && is.resume;
    pin.pop_slot = is.slot;
    gold.next(in, is, gold.d);
    smst.next(w, smst.d);
    ksrt.next(kin, ksrt.d);
    ptbq.next(pin, ptbq.d);
    gold.commit();
    smst.commit();
    ksrt.commit();
    ptbq.commit();
    if (env.quota_wr) quota[env.quota_sm * MaxKernels + env.quota_slot] = env.quota_val;
  }
};

using Model = Vbench_gs_sm_driver;

SmCaps k20c_caps() { return {2048, 64, 65536, 49152, 16}; }

Launch kernel(KernelId id, uint32_t threads, uint32_t regs_per_thread, uint32_t shmem, uint32_t grid) {
  Launch l;
  l.kernel = id;
  l.threads = threads;
  l.warps = (threads + 31) / 32;
  l.regs = threads * regs_per_thread;
  l.shmem = shmem;
  l.grid = grid;
  return l;
}

Env launch_env(uint32_t slot, const Launch& l) {
  Env e;
  e.launch = true;
  e.launch_slot = slot;
  e.launch_rec = l;
  return e;
}

Env finish_env(uint32_t sm, uint32_t slot) {
  Env e;
  e.finish = true;
  e.ev_sm = sm;
  e.ev_slot = slot;
  return e;
}

/// The random GPU around the driver: four phases of `cycles` (phase 0 at MaxSms SMs, the others
/// at a random SM count and random capacities). "" or the first difference.
template <class V>
std::string random_run(uint32_t seed, int cycles, uint64_t* issues = nullptr, uint64_t* resumes = nullptr) {
  gs::Rng r(seed);
  KernelId next_kernel = 0;
  for (int phase = 0; phase < 4; ++phase) {
    const uint32_t n = phase == 0 ? MaxSms : 1 + r.below(MaxSms);
    // MaxSmTypes random SM types (gs_top holds the capacities by type), a random one per SM
    std::vector<SmCaps> types(MaxSmTypes);
    for (SmCaps& c : types) {
      c.threads = 512 * (1 + r.below(4));
      c.warps = c.threads / 32;
      c.regs = 16384 * (1 + r.below(4));
      c.shmem = 16384 * (1 + r.below(6));
      c.ctas = 2 + r.below(MaxCtasPerSm - 1);
    }
    std::vector<SmCaps> caps(n);
    for (SmCaps& c : caps) c = types[r.below(MaxSmTypes)];
    DriverBench<V> b(100 + phase, caps);
    uint32_t save_id = 0;
    for (int i = 0; i < cycles; ++i) {
      if (i % 500 == 0) {  // policy inputs of a new "policy" (a quota_en or limit change: every row is stale)
        b.owner_strict = r.chance_permille(300);
        b.pol.quota_en = r.chance_permille(400);
        b.allow = r.chance_permille(300) ? r.below(256) : ~0u;
        b.cta_limit = r.chance_permille(200) ? r.below(5) : 0;
      }
      if (r.chance_permille(100)) b.allow = r.chance_permille(500) ? ~0u : r.below(256);
      if (r.chance_permille(20)) b.key[r.below(MaxKernels)] = {r.below(16), r.below(8)};
      Env e;
      // launches into free slots
      const uint32_t ls = r.below(MaxKernels);
      if (!b.ksrt.entry(ls).valid && r.chance_permille(80)) {
        const uint32_t thr = 32 * (1 + r.below(16));
        Launch l = kernel(next_kernel, thr, 8 * (1 + r.below(8)), 512 * r.below(24), 1 + r.below(300));
        l.prio = r.below(16);
        e = launch_env(ls, l);
        next_kernel = KernelId((next_kernel + 1) % 255);
      }
      // one SM event: a CTA finishes, or (on a reserved SM) is saved into the PTBQ
      const uint32_t es = r.below(n), ek = r.below(MaxKernels);
      if (b.smst.resident(es, ek) != 0 && r.chance_permille(700) && !(e.launch && e.launch_slot == ek)) {
        const bool can_save = reserved(b.smst.entry(es)) && b.ptbq.count(ek) < PtbqDepth - 1;
        e.ev_sm = es;
        e.ev_slot = ek;
        if (can_save && r.chance_permille(600)) {
          e.save = true;
          e.save_cta = (save_id++) & width_mask(CtaIdW);
        } else {
          e.finish = true;
        }
      }
      const uint32_t rs = r.below(n);
      if (!reserved(b.smst.entry(rs)) && r.chance_permille(15)) {
        e.reserve = true;
        e.reserve_sm = rs;
      }
      const uint32_t us = r.below(n);
      if (reserved(b.smst.entry(us)) && r.chance_permille(40) && !(e.reserve && e.reserve_sm == us)) {
        e.unreserve = true;
        e.unreserve_sm = us;
      }
      if (r.chance_permille(30))
        e.owner_wr = {true, static_cast<SmId>(r.below(n)), r.chance_permille(750), r.below(MaxKernels)};
      if (r.chance_permille(150)) {  // one quota write: often on a few SMs, often lowering the quota
        e.quota_wr = true;
        e.quota_sm = r.chance_permille(500) ? r.below(n < 4 ? n : 4) : r.below(n);
        e.quota_slot = r.below(MaxKernels);
        e.quota_val = r.below(6);
      }
      const std::string diff = b.step(e);
      if (!diff.empty()) return "phase " + std::to_string(phase) + " (" + std::to_string(n) + " SMs), " + diff;
    }
    if (issues) *issues += b.issues;
    if (resumes) *resumes += b.resumes;
  }
  return "";
}

}  // namespace

TEST_CASE("gs_sm_driver directed: one kernel on two SMs fit quota reserved SM and resume", "[rtl][bench]") {
  // Two SMs of 1024 threads: a 512-thread CTA fits twice per SM.
  SmCaps c = k20c_caps();
  c.threads = 1024;
  DriverBench<Model> b(41, {c, c});
  REQUIRE_FALSE(b.cycle(launch_env(0, kernel(7, 512, 16, 1024, 6))).valid);  // nothing before the launch
  // the column sweep, stage 1, then the issues: round robin over the SMs until both are full
  SmDriver::Issue is = b.next_issue();
  REQUIRE(is.valid);
  REQUIRE(is.sm == 0);
  REQUIRE(is.cta == 0);
  const uint32_t want_sm[] = {1, 0, 1};
  for (uint32_t i = 0; i < 3; ++i) {
    is = b.next_issue();
    REQUIRE(is.valid);
    REQUIRE(is.sm == want_sm[i]);
    REQUIRE(is.cta == i + 1);
    REQUIRE_FALSE(is.resume);
  }
  REQUIRE(b.gold.dispatch().valid);  // the last issue appears on the port one cycle later
  REQUIRE(b.gold.dispatch().cta == 3);
  REQUIRE_FALSE(b.next_issue(10).valid);  // both SMs full

  // a CTA finishes on SM 1: its row is refreshed and the freed room refilled
  REQUIRE_FALSE(b.cycle(finish_env(1, 0)).valid);
  is = b.next_issue();
  REQUIRE(is.valid);
  REQUIRE(is.sm == 1);
  REQUIRE(is.cta == 4);

  // quota: at most one CTA of slot 0 per SM (quota_en switched on after the quotas are written:
  // every row is refreshed)
  b.quota.assign(b.quota.size(), 1);
  b.pol.quota_en = true;
  REQUIRE_FALSE(b.cycle(finish_env(0, 0)).valid);
  REQUIRE_FALSE(b.next_issue(10).valid);  // SM 0 holds one CTA = its quota
  b.pol.quota_en = false;
  b.cta_limit = 1;
  REQUIRE_FALSE(b.next_issue(10).valid);  // the CTA limit caps the same way with the quota table off
  b.cta_limit = 0;
  b.pol.quota_en = true;
  REQUIRE_FALSE(b.cycle(finish_env(0, 0)).valid);
  is = b.next_issue();  // SM 0 empty: one CTA under quota
  REQUIRE(is.valid);
  REQUIRE(is.sm == 0);
  REQUIRE(is.cta == 5);
  b.pol.quota_en = false;
  REQUIRE_FALSE(b.next_issue(10).valid);  // grid exhausted (6 CTAs issued)

  // preemption: SM 1 reserved, its two CTAs saved into the PTBQ; they resume (PTBQ order)
  // before any fresh CTA, never on the reserved SM even when it has room
  Env r;
  r.reserve = true;
  r.reserve_sm = 1;
  REQUIRE_FALSE(b.cycle(r).valid);
  Env s;
  s.save = true;
  s.ev_sm = 1;
  s.ev_slot = 0;
  s.save_cta = 2;
  REQUIRE_FALSE(b.cycle(s).valid);  // PTBQ still empty in registered state
  s.save_cta = 3;
  REQUIRE_FALSE(b.cycle(s).valid);
  is = b.next_issue();  // CTA 2 resumes on SM 0 (room for one), SM 1 is reserved
  REQUIRE(is.valid);
  REQUIRE(is.sm == 0);
  REQUIRE(is.resume);
  REQUIRE(is.cta == 2);
  REQUIRE_FALSE(b.next_issue(10).valid);  // CTA 3 waits: SM 0 full, SM 1 empty but reserved
  Env u;
  u.unreserve = true;
  u.unreserve_sm = 1;
  REQUIRE_FALSE(b.cycle(u).valid);
  is = b.next_issue();
  REQUIRE(is.valid);
  REQUIRE(is.sm == 1);
  REQUIRE(is.resume);
  REQUIRE(is.cta == 3);
  REQUIRE(b.gold.dispatch().valid);  // the port record of that issue (compared with the RTL next cycle)
  REQUIRE(b.gold.dispatch().resume);
  REQUIRE(b.gold.dispatch().kernel == 7);
  REQUIRE(b.gold.dispatch().cta == 3);
  REQUIRE_FALSE(b.next_issue(10).valid);
}

TEST_CASE("gs_sm_driver directed: key order allow mask and owner-strict SMs", "[rtl][bench]") {
  DriverBench<Model> b(43, {k20c_caps(), k20c_caps(), k20c_caps()});
  b.cycle(launch_env(2, kernel(10, 256, 8, 0, 50)));
  b.cycle(launch_env(5, kernel(11, 256, 8, 0, 50)));
  b.key[2] = {3, 2};
  b.key[5] = {1, 5};                      // higher priority (lower major) wins on every SM
  for (int i = 0; i < 4; ++i) b.cycle();  // both columns swept
  SmDriver::Issue is = b.next_issue();
  REQUIRE(is.valid);
  REQUIRE(is.slot == 5);
  b.allow = ~(1u << 5);  // PPQ exclusive masks slot 5 out (at pick time: no stale issue)
  for (int i = 0; i < 6; ++i) {
    is = b.cycle();
    if (is.valid) REQUIRE(is.slot == 2);
  }
  b.allow = ~0u;
  // owner-strict: SM 1 owned by slot 2, others unowned -> only slot 2 on SM 1
  Env o;
  o.owner_wr = {true, 1, true, 2};
  b.cycle(o);
  b.owner_strict = true;
  uint32_t n = 0;
  for (int i = 0; i < 12; ++i) {
    is = b.cycle();
    if (!is.valid) continue;
    ++n;
    REQUIRE(is.sm == 1);
    REQUIRE(is.slot == 2);
  }
  REQUIRE(n >= 3);
}

TEST_CASE("gs_sm_driver throughput: one CTA per cycle with two ready SMs, every other cycle with one", "[rtl][bench]") {
  // The SM issued on is masked from the next pick only (its row is rewritten with the CTA added
  // at the issue): two ready SMs sustain one CTA per cycle, one SM one CTA every other cycle
  // (docs/rtl/gs_sm_driver.md).
  for (uint32_t sms : {2u, 1u}) {
    SmCaps c = k20c_caps();
    c.ctas = 32;
    DriverBench<Model> b(45, std::vector<SmCaps>(sms, c));
    b.cycle(launch_env(0, kernel(3, 32, 8, 0, 10000)));  // 32 CTAs fit per SM
    REQUIRE(b.next_issue().valid);
    const uint32_t window = 2 * 14;  // 28 cycles: at most 29 CTAs on the two SMs
    uint32_t issued = 0;
    for (uint32_t i = 0; i < window; ++i) issued += b.cycle().valid;
    INFO(sms << " SMs: " << issued << " CTAs in " << window << " cycles");
    REQUIRE(issued == (sms == 2 ? window : window / 2));
  }
}

TEST_CASE("gs_sm_driver throughput: one CTA per cycle at 132 SMs while CTAs finish", "[rtl][bench]") {
  // 132 SMs, two kernels; from some cycle on one CTA finishes every cycle (its SM's row dirty too):
  // two row refreshes per cycle keep up, the issue rate stays one per cycle.
  DriverBench<Model> b(47, std::vector<SmCaps>(MaxSms, k20c_caps()));
  b.cycle(launch_env(1, kernel(20, 128, 16, 2048, 100000)));
  b.cycle(launch_env(4, kernel(21, 64, 32, 1024, 100000)));
  REQUIRE(b.next_issue().valid);
  gs::Rng r(5);
  uint32_t issued = 0, cycles = 0;
  for (uint32_t i = 0; i < 1500; ++i) {
    Env e;
    if (i >= 200) {  // a resident CTA finishes somewhere
      for (uint32_t t = 0; t < 8 && !e.finish; ++t) {
        const uint32_t s = r.below(MaxSms), k = r.chance_permille(500) ? 1 : 4;
        if (b.smst.resident(s, k) != 0) e = finish_env(s, k);
      }
    }
    issued += b.cycle(e).valid;
    ++cycles;
  }
  INFO("issued " << issued << " in " << cycles << " cycles, dirty-row waits " << b.gold.q.waits);
  REQUIRE(issued == cycles);
}

TEST_CASE("gs_sm_driver random GPU around the driver", "[rtl][bench]") {
  uint64_t issues = 0, resumes = 0;
  const std::string diff = random_run<Model>(2024, 5000, &issues, &resumes);
  INFO(diff);
  REQUIRE(diff == "");
  // the stimulus must really exercise the driver
  INFO("issues " << issues << " resumes " << resumes);
  REQUIRE(issues > 2000);
  REQUIRE(resumes > 50);
}

// One test per mutant: the same stimulus must find a difference.
#define GS_SMD_MUTANT_TEST(define, model)                                            \
  TEST_CASE("gs_sm_driver mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = random_run<model>(2024, 5000);                          \
    INFO(diff);                                                                      \
    CHECK(diff != "");                                                               \
    WARN(#define " caught: " << diff);                                               \
  }
GS_BENCH_MUTANTS(GS_SMD_MUTANT_TEST)
