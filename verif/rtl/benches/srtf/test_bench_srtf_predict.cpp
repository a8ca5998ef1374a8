// gsched block bench: rtl/policy/gs_srtf_predict.sv vs. golden SrtfPredictTwin (every register,
// through state_o, and every output, every cycle), and the twin vs. srtf_reference() (Pai et
// al.'s Algorithm 1 and Eq. 2 read straight). Directed streams: the readings pinned in
// docs/rtl/gs_srtf_predict.md with hand-worked predictions (srtf_vectors.hpp); the divider
// queue (every slot ending a block in consecutive cycles) against the latency contract;
// random: one SM's event streams with random gaps (back-to-back events queue divisions, long
// gaps drain them), stamps crossing 2**CycleW, events of slots not running. Each mutant of
// gs_srtf_predict.sv (GS_MUT_SRTF_*, docs/rtl/mutations.md) is built as its own model, and the
// same stimulus must find a difference: the mutation tests below.
#include <catch2/catch.hpp>

#include <sstream>

#include "Vbench_gs_srtf_predict.h"
#include "bench_records.hpp"
#include "gs_srtf_predict_mutants.hpp"  // generated: GS_BENCH_MUTANTS(X), one Verilated model per GS_MUT_SRTF_*
#include "srtf/srtf_vectors.hpp"

namespace {
using namespace gs::bench;
using gs::golden::SrtfEv;
using gs::golden::SrtfPrediction;
using gs::golden::SrtfPredictTwin;
namespace lay = gs::spec::layout::srtf_pred_state_t;
constexpr uint32_t K = gs::spec::MaxKernels;
constexpr uint32_t B = gs::spec::MaxCtasPerSm;
constexpr uint32_t D = gs::spec::SrtfDivW;
constexpr uint32_t PW = gs::spec::SrtfPredW;
constexpr uint32_t CW = gs::spec::CycleW;
constexpr uint32_t BW = gs::spec::CtaIdW;
constexpr uint32_t RW = gs::spec::CtaCntW;
constexpr uint64_t kLatencyBound = (K + 1) * (D + 1);  // docs/rtl/gs_srtf_predict.md

SrtfEv on_port(const SrtfTimedEv& e) {
  return SrtfEv{true, e.kind, e.slot, e.blk, static_cast<uint32_t>(e.cycle & gs::golden::width_mask64(CW)), e.total};
}

template <class V>
class SrtfBench {
 public:
  explicit SrtfBench(uint32_t seed) : rtl_(seed) { reset(); }

  /// rst_ni on both sides: a stream starts from an SM with nothing launched.
  void reset() {
    drive(SrtfEv{});
    rtl_.reset();
    gold_.reset();
  }

  /// One cycle with `ev` on the ports: compare, clock both. "" or the first difference.
  std::string cycle(const SrtfEv& ev) {
    drive(ev);
    rtl_.settle();
    const std::string diff = compare();
    if (!diff.empty()) return "cycle " + std::to_string(rtl_.cycle()) + ": " + diff;
    gold_.next(ev);
    rtl_.tick();
    gold_.commit();
    if (rtl_.errors() != 0) return "RTL assertion failed";
    return "";
  }

  /// Idle cycles until busy_o is low (at most the latency bound); `waited` counts them. The
  /// state after the last edge is compared too (the prediction written there included).
  std::string drain(uint64_t* waited = nullptr) {
    uint64_t n = 0;
    while (gold_.busy()) {
      if (++n > kLatencyBound) return "busy past the latency bound";
      const std::string diff = cycle(SrtfEv{});
      if (!diff.empty()) return diff;
    }
    if (waited) *waited = n;
    drive(SrtfEv{});
    rtl_.settle();
    const std::string diff = compare();
    return diff.empty() ? "" : "after draining: " + diff;
  }

  /// The stream, one event per cycle. drain_each: after every block end clock until idle and
  /// record the prediction (latency: event cycle to the prediction, counting both); otherwise
  /// `gaps` (if given) adds random idle cycles between events. Always drained at the end.
  std::string run(const std::vector<SrtfTimedEv>& evs, bool drain_each, gs::Rng* gaps = nullptr,
                  std::vector<SrtfPrediction>* preds = nullptr, uint64_t* max_latency = nullptr) {
    for (uint32_t i = 0; i < evs.size(); ++i) {
      const uint32_t k = evs[i].slot;
      const bool counted = evs[i].kind == SrtfEvent::kBlockEnd && (gold_.q.valid >> k & 1u) && evs[i].blk < B;
      std::string diff = cycle(on_port(evs[i]));
      if (!diff.empty()) return "event " + std::to_string(i) + ": " + diff;
      if (drain_each && counted) {
        uint64_t waited = 0;
        diff = drain(&waited);
        if (!diff.empty()) return "event " + std::to_string(i) + ": " + diff;
        if (max_latency) *max_latency = std::max(*max_latency, waited + 1);
        const auto& q = gold_.q;
        if (preds)
          preds->push_back(SrtfPrediction{i, k, q.active[k], q.t[k], q.done[k], q.total[k], q.den[k], q.pred[k]});
      } else if (gaps) {
        const uint32_t g = gaps->below(100);
        const uint32_t idle = g < 60 ? 0 : g < 90 ? gaps->below(D) : gaps->below(4 * D);
        for (uint32_t j = 0; j < idle; ++j) {
          diff = cycle(SrtfEv{});
          if (!diff.empty()) return "event " + std::to_string(i) + " gap: " + diff;
        }
      }
    }
    return drain();
  }

  const SrtfPredictTwin& golden() const { return gold_; }

 private:
  void drive(const SrtfEv& ev) {
    auto& d = rtl_.dut();
    d.ev_valid_i = ev.valid;
    d.ev_kind_i = static_cast<uint8_t>(ev.kind);
    d.ev_slot_i = ev.slot;
    d.ev_blk_i = ev.blk;
    d.ev_cycle_i = ev.cycle;
    d.ev_total_i = ev.total;
  }

  std::string compare() {
    const auto& d = rtl_.dut();
    const SrtfPredictTwin::Regs& q = gold_.q;
    std::ostringstream o;
    auto field = [&](const std::string& name, uint64_t rtl, uint64_t gold) {
      if (rtl != gold && o.tellp() == 0) o << name << " RTL " << rtl << " golden " << gold;
    };
    auto reg = [&](const std::string& name, uint32_t lsb, uint32_t w, uint64_t gold) {
      field(name, get_bits(d.state_o, lsb, w), gold);
    };
    reg("valid", lay::valid_lsb, K, q.valid);
    reg("reslice", lay::reslice_lsb, K, q.reslice);
    reg("pending", lay::pending_lsb, K, q.pending);
    reg("has_pred", lay::has_pred_lsb, K, q.has_pred);
    for (uint32_t k = 0; k < K; ++k) {
      const std::string s = "[" + std::to_string(k) + "]";
      reg("active" + s, lay::active_lsb + k * PW, PW, q.active[k]);
      reg("last" + s, lay::last_lsb + k * CW, CW, q.last[k]);
      reg("done" + s, lay::done_lsb + k * BW, BW, q.done[k]);
      reg("total" + s, lay::total_lsb + k * BW, BW, q.total[k]);
      reg("resident" + s, lay::resident_lsb + k * RW, RW, q.resident[k]);
      reg("den" + s, lay::den_lsb + k * RW, RW, q.den[k]);
      reg("t" + s, lay::t_lsb + k * CW, CW, q.t[k]);
      reg("pred" + s, lay::pred_lsb + k * PW, PW, q.pred[k]);
      field("pred_o" + s, get_bits(d.pred_o, k * PW, PW), q.pred[k]);
    }
    for (uint32_t l = 0; l < B; ++l)
      reg("block_start[" + std::to_string(l) + "]", lay::block_start_lsb + l * CW, CW, q.block_start[l]);
    reg("rr", lay::rr_lsb, lay::rr_width, q.rr);
    reg("div_busy", lay::div_busy_lsb, 1, q.div_busy);
    reg("div_k", lay::div_k_lsb, lay::div_k_width, q.div_k);
    reg("div_cnt", lay::div_cnt_lsb, lay::div_cnt_width, q.div_cnt);
    reg("div_rem", lay::div_rem_lsb, lay::div_rem_width, q.div_rem);
    reg("div_quo", lay::div_quo_lsb, lay::div_quo_width, q.div_quo);
    reg("div_den", lay::div_den_lsb, lay::div_den_width, q.div_den);
    reg("div_add", lay::div_add_lsb, lay::div_add_width, q.div_add);
    field("pred_valid_o", d.pred_valid_o, q.has_pred);
    field("busy_o", d.busy_o, gold_.busy());
    return o.str();
  }

  Bench<V> rtl_;
  SrtfPredictTwin gold_;
};

/// Every slot ends a block in consecutive cycles: the divider queue at its longest.
std::vector<SrtfTimedEv> srtf_queue_stream() {
  std::vector<SrtfTimedEv> evs;
  for (uint32_t k = 0; k < K; ++k) evs.push_back(srtf_launch(0, k, 100 + k));
  for (uint32_t k = 0; k < K; ++k) evs.push_back(srtf_start(10, k, k));
  for (uint32_t k = 0; k < K; ++k) evs.push_back(srtf_end(1000 + 7 * k, k, k));
  return evs;
}

/// The bench's whole stimulus on model V: "" when RTL and golden agree everywhere, else the
/// first difference (with the stream that shows it).
template <class V>
std::string first_difference(uint32_t randoms) {
  SrtfBench<V> b(5);
  for (const auto& dv : srtf_directed()) {
    b.reset();
    const std::string diff = b.run(dv.evs, true);
    if (!diff.empty()) return "directed '" + dv.name + "': " + diff;
  }
  b.reset();
  std::string diff = b.run(srtf_queue_stream(), false);
  if (!diff.empty()) return "queue: " + diff;
  gs::Rng r(15);
  for (uint32_t v = 0; v < randoms; ++v) {
    b.reset();
    diff = b.run(srtf_random(r, 200), v % 2 == 0, &r);
    if (!diff.empty()) return "random stream " + std::to_string(v) + ": " + diff;
  }
  return "";
}

}  // namespace

TEST_CASE("gs_srtf_predict directed, the pinned readings of Algorithm 1 and Eq. 2", "[rtl][bench]") {
  SrtfBench<Vbench_gs_srtf_predict> b(3);
  for (const auto& dv : srtf_directed()) {
    INFO(dv.name);
    b.reset();
    std::vector<SrtfPrediction> preds;
    uint64_t latency = 0;
    REQUIRE(b.run(dv.evs, true, nullptr, &preds, &latency) == "");
    std::vector<uint64_t> got;
    for (const auto& p : preds) got.push_back(p.pred);
    CHECK(got == dv.preds);
    CHECK(preds == gs::golden::srtf_reference(dv.evs));
    CHECK(latency == D + 2);  // the divider was free: the best case of the contract
  }
}

TEST_CASE("gs_srtf_predict divider queue within the latency bound", "[rtl][bench]") {
  // every slot ends a block in consecutive cycles; each prediction must land within the bound
  SrtfBench<Vbench_gs_srtf_predict> b(4);
  const auto evs = srtf_queue_stream();
  const auto ref = gs::golden::srtf_reference(evs);
  REQUIRE(ref.size() == K);
  std::vector<uint64_t> landed(K, 0);
  uint64_t now = 0;
  for (uint32_t i = 0; i < evs.size(); ++i) {
    REQUIRE(b.cycle(on_port(evs[i])) == "");
    ++now;
  }
  const uint64_t first_end = evs.size() - K;  // the cycle (from 0) of slot 0's block end
  while (b.golden().busy()) {
    REQUIRE(now < first_end + 2 * kLatencyBound);
    REQUIRE(b.cycle(SrtfEv{}) == "");
    ++now;
    for (uint32_t k = 0; k < K; ++k)
      if (!landed[k] && (b.golden().q.has_pred >> k & 1u)) landed[k] = now;
  }
  for (uint32_t k = 0; k < K; ++k) {
    INFO("slot " << k);
    CHECK(b.golden().q.pred[k] == ref[k].pred);
    // the end was on the port in cycle first_end + k; the prediction is in pred_o from `landed`
    CHECK(landed[k] - (first_end + k) <= kLatencyBound);
  }
  // round robin from slot 0: slot k lands (k + 1) divisions of D + 1 cycles after the first end
  CHECK(landed[K - 1] - first_end == K * (D + 1) + 1);
  WARN("queue of " << K << " block ends: last prediction " << landed[K - 1] - (first_end + K - 1)
                   << " cycles after its end (bound " << kLatencyBound << ")");
}

TEST_CASE("gs_srtf_predict random event streams, twin vs. Eq. 2 read straight", "[rtl][bench]") {
  SrtfBench<Vbench_gs_srtf_predict> b(7);
  gs::Rng r(2014);
  uint64_t ends = 0, resliced = 0, saturated_rem = 0, max_latency = 0;
  for (int v = 0; v < 300; ++v) {
    const auto evs = srtf_random(r, 200);
    INFO("random stream " << v);
    // drained after every end: each prediction is Eq. 2 of that end
    std::vector<SrtfPrediction> preds;
    b.reset();
    REQUIRE(b.run(evs, true, nullptr, &preds, &max_latency) == "");
    const auto ref = gs::golden::srtf_reference(evs);
    REQUIRE(preds == ref);
    // back to back with random gaps: divisions queue and merge; once drained, every running
    // slot holds the prediction of its last block end
    b.reset();
    REQUIRE(b.run(evs, false, &r) == "");
    std::vector<int64_t> last(K, -1);
    for (uint32_t i = 0; i < ref.size(); ++i) last[ref[i].slot] = i;
    for (uint32_t k = 0; k < K; ++k) {
      if (!(b.golden().q.valid >> k & 1u) || last[k] < 0) continue;
      const auto& p = ref[last[k]];
      bool relaunched = false;  // a launch of the slot after its last end clears the prediction
      for (uint32_t i = p.event + 1; i < evs.size(); ++i)
        relaunched = relaunched || (evs[i].kind == SrtfEvent::kLaunch && evs[i].slot == k);
      if (relaunched) continue;
      CHECK(b.golden().q.pred[k] == p.pred);
    }
    ends += ref.size();
    for (const auto& p : ref) saturated_rem += p.done >= p.total;
    for (uint32_t i = 1; i < ref.size(); ++i) resliced += ref[i].slot == ref[i - 1].slot && ref[i].t != ref[i - 1].t;
  }
  // the generator reaches the cases that matter (a bench that cannot fail is a defect)
  CHECK(ends > 10000);
  CHECK(resliced > 500);
  CHECK(saturated_rem > 500);
  CHECK(max_latency == D + 2);
  WARN("random: " << ends << " block ends, " << resliced << " new t after a reslice, " << saturated_rem
                  << " past Total_Blocks");
}

TEST_CASE("gs_srtf_predict unmutated: the mutation stimulus finds no difference", "[rtl][bench]") {
  CHECK(first_difference<Vbench_gs_srtf_predict>(60) == "");
}

// One test per GS_MUT_SRTF_* define: the same stimulus must find a difference.
#define GS_SRTF_MUTANT_TEST(define, model)                                              \
  TEST_CASE("gs_srtf_predict mutant " #define " is caught", "[rtl][bench][mutation]") { \
    const std::string diff = first_difference<model>(60);                               \
    INFO(diff);                                                                         \
    CHECK(diff != "");                                                                  \
    WARN(#define " caught: " << diff);                                                  \
  }
GS_BENCH_MUTANTS(GS_SRTF_MUTANT_TEST)
