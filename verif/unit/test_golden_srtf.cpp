// gsched tests: the golden twin of SRTF's Simple Slicing runtime predictor
// (cmodel/sched/golden/gs_srtf_predict.hpp) on the hand-worked readings of Pai et al.'s
// Algorithm 1 and Eq. 2 and against srtf_reference() on random event streams; `gsim unit
// srtf-predict`'s golden side on the shipped vectors (verif/vectors/srtf_predict_*.json) and
// its input validation.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "../rtl/benches/srtf/srtf_vectors.hpp"
#include "common/error.hpp"
#include "unit/unit_runner.hpp"
#include "unit/unit_srtf_predict.hpp"
#include "vector_file.hpp"

namespace {
using gs::golden::SrtfTimedEv;
using gs::test::vector_text;
constexpr uint32_t D = gs::spec::SrtfDivW;

/// The golden replay (one prediction per block end, drained after each).
nlohmann::json golden_replay(const std::vector<SrtfTimedEv>& evs) {
  gs::GoldenSrtfPredictUnit unit;
  return gs::replay_srtf_predict(unit, evs);
}

/// The replay's predictions without "latency", to compare with srtf_reference_json().
nlohmann::json without_latency(nlohmann::json preds) {
  for (auto& p : preds) p.erase("latency");
  return preds;
}
}  // namespace

TEST_CASE("srtf-predict twin on the pinned readings of Algorithm 1 and Eq. 2", "[golden][srtf][unit]") {
  for (const auto& dv : gs::bench::srtf_directed()) {
    INFO(dv.name);
    const nlohmann::json out = golden_replay(dv.evs);
    std::vector<uint64_t> got;
    for (const auto& p : out.at("predictions")) {
      got.push_back(p.at("pred").get<uint64_t>());
      CHECK(p.at("latency").get<uint64_t>() == D + 2);
    }
    CHECK(got == dv.preds);
    CHECK(without_latency(out.at("predictions")) == gs::srtf_reference_json(dv.evs));
  }
}

/// `evs` as the JSON input of `gsim unit srtf-predict`.
static nlohmann::json as_input(const std::vector<SrtfTimedEv>& evs) {
  const char* kinds[] = {"launch", "start", "end", "kernel_end"};
  nlohmann::json in{{"total_blocks", nlohmann::json::object()}, {"events", nlohmann::json::array()}};
  for (const auto& e : evs) {
    nlohmann::json j{{"cycle", e.cycle}, {"kind", kinds[static_cast<int>(e.kind)]}, {"kernel", e.slot}};
    if (e.kind == gs::SrtfEvent::kBlockStart || e.kind == gs::SrtfEvent::kBlockEnd) j["block"] = e.blk;
    in["events"].push_back(j);
  }
  return in;
}

TEST_CASE("srtf-predict twin equals Eq. 2 read straight on random streams", "[golden][srtf][unit]") {
  gs::Rng r(14);
  for (int v = 0; v < 2000; ++v) {
    auto evs = gs::bench::srtf_random(r, 150, false);
    INFO("stream " << v);
    REQUIRE(without_latency(golden_replay(evs).at("predictions")) == gs::srtf_reference_json(evs));
    // the well-formed stream passes the input checks unchanged (one Total_Blocks per slot here)
    for (auto& e : evs)
      if (e.kind == gs::SrtfEvent::kLaunch) e.total = 5 + e.slot;
    nlohmann::json in = as_input(evs);
    for (uint32_t k = 0; k < gs::spec::MaxKernels; ++k) in["total_blocks"][std::to_string(k)] = 5 + k;
    const auto parsed = gs::parse_srtf_predict(in, "random.json");
    REQUIRE(parsed.size() == evs.size());
    for (uint32_t i = 0; i < evs.size(); ++i) {
      REQUIRE(parsed[i].cycle == evs[i].cycle);
      REQUIRE(parsed[i].kind == evs[i].kind);
      REQUIRE(parsed[i].total == evs[i].total);
    }
  }
}

TEST_CASE("srtf-predict Eq. 2 by hand", "[golden][srtf][unit]") {
  using namespace gs::bench;
  // Sec. 4's example shape: 2 resident blocks of 1,000 cycles, 10 blocks on the SM; after the
  // first end 9 remain: 1,000 + 9 * 1,000 / 2 = 5,500 (the whole kernel: 5 waves, 5,000)
  const auto p = gs::golden::srtf_reference({srtf_launch(0, 3, 10), srtf_start(0, 3, 0), srtf_start(0, 3, 1),
                                             srtf_end(1000, 3, 0)});
  REQUIRE(p.size() == 1);
  CHECK(p[0].pred == 5500);
  CHECK(p[0].t == 1000);
  CHECK(p[0].resident == 2);
  CHECK(p[0].slot == 3);
}

TEST_CASE("gsim unit srtf-predict golden side on the shipped vectors", "[golden][srtf][unit]") {
  for (const char* name : {"srtf_predict_alone.json", "srtf_predict_slices.json"}) {
    INFO(name);
    const auto out = nlohmann::json::parse(gs::run_unit("srtf-predict", vector_text(name), name));
    const auto& g = out.at("golden");
    REQUIRE(g.at("predictions").size() >= 4);
    const auto evs = gs::parse_srtf_predict(nlohmann::json::parse(vector_text(name)), name);
    CHECK(without_latency(g.at("predictions")) == gs::srtf_reference_json(evs));
    if (out.contains("rtl")) CHECK(out.at("match") == true);
  }
}

TEST_CASE("gsim unit srtf-predict refuses malformed inputs naming the field", "[golden][srtf][unit]") {
  auto fails_with = [](const std::string& text, const std::string& field) {
    try {
      gs::run_unit("srtf-predict", text, "in.json");
    } catch (const gs::InputError& e) {
      const std::string msg = e.what();
      INFO(msg);
      CHECK(msg.find("in.json") != std::string::npos);
      CHECK(msg.find("'" + field + "'") != std::string::npos);
      return;
    }
    FAIL("accepted: " << text);
  };
  const std::string tb = R"("total_blocks": {"0": 4})";
  const std::string launch = R"({"cycle": 0, "kind": "launch", "kernel": 0})";
  fails_with(R"({"events": [{"cycle": 0, "kind": "launch", "kernel": 0}]})", "total_blocks");
  fails_with("{" + tb + "}", "events");
  fails_with("{" + tb + R"(, "events": []})", "events");
  fails_with("{" + tb + R"(, "events": [{"cycle": 0, "kind": "go", "kernel": 0}]})", "events[0].kind");
  fails_with("{" + tb + R"(, "events": [{"cycle": -1, "kind": "launch", "kernel": 0}]})", "events[0].cycle");
  fails_with("{" + tb + R"(, "events": [{"cycle": 0, "kind": "launch", "kernel": 8}]})", "events[0].kernel");
  fails_with("{" + tb + R"(, "events": [{"cycle": 0, "kind": "launch", "kernel": 1}]})", "total_blocks.1");
  fails_with("{" + tb + R"(, "events": [)" + launch + R"(, {"cycle": 1, "kind": "start", "kernel": 0}]})",
             "events[1].block");
  fails_with("{" + tb + R"(, "events": [)" + launch + R"(, {"cycle": 1, "kind": "start", "kernel": 0, "block": 32}]})",
             "events[1].block");
  fails_with("{" + tb + R"(, "events": [)" + launch + R"(, {"cycle": 1, "kind": "end", "kernel": 0, "block": 3}]})",
             "events[1].block");
  fails_with("{" + tb + R"(, "events": [{"cycle": 5, "kind": "start", "kernel": 0, "block": 0}]})", "events[0].kernel");
  fails_with(
      "{" + tb +
          R"(, "events": [{"cycle": 5, "kind": "launch", "kernel": 0}, {"cycle": 4, "kind": "kernel_end", "kernel": 0}]})",
      "events[1].cycle");
  fails_with("{" + tb + R"(, "events": [)" + launch + R"(, {"cycle": 1, "kind": "start", "kernel": 0, "block": 2},
              {"cycle": 9, "kind": "kernel_end", "kernel": 0}]})",
             "events[2].kind");
  fails_with("{" + tb + R"(, "events": [)" + launch + R"(, {"cycle": 1, "kind": "start", "kernel": 0, "block": 2},
              {"cycle": 4294967297, "kind": "end", "kernel": 0, "block": 2}]})",
             "events[2].cycle");
  fails_with(R"({"total_blocks": {"x": 4}, "events": [)" + launch + "]}", "total_blocks.x");
  fails_with(R"({"total_blocks": {"0": 1048576}, "events": [)" + launch + "]}", "total_blocks.0");
}
