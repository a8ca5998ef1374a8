// gsched tests: the golden water-filling twin (cmodel/sched/golden/gs_waterfill.hpp) on the
// hand-worked readings of Algorithm 1 and against waterfill_reference() on random vectors; the
// fixed-point scaling factor (Eq. 3/4) on hand-worked values; `gsim unit waterfill`'s golden
// side on the shipped vectors (verif/vectors/waterfill_*.json) and its input validation.
#include <catch2/catch.hpp>


#include <nlohmann/json.hpp>

#include "../rtl/benches/wf/wf_vectors.hpp"
#include "common/error.hpp"
#include "unit/unit_runner.hpp"
#include "vector_file.hpp"

namespace {
using gs::golden::WaterfillTwin;
using gs::golden::WfResult;
constexpr uint32_t K = gs::spec::WfMaxKernels;
constexpr uint32_t N = gs::spec::WfMaxSteps;

WfResult twin_run(const gs::golden::WfInputs& in) {
  WaterfillTwin t;
  t.reset();
  return gs::golden::run_waterfill(t, in);
}

using gs::test::vector_text;
}  // namespace

TEST_CASE("waterfill twin on the pinned readings of Algorithm 1", "[golden][waterfill][unit]") {
  for (const auto& dv : gs::bench::wf_directed()) {
    INFO(dv.name);
    const WfResult r = twin_run(dv.in);
    std::vector<uint32_t> got;
    for (uint32_t i = 0; i < K; ++i)
      if (dv.in.k[i].nsteps) got.push_back(r.ctas[i]);
    CHECK(got == dv.ctas);
    CHECK(r.spatial == dv.spatial);
    CHECK(r.cycles == dv.cycles);
    const WfResult ref = gs::golden::waterfill_reference(dv.in);
    CHECK(ref.ctas == r.ctas);
    CHECK(ref.spatial == r.spatial);
  }
}

TEST_CASE("waterfill twin equals Algorithm 1 read straight on random vectors", "[golden][waterfill][unit]") {
  gs::Rng r(77);
  for (int v = 0; v < 20000; ++v) {
    const auto in = gs::bench::wf_random(r);
    const WfResult t = twin_run(in);
    const WfResult ref = gs::golden::waterfill_reference(in);
    INFO("vector " << v);
    REQUIRE(t.ctas == ref.ctas);
    REQUIRE(t.spatial == ref.spatial);
    REQUIRE(t.cycles <= gs::golden::WaterfillTwin::kMaxCycles);
  }
}

TEST_CASE("waterfill scaling factor, Eq. 3 with Eq. 4, fixed point", "[golden][waterfill][unit]") {
  using gs::golden::wf_scale;
  constexpr uint32_t one_phi = 1u << gs::spec::WfPhiFracW, one_avg = 1u << gs::spec::WfAvgFracW;
  constexpr uint32_t one = 1u << gs::spec::WfFactorFracW;
  // CTA_avg = 4.5 (SMs with 1..8 CTAs), phi = 0.5, SM with 8 CTAs: psi = 8/4.5 - 1 = 0.777..
  const auto s = wf_scale(1000, one_phi / 2, 8, 4 * one_avg + one_avg / 2);
  CHECK(s.factor == one + (((8u << 12) / 72 - one) * 128 >> 8));  // floor at each step
  CHECK(s.perf == 1000 * s.factor / one);
  CHECK(wf_scale(1000, 0, 1, 4 * one_avg).factor == one);            // no memory stall: 1
  CHECK(wf_scale(1000, one_phi, 2, 4 * one_avg).factor == one / 2);  // psi = -0.5, phi = 1
  CHECK(wf_scale(1000, one_phi, 2, 4 * one_avg).perf == 500);
  CHECK(wf_scale(1000, (1u << gs::spec::WfPhiW) - 1, 8, 4 * one_avg).factor == 2 * one);  // phi above 1.0 clamps
  CHECK(wf_scale(1000, one_phi, 8, 0).factor == one);                                     // CTA_avg = 0: no scaling
  // a negative psi rounds toward minus infinity: 1 + floor(phi * psi)
  CHECK(wf_scale(1000, 1, 3, 4 * one_avg).factor == one - 1);
}

TEST_CASE("gsim unit waterfill golden side on the shipped vectors", "[golden][waterfill][unit]") {
  const auto pair = nlohmann::json::parse(gs::run_unit("waterfill", vector_text("waterfill_pair.json"),
                                                       "waterfill_pair.json"));
  const auto& g = pair.at("golden");
  REQUIRE(g.at("ctas").size() == 2);
  CHECK(g.at("spatial") == false);
  CHECK(g.at("cycles").get<uint32_t>() > N + 3);
  if (pair.contains("rtl")) CHECK(pair.at("match") == true);
  const auto sp = nlohmann::json::parse(gs::run_unit("waterfill", vector_text("waterfill_spatial.json"),
                                                     "waterfill_spatial.json"));
  CHECK(sp.at("golden").at("spatial") == true);
}

TEST_CASE("gsim unit waterfill refuses malformed inputs naming the field", "[golden][waterfill][unit]") {
  auto fails_with = [](const std::string& text, const std::string& field) {
    try {
      gs::run_unit("waterfill", text, "in.json");
    } catch (const gs::InputError& e) {
      const std::string msg = e.what();
      INFO(msg);
      CHECK(msg.find("in.json") != std::string::npos);
      CHECK(msg.find("'" + field + "'") != std::string::npos);
      return;
    }
    FAIL("accepted: " << text);
  };
  const std::string res = R"("resources": {"threads": 2048, "warps": 64, "regs": 65536, "smem": 98304, "slots": 32})";
  const std::string cta = R"("cta": {"threads": 256, "warps": 8, "regs": 8192, "smem": 0, "slots": 1})";
  fails_with("{" + res + R"(, "kernels": [{)" + cta + R"(, "perf": []}]})", "kernels[0].perf");
  std::string many = "[";
  for (uint32_t i = 0; i <= K; ++i) many += (i ? ", {" : "{") + cta + R"(, "perf": [1]})";
  fails_with("{" + res + R"(, "kernels": )" + many + "]}", "kernels");
  std::string longp = "[";
  for (uint32_t j = 0; j <= N; ++j) longp += (j ? ", " : "") + std::to_string(j + 1);
  fails_with("{" + res + R"(, "kernels": [{)" + cta + R"(, "perf": )" + longp + "]}]}", "kernels[0].perf");
  fails_with(
      "{" + res +
          R"(, "kernels": [{"cta": {"threads": 4000, "warps": 8, "regs": 0, "smem": 0, "slots": 1}, "perf": [1]}]})",
      "kernels[0].cta.threads");
  fails_with(R"({"kernels": []})", "resources");
  fails_with("{" + res + R"(, "kernels": [{)" + cta + R"(, "perf": [3, -1]}]})", "kernels[0].perf[1]");
}
