// gsched block bench: rtl/policy/gs_sbm_ctrl.sv vs. golden SbmCtrl (every register, through
// state_o, and cfg_o / busy_o, every cycle), and both vs. sbm_flow_reference() (Algorithms 1
// and 2 read straight from SBM Sec. 3.2). Directed: hand-worked flows (docs/rtl/gs_sbm_ctrl.md,
// "Worked examples") that end in each of Table 6's configurations; random: phase results drawn
// so that ties, improvements and degradations all occur, occupancies that stop the tuning
// early, restarts in the middle of a flow, results while idle. Each mutant of gs_sbm_ctrl.sv
// (GS_MUT_SBM_*, docs/rtl/mutations.md) is built as its own model, and the same stimulus must
// find a difference: the mutation tests below.
#include <catch2/catch.hpp>

#include <functional>
#include <map>
#include <sstream>

#include "Vbench_gs_sbm_ctrl.h"
#include "bench_records.hpp"
#include "common/rng.hpp"
#include "gs_sbm_ctrl_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one Verilated model per GS_MUT_SBM_*
#include "sched/golden/gs_sbm_ctrl.hpp"

namespace {
using namespace gs::bench;
using gs::SbmArch;
using gs::SbmReg;
using gs::golden::PolicyState;
using gs::golden::SbmCtrl;
namespace lay = gs::spec::layout::sbm_ctrl_state_t;

/// One cycle's inputs.
struct CtrlIn {
  bool start = false;
  uint32_t occ1 = 0, occ2 = 0;
  bool res_valid = false;
  uint64_t res1 = 0, res2 = 0;
};

template <class V>
class CtrlBench {
 public:
  explicit CtrlBench(uint32_t seed) : rtl_(seed) { reset(); }

  void reset() {
    drive(CtrlIn{});
    rtl_.reset();
    gold_.reset();
  }

  /// One cycle with `in` on the ports: compare, clock both. "" or the first difference.
  std::string cycle(const CtrlIn& in) {
    drive(in);
    rtl_.settle();
    const std::string diff = compare();
    if (!diff.empty()) return "cycle " + std::to_string(rtl_.cycle()) + ": " + diff;
    gold_.next(in.start, in.occ1, in.occ2, in.res_valid, in.res1, in.res2);
    rtl_.tick();
    gold_.commit();
    if (rtl_.errors() != 0) return "RTL assertion failed";
    return "";
  }

  /// A whole flow: start, then one result per phase from measure(cfg) with `gap` idle cycles
  /// between results. Returns "" or the first difference; `cfgs` gets the phases' configurations.
  std::string flow(uint32_t occ1, uint32_t occ2,
                   const std::function<void(const SbmReg&, uint64_t&, uint64_t&)>& measure, uint32_t gap,
                   std::vector<SbmReg>* cfgs = nullptr) {
    CtrlIn in;
    in.start = true;
    in.occ1 = occ1;
    in.occ2 = occ2;
    std::string diff = cycle(in);
    if (!diff.empty()) return diff;
    for (uint32_t phase = 0; phase < SbmCtrl::kPhases + 1 && gold_.busy(); ++phase) {
      for (uint32_t i = 0; i < gap; ++i) {
        diff = cycle(CtrlIn{false, occ1, occ2, false, 0, 0});
        if (!diff.empty()) return diff;
      }
      const SbmReg c = gold_.cfg();
      if (cfgs) cfgs->push_back(c);
      CtrlIn r{false, occ1, occ2, true, 0, 0};
      measure(c, r.res1, r.res2);
      diff = cycle(r);
      if (!diff.empty()) return diff;
      // the sums and compares, in chunks: the result held as the policy holds it, or (noise)
      // other results offered meanwhile, which the controller must ignore
      for (uint32_t i = 0; gold_.calc(); ++i) {
        if (i > 2 * gs::spec::SbmChunks) return "still calculating " + std::to_string(i) + " cycles after a result";
        CtrlIn h = r;
        if (noise_) {
          h.res_valid = noise_->below(2) != 0;
          h.res1 = noise_->below(1u << 20);
          h.res2 = noise_->below(1u << 20);
        }
        diff = cycle(h);
        if (!diff.empty()) return diff;
      }
    }
    if (gold_.busy()) return "still busy after nine phases";
    return cycle(CtrlIn{false, occ1, occ2, false, 0, 0});  // the final state compared
  }

  const SbmCtrl& golden() const { return gold_; }
  /// Offer random results while the controller calculates (nullptr: hold the result).
  void set_noise(gs::Rng* r) { noise_ = r; }

 private:
  void drive(const CtrlIn& in) {
    auto& d = rtl_.dut();
    d.start_i = in.start;
    d.occ1_i = in.occ1;
    d.occ2_i = in.occ2;
    d.res_valid_i = in.res_valid;
    d.res1_i = in.res1;
    d.res2_i = in.res2;
  }

  std::string compare() {
    const auto& d = rtl_.dut();
    std::ostringstream o;
    const SbmReg gc = gold_.cfg();
    const SbmReg rc = get_rec<SbmReg>(d.cfg_o);
    if (rc != gc) o << "cfg_o RTL " << str(rc) << " golden " << str(gc) << " ";
    if (bool(d.busy_o) != gold_.busy()) o << "busy_o RTL " << int(d.busy_o) << " golden " << gold_.busy() << " ";
    if (bool(d.res_ack_o) != gold_.ack()) o << "res_ack_o RTL " << int(d.res_ack_o) << " golden " << gold_.ack() << " ";
    PolicyState st;
    gold_.state(st, 0);
    for (const auto& f : lay::kFields) {
      const uint64_t r = gs::rtl::get_bits(d.state_o, f.lsb, f.width);
      const uint64_t g = st.get(f.lsb, f.width);
      if (r != g) o << f.name << " RTL " << r << " golden " << g << " ";
    }
    return o.str();
  }

  Bench<V> rtl_;
  SbmCtrl gold_;
  gs::Rng* noise_ = nullptr;
};

/// A synthetic two-task GPU: each configuration's instructions per task, from a table keyed by
/// the configuration (what the unit runner and the hand-worked examples give).
using Table = std::map<std::string, std::pair<uint64_t, uint64_t>>;
std::function<void(const SbmReg&, uint64_t&, uint64_t&)> from_table(const Table& t) {
  return [t](const SbmReg& c, uint64_t& a, uint64_t& b) {
    const std::string key = c.arch == SbmArch::kMwg || c.arch == SbmArch::kMwgb
                                ? gs::golden::sbm_config_name(SbmReg{c.arch, c.fcache, false, 0}) + "/" +
                                      std::to_string(c.occ_th)
                                : gs::golden::sbm_config_name(c);
    const auto it = t.find(key);
    a = it == t.end() ? 0 : it->second.first;
    b = it == t.end() ? 0 : it->second.second;
  };
}

/// Random instructions: a base per configuration class plus noise, so that ties (equal
/// values), improvements and degradations all occur.
std::function<void(const SbmReg&, uint64_t&, uint64_t&)> random_gpu(gs::Rng& r) {
  return [&r](const SbmReg&, uint64_t& a, uint64_t& b) {
    const uint32_t kind = r.below(10);
    if (kind == 0) {  // a tie-prone small range
      a = r.below(4);
      b = r.below(4);
    } else if (kind == 1) {  // near the SbmInstW limit
      a = (uint64_t(1) << gs::spec::SbmInstW) - 1 - r.below(3);
      b = (uint64_t(1) << gs::spec::SbmInstW) - 1 - r.below(3);
    } else {
      a = 100000 + r.below(20000);
      b = 100000 + r.below(20000);
    }
  };
}

}  // namespace

TEST_CASE("gs_sbm_ctrl directed: hand-worked flows end in Table 6's configurations", "[rtl][bench]") {
  CtrlBench<Vbench_gs_sbm_ctrl> b(3);
  struct Case {
    const char* name;
    uint32_t occ1, occ2;
    Table t;
    const char* want;     // sbm_config_name of SBM_REG
    uint32_t occ_th, ci;  // for MWG / MWGB
    uint32_t phases;      // phases run
  };
  const std::vector<Case> cases = {
      // B2_L12 beats both L2 phases; tuning MWGB2 at occ_th 0 loses to it and occ_th 1 loses IPC:
      // B2_L12 (sf_conv). Phase 0 of the tuning has nothing to compare with, so phase 1 always runs
      {"B2_L12 kept",
       8,
       8,
       {{"Base", {100, 100}},
        {"B1_L12", {90, 100}},
        {"B2_L12", {140, 100}},
        {"B1_L2", {110, 100}},
        {"B2_L2", {120, 100}},
        {"MWGB2/0", {100, 100}},
        {"MWGB2/1", {90, 100}}},
       "B2_L12",
       0,
       0,
       7},
      // L12 no better than L2; B1_L2 is best (dct_sf); tuning loses
      {"B1_L2 kept",
       8,
       8,
       {{"Base", {100, 100}},
        {"B1_L12", {100, 100}},
        {"B2_L12", {90, 100}},
        {"B1_L2", {130, 100}},
        {"B2_L2", {120, 100}},
        {"MWGB1/0", {110, 110}},
        {"MWGB1/1", {100, 100}}},
       "B1_L2",
       0,
       0,
       7},
      // nothing beats Base; MWG shares better, task 2 CI, IPC rises to occ_th 2 (fw_sf: MWG)
      {"MWG occ_th 2",
       8,
       8,
       {{"Base", {150, 150}},
        {"B1_L12", {100, 100}},
        {"B2_L12", {100, 100}},
        {"B1_L2", {140, 150}},
        {"B2_L2", {150, 140}},
        {"MWG/0", {150, 170}},
        {"MWG/1", {150, 180}},
        {"MWG/2", {150, 190}},
        {"MWG/3", {150, 185}}},
       "MWG",
       2,
       1,
       9},
      // B2_L12 wins Algorithm 1; sharing with mm bypassed wins, CI = task 2, stops at 1 (fw_mm: MWGB2)
      {"MWGB2 occ_th 1",
       8,
       8,
       {{"Base", {100, 100}},
        {"B1_L12", {90, 100}},
        {"B2_L12", {140, 100}},
        {"B1_L2", {110, 100}},
        {"B2_L2", {120, 100}},
        {"MWGB2/0", {150, 160}},
        {"MWGB2/1", {150, 170}},
        {"MWGB2/2", {150, 150}}},
       "MWGB2",
       1,
       1,
       8},
      // the occupancy limit: the other task holds 2 workgroups (occ 4 -> half 2), so occ_th 1 is
      // the last step (2 - 1 >= 1); tuning ends there although IPC still rises
      {"occupancy limit",
       4,
       16,
       {{"Base", {100, 100}},
        {"B1_L12", {90, 100}},
        {"B2_L12", {90, 100}},
        {"B1_L2", {130, 100}},
        {"B2_L2", {120, 100}},
        {"MWGB1/0", {150, 160}},
        {"MWGB1/1", {150, 180}}},
       "MWGB1",
       1,
       1,
       7},
  };
  for (const auto& c : cases) {
    INFO(c.name);
    b.reset();
    std::vector<SbmReg> cfgs;
    REQUIRE(b.flow(c.occ1, c.occ2, from_table(c.t), 2, &cfgs) == "");
    const SbmReg r = b.golden().cfg();
    CHECK(gs::golden::sbm_config_name(r) == c.want);
    CHECK(cfgs.size() == c.phases);
    if (r.arch == SbmArch::kMwg || r.arch == SbmArch::kMwgb) {
      CHECK(r.occ_th == c.occ_th);
      CHECK(uint32_t(r.ci) == c.ci);
    }
    std::vector<gs::golden::SbmPhaseRun> runs;
    CHECK(gs::golden::sbm_flow_reference(c.occ1, c.occ2, from_table(c.t), runs) == r);
    CHECK(runs.size() == cfgs.size());
  }
}

TEST_CASE("gs_sbm_ctrl random flows, twin vs. Algorithms 1 and 2 read straight", "[rtl][bench]") {
  CtrlBench<Vbench_gs_sbm_ctrl> b(11);
  gs::Rng r(2018);
  std::map<std::string, uint32_t> seen;
  uint32_t early = 0;
  for (int v = 0; v < 3000; ++v) {
    INFO("flow " << v);
    const uint32_t occ1 = r.below(gs::spec::MaxCtasPerSm + 1), occ2 = r.below(gs::spec::MaxCtasPerSm + 1);
    // one table of results per flow: the reference sees the same numbers the RTL was given
    Table t;
    auto gpu = random_gpu(r);
    auto measure = [&](const SbmReg& c, uint64_t& a, uint64_t& bb) {
      const std::string key = gs::golden::sbm_config_name(SbmReg{c.arch, c.fcache, false, 0}) + "/" +
                              std::to_string(c.occ_th) + "/" + std::to_string(c.ci);
      auto it = t.find(key);
      if (it == t.end()) {
        gpu(c, a, bb);
        t[key] = {a, bb};
      } else {
        a = it->second.first, bb = it->second.second;
      }
    };
    if (r.below(8) == 0) {  // a restart in the middle of a flow, and results while idle
      b.reset();
      CtrlIn in{true, occ1, occ2, false, 0, 0};
      REQUIRE(b.cycle(in) == "");
      for (uint32_t i = 0; i < r.below(6); ++i)
        REQUIRE(b.cycle(CtrlIn{false, occ1, occ2, true, r.below(9), r.below(9)}) == "");
      ++early;
    } else {
      b.reset();
    }
    gs::Rng noise(uint64_t(v) + 1);
    b.set_noise(v % 2 ? &noise : nullptr);
    std::vector<SbmReg> cfgs;
    REQUIRE(b.flow(occ1, occ2, measure, r.below(3), &cfgs) == "");
    REQUIRE(b.cycle(CtrlIn{false, occ1, occ2, true, 5, 5}) == "");  // a result while idle changes nothing
    std::vector<gs::golden::SbmPhaseRun> runs;
    const SbmReg ref = gs::golden::sbm_flow_reference(occ1, occ2, measure, runs);
    REQUIRE(b.golden().cfg() == ref);
    REQUIRE(runs.size() == cfgs.size());
    ++seen[gs::golden::sbm_config_name(ref) + (ref.occ_th ? "+" : "")];
  }
  // the generator reaches every outcome (a bench that cannot fail is a defect)
  for (const char* k :
       {"Base", "B1_L2", "B2_L2", "B1_L12", "B2_L12", "MWG", "MWG+", "MWGB1", "MWGB1+", "MWGB2", "MWGB2+"}) {
    INFO(k);
    CHECK(seen[k] > 20);
  }
  CHECK(early > 100);
  std::ostringstream o;
  for (const auto& [k, n] : seen) o << k << " " << n << ", ";
  WARN("random flows ending in: " << o.str());
}

namespace {
/// The mutation stimulus: random flows, the first difference RTL vs. twin.
template <class V>
std::string first_difference(int flows) {
  CtrlBench<V> b(5);
  gs::Rng r(77);
  for (int v = 0; v < flows; ++v) {
    b.reset();
    auto gpu = random_gpu(r);
    const std::string diff = b.flow(8 + r.below(9), 8 + r.below(9), gpu, 1);
    if (!diff.empty()) return "flow " + std::to_string(v) + ": " + diff;
  }
  return "";
}
}  // namespace

TEST_CASE("gs_sbm_ctrl unmutated: the mutation stimulus finds no difference", "[rtl][bench]") {
  CHECK(first_difference<Vbench_gs_sbm_ctrl>(200) == "");
}

// One test per GS_MUT_SBM_* define of gs_sbm_ctrl.sv: the same stimulus must find a difference.
#define GS_SBM_MUTANT_TEST(define, model)                                           \
  TEST_CASE("gs_sbm_ctrl mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = first_difference<model>(200);                          \
    INFO(diff);                                                                     \
    CHECK(diff != "");                                                              \
    WARN(#define " caught: " << diff);                                              \
  }
GS_BENCH_MUTANTS(GS_SBM_MUTANT_TEST)
