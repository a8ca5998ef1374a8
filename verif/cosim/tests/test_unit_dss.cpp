// gsched cosim tests: `gsim unit dss` golden and RTL side by side.
//
// The Verilated gs_policy_dss (rtl::make_rtl_dss_unit) and its golden twin (GoldenDssUnit) run
// in the same environment loop (run_dss_unit) on the shipped vectors and on seeded random JSON
// states; their results (actions with cycles, tokens, final SMST) must be equal. A decorator
// that corrupts one RTL decision shows the comparison notices a single wrong cycle.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/rng.hpp"
#include "rtl_sched/register.hpp"
#include "rtl_sched/unit_dss_rtl.hpp"
#include "unit/unit_dss.hpp"
#include "unit/unit_runner.hpp"

namespace {

using nlohmann::json;

std::string vector_text(const std::string& name) {
  const std::string here = __FILE__;
  const std::string root = here.substr(0, here.rfind("/verif/cosim/tests/"));
  std::ifstream f(root + "/verif/vectors/" + name);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

/// A valid DSS unit state (docs/rtl/dss.md): 1..MaxSms SMs, 1..MaxKernels kernels with distinct
/// ids, tokens around zero (debt included), every SM idle, running or reserved.
json random_state(gs::Rng& rng) {
  const uint32_t num_sms = 1 + rng.below(gs::golden::MaxSms);
  const uint32_t num_kernels = 1 + rng.below(gs::golden::MaxKernels);
  json kernels = json::array();
  std::vector<uint32_t> ids;
  while (ids.size() < num_kernels) {
    const uint32_t id = rng.below(255);
    if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
    ids.push_back(id);
    kernels.push_back(json{{"id", id}, {"tokens", int(rng.below(25)) - 12}, {"pending", rng.chance_permille(600)}});
  }
  json sms = json::array();
  for (uint32_t s = 0; s < num_sms; ++s) {
    const uint32_t kind = rng.below(10);  // 3 idle, 6 running, 1 reserved
    if (kind < 3) {
      sms.push_back(json{{"state", "idle"}});
    } else if (kind < 9) {
      sms.push_back(json{{"state", "running"}, {"kernel", ids[rng.below(num_kernels)]}, {"ctas", rng.below(4)}});
    } else {
      json sm{{"state", "reserved"}, {"next", ids[rng.below(num_kernels)]}};
      if (rng.chance_permille(500)) sm["kernel"] = ids[rng.below(num_kernels)];
      sms.push_back(sm);
    }
  }
  const char* event = rng.chance_permille(500) ? "arrival" : "sm_idle";
  return json{{"num_sms", num_sms}, {"event", event}, {"kernels", kernels}, {"sms", sms}};
}

json run_golden(const json& state) {
  gs::GoldenDssUnit unit;
  return gs::run_dss_unit(unit, state, "random state");
}

json run_rtl(const json& state) {
  const auto unit = gs::rtl::make_rtl_dss_unit();
  return gs::run_dss_unit(*unit, state, "random state");
}

/// Wraps a unit and drops its first owner write (a one-cycle RTL bug).
class DropFirstOwnerWrite final : public gs::DssUnit {
 public:
  explicit DropFirstOwnerWrite(gs::DssUnit& inner) : inner_(inner) {}
  void reset() override { inner_.reset(); }
  gs::DssUnitDecision eval(const gs::DssUnitInputs& in) override {
    gs::DssUnitDecision o = inner_.eval(in);
    if (o.owner_wr.valid && !dropped_) {
      o.owner_wr.valid = false;
      dropped_ = true;
    }
    return o;
  }
  gs::golden::TokenUpd tokens(bool accepted) override { return inner_.tokens(accepted); }
  void clock() override { inner_.clock(); }
  bool busy() const override { return inner_.busy(); }

 private:
  gs::DssUnit& inner_;
  bool dropped_ = false;
};

}  // namespace

TEST_CASE("unit dss rtl side matches golden on the shipped vectors", "[cosim][dss][unit]") {
  gs::register_rtl_schedulers();
  for (const char* name : {"dss_preempt.json", "dss_idle.json"}) {
    INFO(name);
    const json out = json::parse(gs::run_unit("dss", vector_text(name), name));
    REQUIRE(out.contains("rtl"));
    REQUIRE(out.contains("match"));
    CHECK(out.at("rtl").dump(1) == out.at("golden").dump(1));
    CHECK(out.at("match") == true);
    CHECK_FALSE(out.at("rtl").at("actions").empty());
  }
}

TEST_CASE("unit dss rtl side matches golden on random states", "[cosim][dss][unit]") {
  gs::Rng rng(20261123);
  int with_actions = 0, with_preempt = 0;
  for (int i = 0; i < 150; ++i) {
    const json state = random_state(rng);
    INFO("state " << i << ": " << state.dump());
    const json golden = run_golden(state);
    const json rtl = run_rtl(state);
    REQUIRE(rtl.dump(1) == golden.dump(1));
    with_actions += !golden.at("actions").empty();
    for (const auto& a : golden.at("actions")) with_preempt += a.at("action") == "preempt";
  }
  // the states exercise the unit, not just its sleep
  CHECK(with_actions > 100);
  CHECK(with_preempt > 10);
}

TEST_CASE("unit dss comparison catches one wrong rtl decision", "[cosim][dss][unit]") {
  const json state = json::parse(vector_text("dss_idle.json"));
  const auto rtl = gs::rtl::make_rtl_dss_unit();
  DropFirstOwnerWrite broken(*rtl);
  const json bad = gs::run_dss_unit(broken, state, "dss_idle.json");
  CHECK(bad != run_golden(state));
  CHECK(run_rtl(state) == run_golden(state));
}
