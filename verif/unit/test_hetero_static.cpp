// HeteroCore's static mappings (cmodel/metrics/hetero_static.hpp): the even split, the decisions
// of classification, Algorithm 1 and the balanced policy from the profiles they report, and the
// golden scheduler holding each kernel to its SMs (SchedOptions::sm_kernels).
#include <catch2/catch.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "gpu/gpu.hpp"
#include "metrics/hetero_static.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"
#include "test_support.hpp"

using namespace gs;

TEST_CASE("hetero-agnostic: half of each SM type per kernel, held for the whole run", "[hetero]") {
  const GpuConfig cfg = load_gpu_config("heterocore");
  const Mix mix = test::window_mix("hetero-test", {"hc.FDTD3D", "hc.LAVAMD"}, 30000);
  const HeteroChoice c = hetero_choose(cfg, mix, "hetero-agnostic", RunOptions{});
  CHECK(c.big_kernel == -1);
  CHECK(c.profiles.empty());
  REQUIRE(c.sm_kernels.size() == 16);
  for (uint32_t s = 0; s < 16; ++s) CHECK(c.sm_kernels[s] == ((s % 8) < 4 ? 1u : 2u));  // SMs 0-7 big, 8-15 small

  AloneRunCache cache;
  SchedOptions so;
  RunOptions ro;
  const MixRun r = run_hetero_static(cfg, mix, "hetero-agnostic", so, ro, cache);
  REQUIRE(!r.shared.ctas.empty());
  uint32_t seen[2] = {0, 0};
  for (const CtaRecord& t : r.shared.ctas) {
    INFO("kernel " << t.kernel << " CTA " << t.cta << " on SM " << t.sm);
    REQUIRE(t.kernel < 2);
    CHECK((c.sm_kernels[t.sm] >> t.kernel & 1u) != 0);  // never outside its SMs
    ++seen[t.kernel];
  }
  CHECK(seen[0] > 0);
  CHECK(seen[1] > 0);
}

TEST_CASE("hetero static policies decide from their profiles as Sec. 4.2 says", "[hetero]") {
  const GpuConfig cfg = load_gpu_config("heterocore");
  const Mix mix = test::window_mix("hetero-test", {"hc.FDTD3D", "hc.LAVAMD"}, 20000);
  RunOptions ro;
  for (const char* policy : {"hetero-class", "hetero-stp", "hetero-balanced"}) {
    INFO(policy);
    const HeteroChoice c = hetero_choose(cfg, mix, policy, ro);
    REQUIRE(c.profiles.size() == 2);
    const HeteroProfile &p0 = c.profiles[0], &p1 = c.profiles[1];
    for (const HeteroProfile& p : c.profiles) {
      CHECK(p.ipc_base > 0);
      CHECK(p.ipc_big > 0);
      CHECK(p.ipc_small > 0);
    }
    const std::string pol = policy;
    int want = -1;
    if (pol == "hetero-class") {
      CHECK(p0.ipc_base_n > 0);
      CHECK(p0.lean == (p0.ipc_small >= p0.ipc_base_n));
      if (p0.lean != p1.lean) want = p0.lean ? 1 : 0;
    } else {
      const double stp0 = p0.ipc_big / p0.ipc_base + p1.ipc_small / p1.ipc_base;  // Algorithm 1, line 4
      const double stp1 = p1.ipc_big / p1.ipc_base + p0.ipc_small / p0.ipc_base;  // line 5
      CHECK(c.stp_k0_big == Approx(stp0));
      CHECK(c.stp_k1_big == Approx(stp1));
      want = stp0 > stp1 ? 0 : 1;
      const bool both_gain = p0.ipc_big > p0.ipc_small && p1.ipc_big > p1.ipc_small;  // 8 big, 8 small SMs
      if (pol == "hetero-balanced" && both_gain) want = -1;
    }
    CHECK(c.big_kernel == want);
    for (uint32_t s = 0; s < 16; ++s) {
      const bool big = s < 8;
      const uint32_t expect = want < 0 ? ((s % 8) < 4 ? 1u : 2u) : (1u << (big ? want : 1 - want));
      CHECK(c.sm_kernels[s] == expect);
    }
  }
}

TEST_CASE("hetero static policies refuse what they cannot map", "[hetero]") {
  const Mix mix = test::window_mix("hetero-test", {"hc.FDTD3D", "hc.LAVAMD"}, 20000);
  // a homogeneous GPU has no big and small SM types
  CHECK_THROWS_WITH(hetero_choose(load_gpu_config("heterocore-baseline"), mix, "hetero-agnostic", RunOptions{}),
                    Catch::Contains("sm_types") && Catch::Contains("big"));
  // profiling needs the conventional GPU
  GpuConfig cfg = load_gpu_config("heterocore");
  cfg.settings.hetero.baseline_config.clear();
  CHECK_THROWS_WITH(hetero_choose(cfg, mix, "hetero-stp", RunOptions{}), Catch::Contains("hetero.baseline_config"));
  cfg.settings.hetero.baseline_config = "no-such-preset";
  CHECK_THROWS_WITH(hetero_choose(cfg, mix, "hetero-stp", RunOptions{}), Catch::Contains("hetero.baseline_config"));
  // three kernels
  Mix three = mix;
  three.kernels.push_back(mix.kernels[0]);
  CHECK_THROWS_WITH(hetero_choose(load_gpu_config("heterocore"), three, "hetero-agnostic", RunOptions{}),
                    Catch::Contains("two kernels"));
}

TEST_CASE("the heterocore presets name their conventional GPU; a wrong hetero field is refused", "[hetero][config]") {
  for (const char* name : {"heterocore", "heterocore-4b12s", "heterocore-12b4s"}) {
    INFO(name);
    const GpuConfig c = load_gpu_config(name);
    CHECK(c.settings.hetero.baseline_config == "heterocore-baseline");
    CHECK(load_gpu_config(c.settings.hetero.baseline_config).num_sms() == c.num_sms());
  }
  const std::string text = R"({"name": "x", "sm_types": [{"name": "sm", "count": 2}], "hetero": {"baseline": "y"}})";
  CHECK_THROWS_WITH(parse_gpu_config(text, "bad.json"),
                    Catch::Contains("bad.json") && Catch::Contains("hetero.baseline"));
}
