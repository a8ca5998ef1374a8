// gsched tests: Pai et al.'s Simple Slicing runtime predictor read straight, srtf_reference()
// (cmodel/metrics/srtf_reference.hpp, the predictor of `gsim accuracy`), on the hand-worked
// readings of Algorithm 1 and Eq. 2 (srtf_vectors.hpp, docs/srtf-accuracy.md) and on random
// event streams of one SM.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "metrics/srtf_reference.hpp"
#include "srtf_vectors.hpp"

TEST_CASE("srtf_reference on the pinned readings of Algorithm 1 and Eq. 2", "[golden][srtf][unit]") {
  for (const auto& dv : gs::test::srtf_directed()) {
    INFO(dv.name);
    std::vector<uint64_t> got;
    for (const auto& p : gs::srtf_reference(dv.evs)) got.push_back(p.pred);
    CHECK(got == dv.preds);
  }
}

TEST_CASE("srtf_reference on random streams: one Eq. 2 per block end, other slots' events ignored",
          "[golden][srtf][unit]") {
  constexpr uint32_t K = gs::spec::MaxKernels, B = gs::spec::MaxCtasPerSm;
  gs::Rng r(14);
  for (int v = 0; v < 2000; ++v) {
    const auto evs = gs::test::srtf_random(r, 150);
    INFO("stream " << v);
    const auto preds = gs::srtf_reference(evs);
    // the events the predictor acts on (its slot running), and the block ends among them
    std::vector<bool> running(K, false);
    std::vector<gs::SrtfTimedEv> kept;
    std::vector<uint32_t> kept_index;  // index in evs of kept[i]
    std::vector<uint32_t> ends;        // indices in evs of the counted block ends
    for (uint32_t i = 0; i < evs.size(); ++i) {
      const auto& e = evs[i];
      const uint32_t k = e.slot % K;
      if (e.kind != gs::SrtfEvent::kLaunch && !running[k]) continue;
      if (e.kind == gs::SrtfEvent::kLaunch) running[k] = true;
      if (e.kind == gs::SrtfEvent::kKernelEnd) running[k] = false;
      if (e.kind == gs::SrtfEvent::kBlockEnd && e.blk < B) ends.push_back(i);
      kept.push_back(e);
      kept_index.push_back(i);
    }
    std::vector<uint32_t> pred_events;
    for (const auto& p : preds) {
      pred_events.push_back(p.event);
      // Eq. 2 over the prediction's own operands (floor, a negative remainder of blocks is 0)
      REQUIRE(p.resident >= 1);
      REQUIRE(p.slot == evs[p.event].slot % K);
      const uint64_t left = p.total > p.done ? p.total - p.done : 0;
      const unsigned __int128 eq2 = static_cast<unsigned __int128>(p.active) +
                                    static_cast<unsigned __int128>(left) * p.t / p.resident;
      REQUIRE(p.pred == static_cast<uint64_t>(std::min<unsigned __int128>(eq2, gs::kSrtfPredMax)));
      REQUIRE(p.pred >= p.active);
    }
    REQUIRE(pred_events == ends);
    // the same stream without the events of slots not running predicts the same
    auto again = gs::srtf_reference(kept);
    for (auto& p : again) p.event = kept_index[p.event];
    REQUIRE(again == preds);
  }
}

TEST_CASE("srtf_reference Eq. 2 by hand", "[golden][srtf][unit]") {
  using namespace gs::test;
  // Sec. 4's example shape: 2 resident blocks of 1,000 cycles, 10 blocks on the SM; after the
  // first end 9 remain: 1,000 + 9 * 1,000 / 2 = 5,500 (the whole kernel: 5 waves, 5,000)
  const auto p = gs::srtf_reference({srtf_launch(0, 3, 10), srtf_start(0, 3, 0), srtf_start(0, 3, 1),
                                     srtf_end(1000, 3, 0)});
  REQUIRE(p.size() == 1);
  CHECK(p[0].pred == 5500);
  CHECK(p[0].t == 1000);
  CHECK(p[0].resident == 2);
  CHECK(p[0].slot == 3);
}
