// gsched tests: `gsim unit dss` on the shipped vectors (verif/vectors/dss_*.json) and its
// input validation.
#include <catch2/catch.hpp>


#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "unit/unit_runner.hpp"
#include "vector_file.hpp"

namespace {
using gs::test::vector_text;
}  // namespace

TEST_CASE("dss unit preempts two SMs of the indebted kernel", "[golden][dss][unit]") {
  const auto out = nlohmann::json::parse(gs::run_unit("dss", vector_text("dss_preempt.json"), "dss_preempt.json"));
  const auto& g = out.at("golden");
  REQUIRE(g.at("actions").size() == 2);
  for (const auto& a : g.at("actions")) {
    CHECK(a.at("action") == "preempt");
    CHECK(a.at("victim") == 0);
    CHECK(a.at("next") == 1);
  }
  CHECK(g.at("tokens").at("0") == 0);
  CHECK(g.at("tokens").at("1") == 0);
  CHECK(g.at("sms").at(3).at("state") == "reserved");
  CHECK(g.at("sms").at(0).at("state") == "running");
}

TEST_CASE("dss unit releases an SM and assigns idle SMs to the richest kernel", "[golden][dss][unit]") {
  const auto out = nlohmann::json::parse(gs::run_unit("dss", vector_text("dss_idle.json"), "dss_idle.json"));
  const auto& acts = out.at("golden").at("actions");
  REQUIRE(acts.size() == 3);
  CHECK(acts[0].at("action") == "release");
  CHECK(acts[0].at("sm") == 3);
  CHECK(acts[1].at("action") == "assign");
  CHECK(acts[1].at("sm") == 1);
  CHECK(acts[1].at("kernel") == 1);
  CHECK(acts[2].at("sm") == 3);
  CHECK(out.at("golden").at("tokens").at("1") == -1);
}

TEST_CASE("dss unit rejects malformed input", "[golden][dss][unit]") {
  CHECK_THROWS_AS(gs::run_unit("dss", "{", "x.json"), gs::InputError);
  CHECK_THROWS_AS(gs::run_unit("nope", vector_text("dss_idle.json"), "x.json"), gs::InputError);
  CHECK_THROWS_AS(gs::run_unit("dss", R"({"num_sms": 1, "event": "arrival", "kernels": [{"id": 0, "tokens": 1}],
                                          "sms": [{"state": "running"}]})",
                               "x.json"),
                  gs::InputError);
  CHECK_THROWS_AS(gs::run_unit("dss", R"({"num_sms": 2, "event": "arrival", "kernels": [{"id": 0, "tokens": 1}],
                                          "sms": [{"state": "idle"}]})",
                               "x.json"),
                  gs::InputError);
}
