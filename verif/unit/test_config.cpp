// gsched unit tests: GPU config loading, the shipped presets and their paper numbers,
// and the validation of bad config files (every error names the file and the field).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "test_support.hpp"

namespace {

using gs::test::contains;
using gs::test::input_error_of;
using gs::test::ScopedEnv;
using gs::test::TempDir;

using nlohmann::json;

// A small valid config; tests mutate one field at a time.
json minimal_config() {
  return json::parse(R"({
    "name": "tiny", "source": "unit test",
    "sm_types": [ { "name": "sm", "count": 2 } ]
  })");
}

std::string parse_error(const json& cfg) {
  return input_error_of([&] { gs::parse_gpu_config(cfg.dump(2), "bad.json"); });
}

// Every field of a config, for byte-exact comparisons.
std::string describe(const gs::GpuConfig& c) {
  std::ostringstream o;
  o << c.name << '|' << c.source << '|' << c.core_clock_mhz << '|' << c.warp_size << '|' << c.line_bytes << '|';
  for (const auto& t : c.sm_types) {
    o << '[' << t.name << ' ' << t.count << ' ' << t.max_threads << ' ' << t.max_ctas << ' ' << t.max_warps << ' '
      << t.registers << ' ' << t.reg_alloc_unit << ' ' << int(t.reg_alloc_scope) << ' ' << t.shared_mem_bytes << ' '
      << t.shmem_alloc_unit << ' ';
    for (auto s : t.shared_mem_options) o << s << ',';
    o << ' ' << t.warp_schedulers << ' ' << int(t.warp_sched_policy) << ' ' << t.alu_lanes << ' ' << t.sfu_lanes << ' '
      << t.ldst_lanes << ' ' << t.alu_latency << ' ' << t.sfu_latency << ' ' << t.shmem_latency << ' '
      << t.l1_size_bytes << ' ' << t.l1_assoc << ' ' << t.l1_mshrs << ' ' << t.l1_hit_latency << ']';
  }
  for (auto s : c.sm_type_of) o << s;
  o << '|' << c.xbar_latency << ' ' << c.xbar_bytes_per_cycle << ' ' << c.l2_slice_bytes << ' ' << c.l2_assoc << ' '
    << c.l2_mshrs << ' ' << c.l2_hit_latency << ' ' << c.dram_channels << ' ' << c.dram_banks << ' ' << c.dram_clock_mhz
    << ' ' << c.dram_bus_bytes << ' ' << c.dram_transfers_per_clock << ' ' << c.dram_row_bytes << ' '
    << c.dram_queue_depth << ' ' << c.tCL << ' ' << c.tRP << ' ' << c.tRC << ' ' << c.tRAS << ' ' << c.tRCD << ' '
    << c.tRRD << ' ' << c.tCCD << ' ' << c.tWR << ' ' << c.max_active_kernels << ' ' << c.max_contexts;
  return o.str();
}

}  // namespace

TEST_CASE("config presets are all listed and load", "[config]") {
  const auto names = gs::list_gpu_configs();
  for (const char* want :
       {"warped-slicer", "pai-gtx480", "tanasic-k20c", "heterocore", "heterocore-baseline", "sbm-gcn32"}) {
    CHECK(std::find(names.begin(), names.end(), want) != names.end());
  }
  CHECK(std::is_sorted(names.begin(), names.end()));
  for (const auto& n : names) {
    INFO("preset " << n);
    const gs::GpuConfig c = gs::load_gpu_config(n);
    CHECK(c.name == n);
    CHECK_FALSE(c.source.empty());
    CHECK(c.num_sms() > 0);
    CHECK(c.file.find(n + ".json") != std::string::npos);
  }
}

TEST_CASE("warped-slicer preset has Table I numbers", "[config]") {
  const gs::GpuConfig c = gs::load_gpu_config("warped-slicer");
  CHECK(c.num_sms() == 16);
  CHECK(c.core_clock_mhz == 1400);
  const auto& t = c.sm(0);
  CHECK(t.max_threads == 1536);
  CHECK(t.registers == 32768);
  CHECK(t.max_ctas == 8);
  CHECK(t.shared_mem_bytes == 48 * 1024);
  CHECK(t.warp_schedulers == 2);
  CHECK(t.warp_sched_policy == gs::WarpSchedPolicy::kGto);
  CHECK(t.alu_lanes == 16);  // SIMT width 16x2
  CHECK(t.l1_size_bytes == 16 * 1024);
  CHECK(t.l1_assoc == 4);
  CHECK(t.l1_mshrs == 64);
  CHECK(c.l2_slice_bytes == 128 * 1024);
  CHECK(c.l2_assoc == 8);
  CHECK(c.dram_channels == 6);
  CHECK(c.dram_clock_mhz == 924);
  CHECK(c.tCL == 12);
  CHECK(c.tRP == 12);
  CHECK(c.tRC == 40);
  CHECK(c.tRAS == 28);
  CHECK(c.tRCD == 12);
  CHECK(c.tRRD == 6);
  CHECK(c.dram_peak_bytes_per_sec() == Approx(177.408e9));
}

TEST_CASE("pai-gtx480 preset has Table 4 numbers", "[config]") {
  const gs::GpuConfig c = gs::load_gpu_config("pai-gtx480");
  CHECK(c.num_sms() == 15);
  CHECK(c.warp_size == 32);
  const auto& t = c.sm(0);
  CHECK(t.max_threads == 1536);
  CHECK(t.registers == 32768);
  CHECK(t.shared_mem_bytes == 48 * 1024);
  CHECK(t.max_ctas == 8);
  CHECK(t.max_warps == 48);
  CHECK(t.warp_sched_policy == gs::WarpSchedPolicy::kLrr);
}

TEST_CASE("tanasic-k20c preset has Table 2 numbers and 208 GB/s", "[config]") {
  const gs::GpuConfig c = gs::load_gpu_config("tanasic-k20c");
  CHECK(c.num_sms() == 13);
  CHECK(c.core_clock_mhz == 706);
  const auto& t = c.sm(0);
  CHECK(t.registers == 65536);
  CHECK(t.max_ctas == 16);
  CHECK(t.max_threads == 2048);
  CHECK(t.max_warps == 64);
  CHECK(t.shared_mem_bytes == 16 * 1024);  // the default carve-out (Table 2 footnote)
  CHECK(t.shared_mem_options == std::vector<uint32_t>{16384, 32768, 49152});
  CHECK(t.reg_alloc_scope == gs::RegAllocScope::kCta);
  CHECK(c.dram_peak_bytes_per_sec() == 208e9);  // exact, not approximately
  CHECK(c.max_active_kernels == 8);  // RTL KSRT size (Tanasic Sec. 3.3 would use 13 = N_SMs; see docs/presets.md)
}

TEST_CASE("heterocore preset mixes big and small SMs of Table 1", "[config]") {
  const gs::GpuConfig c = gs::load_gpu_config("heterocore");
  REQUIRE(c.sm_types.size() == 2);
  CHECK(c.num_sms() == 16);
  CHECK(c.core_clock_mhz == 700);
  const auto& big = c.sm_types[0];
  const auto& small = c.sm_types[1];
  CHECK(big.name == "big");
  CHECK(big.count == 8);
  CHECK(big.registers == 49152);
  CHECK(big.shared_mem_bytes == 64 * 1024);
  CHECK(big.max_threads == 2304);
  CHECK(big.max_warps == 72);
  CHECK(big.max_ctas == 10);
  CHECK(small.name == "small");
  CHECK(small.count == 8);
  CHECK(small.registers == 16384);
  CHECK(small.shared_mem_bytes == 32 * 1024);
  CHECK(small.max_threads == 768);
  CHECK(small.max_warps == 24);
  CHECK(small.max_ctas == 6);
  for (uint32_t sm = 0; sm < 16; ++sm) CHECK(c.sm_type_of[sm] == (sm < 8 ? 0u : 1u));
  CHECK(&c.sm(3) == &c.sm_types[0]);
  CHECK(&c.sm(12) == &c.sm_types[1]);
  CHECK(c.tCCD == 2);
  CHECK(c.tWR == 12);
  CHECK(c.dram_banks == 16);
  CHECK(c.dram_peak_bytes_per_sec() == Approx(177.4e9).epsilon(0.001));

  const gs::GpuConfig base = gs::load_gpu_config("heterocore-baseline");
  CHECK(base.num_sms() == 16);
  CHECK(base.sm(0).registers == 32768);
  CHECK(base.sm(0).max_ctas == 8);
}

TEST_CASE("sbm-gcn32 preset has 32 GCN compute units", "[config]") {
  const gs::GpuConfig c = gs::load_gpu_config("sbm-gcn32");
  CHECK(c.num_sms() == 32);
  CHECK(c.warp_size == 64);
  CHECK(c.sm(0).l1_size_bytes == 16 * 1024);
  CHECK(c.sm(0).shared_mem_bytes == 64 * 1024);
  CHECK(c.sm(0).warp_schedulers == 4);
}

TEST_CASE("config defaults are the struct defaults", "[config]") {
  const gs::GpuConfig c = gs::parse_gpu_config(R"({"sm_types": [{"count": 3}]})", "/some/dir/mini.json");
  const gs::GpuConfig d;
  const gs::SmTypeConfig dt;
  CHECK(c.name == "mini");  // file stem when no name is given
  CHECK(c.num_sms() == 3);
  CHECK(c.core_clock_mhz == d.core_clock_mhz);
  CHECK(c.dram_channels == d.dram_channels);
  CHECK(c.tRC == d.tRC);
  CHECK(c.sm(2).registers == dt.registers);
  CHECK(c.sm(2).l1_size_bytes == dt.l1_size_bytes);
  CHECK(c.sm(2).max_warps == dt.max_threads / c.warp_size);

  // max_warps follows max_threads when it is not given.
  const gs::GpuConfig k = gs::parse_gpu_config(R"({"sm_types": [{"max_threads": 2048}]})", "k.json");
  CHECK(k.sm(0).max_warps == 64);
}

TEST_CASE("config loading is deterministic", "[config]") {
  for (const auto& n : gs::list_gpu_configs()) {
    INFO(n);
    CHECK(describe(gs::load_gpu_config(n)) == describe(gs::load_gpu_config(n)));
  }
  // A preset by name and by path are the same config.
  const auto by_name = gs::load_gpu_config("tanasic-k20c");
  auto by_path = gs::load_gpu_config(by_name.file);
  CHECK(describe(by_name) == describe(by_path));
}

TEST_CASE("config errors name the file and the field", "[config][errors]") {
  SECTION("unknown key suggests the valid one") {
    json c = minimal_config();
    c["sm_types"][0]["l1_asoc"] = 4;
    const std::string m = parse_error(c);
    CHECK(contains(m, "bad.json"));
    CHECK(contains(m, "sm_types[0].l1_asoc"));
    CHECK(contains(m, "unknown key"));
    CHECK(contains(m, "l1_assoc"));  // did you mean
    CHECK(contains(m, "valid keys here"));
  }
  SECTION("unknown top-level key") {
    json c = minimal_config();
    c["dram_chanels"] = 6;
    const std::string m = parse_error(c);
    CHECK(contains(m, "'dram_chanels'"));
    CHECK(contains(m, "dram_channels"));
  }
  SECTION("num_sms is explained") {
    json c = minimal_config();
    c["num_sms"] = 16;
    CHECK(contains(parse_error(c), "sum of sm_types[].count"));
  }
  SECTION("wrong type") {
    json c = minimal_config();
    c["core_clock_mhz"] = "fast";
    const std::string m = parse_error(c);
    CHECK(contains(m, "'core_clock_mhz'"));
    CHECK(contains(m, "expected an integer"));
    c["core_clock_mhz"] = 1400.5;
    CHECK(contains(parse_error(c), "whole number"));
    c = minimal_config();
    c["sm_types"] = json::object();
    CHECK(contains(parse_error(c), "'sm_types': expected an array"));
  }
  SECTION("negative and zero values") {
    json c = minimal_config();
    c["dram_channels"] = -1;
    CHECK(contains(parse_error(c), "must not be negative"));
    c["dram_channels"] = 0;
    CHECK(contains(parse_error(c), "'dram_channels'"));
  }
  SECTION("a GPU without SMs") {
    json c = minimal_config();
    c["sm_types"][0]["count"] = 0;
    CHECK(contains(parse_error(c), "sm_types[0].count"));
    c["sm_types"] = json::array();
    CHECK(contains(parse_error(c), "0 SMs"));
    c.erase("sm_types");
    CHECK(contains(parse_error(c), "'sm_types': required"));
  }
  SECTION("cache sets must be a power of two") {
    json c = minimal_config();
    c["sm_types"][0]["l1_size_bytes"] = 24 * 1024;  // 192 lines / 4 ways = 48 sets
    const std::string m = parse_error(c);
    CHECK(contains(m, "sm_types[0].l1_size_bytes"));
    CHECK(contains(m, "power of two"));
    c = minimal_config();
    c["l2_slice_bytes"] = 1000;  // not a multiple of 128 B lines
    CHECK(contains(parse_error(c), "not a multiple of line_bytes"));
    c = minimal_config();
    c["line_bytes"] = 96;
    CHECK(contains(parse_error(c), "'line_bytes': must be a power of two"));
  }
  SECTION("warp slots must match thread slots") {
    json c = minimal_config();
    c["sm_types"][0]["max_threads"] = 1536;
    c["sm_types"][0]["max_warps"] = 64;
    const std::string m = parse_error(c);
    CHECK(contains(m, "sm_types[0].max_warps"));
    CHECK(contains(m, "1536 / 32 = 48"));
    c["sm_types"][0]["max_warps"] = 48;
    c["sm_types"][0]["max_threads"] = 1500;
    CHECK(contains(parse_error(c), "not a multiple of warp_size"));
  }
  SECTION("lanes must divide the warp size") {
    json c = minimal_config();
    c["sm_types"][0]["alu_lanes"] = 12;
    CHECK(contains(parse_error(c), "sm_types[0].alu_lanes"));
  }
  SECTION("SM types must allocate alike") {
    json c = minimal_config();
    c["sm_types"].push_back({{"name", "small"}, {"count", 1}, {"reg_alloc_unit", 256}});
    const std::string m = parse_error(c);
    CHECK(contains(m, "sm_types[1].reg_alloc_unit"));
    c["sm_types"][1] = {{"name", "small"}, {"shmem_alloc_unit", 256}};
    CHECK(contains(parse_error(c), "sm_types[1].shmem_alloc_unit"));
    c["sm_types"][1] = {{"name", "sm"}};
    CHECK(contains(parse_error(c), "used twice"));
  }
  SECTION("shared-memory options must contain the default") {
    json c = minimal_config();
    c["sm_types"][0]["shared_mem_bytes"] = 16384;
    c["sm_types"][0]["shared_mem_options"] = {32768, 49152};
    const std::string m = parse_error(c);
    CHECK(contains(m, "sm_types[0].shared_mem_options"));
    CHECK(contains(m, "must contain shared_mem_bytes"));
    // Given in any order, they are stored default first (what occupancy() relies on).
    c["sm_types"][0]["shared_mem_options"] = {49152, 16384, 32768};
    const gs::GpuConfig ok = gs::parse_gpu_config(c.dump(), "ok.json");
    CHECK(ok.sm(0).shared_mem_options == std::vector<uint32_t>{16384, 32768, 49152});
  }
  SECTION("DRAM timing consistency") {
    json c = minimal_config();
    c["tRC"] = 20;
    c["tRAS"] = 28;
    CHECK(contains(parse_error(c), "'tRC'"));
  }
  SECTION("bad enum value lists the choices") {
    json c = minimal_config();
    c["sm_types"][0]["warp_sched_policy"] = "fifo";
    const std::string m = parse_error(c);
    CHECK(contains(m, "warp_sched_policy"));
    CHECK(contains(m, "gto, lrr"));
  }
  SECTION("a key given twice") {
    const std::string m = input_error_of([] {
      gs::parse_gpu_config(R"({"sm_types": [{"count": 2, "count": 3}]})", "dup.json");
    });
    CHECK(contains(m, "dup.json"));
    CHECK(contains(m, "'count'"));
    CHECK(contains(m, "twice"));
  }
}

TEST_CASE("config file errors report syntax position and missing files", "[config][errors]") {
  TempDir dir("gsched_cfg_test");
  SECTION("syntax error with line and column") {
    const std::string path = dir.write("broken.json",
                                       "{\n  \"name\": \"x\",\n  \"sm_types\": [ { \"count\": 2 } \n}\n");
    const std::string m = input_error_of([&] { gs::load_gpu_config(path); });
    CHECK(contains(m, path + ":4:"));
    CHECK(contains(m, "JSON syntax error"));
  }
  SECTION("unknown key in a file") {
    const std::string path = dir.write("typo.json", R"({"sm_types": [{"count": 1}], "l2_asoc": 8})");
    const std::string m = input_error_of([&] { gs::load_gpu_config(path); });
    CHECK(contains(m, path));
    CHECK(contains(m, "'l2_asoc'"));
  }
  SECTION("missing file lists the presets") {
    const std::string m = input_error_of([&] { gs::load_gpu_config((dir.path / "nope.json").string()); });
    CHECK(contains(m, "no such config file"));
    CHECK(contains(m, "warped-slicer"));
  }
  SECTION("unknown preset name suggests a close one") {
    const std::string m = input_error_of([] { gs::load_gpu_config("warped-slcer"); });
    CHECK(contains(m, "no such config preset"));
    CHECK(contains(m, "Did you mean warped-slicer"));
  }
}

TEST_CASE("data directory comes from GSCHED_DATA_DIR", "[config]") {
  TempDir dir("gsched_cfg_test");
  dir.write("configs/mine.json", R"({"name": "mine", "sm_types": [{"count": 4}]})");
  ScopedEnv env("GSCHED_DATA_DIR", dir.path.string());
  CHECK(gs::data_dir() == dir.path.string());
  CHECK(gs::list_gpu_configs() == std::vector<std::string>{"mine"});
  CHECK(gs::load_gpu_config("mine").num_sms() == 4);
}

TEST_CASE("srtf fields: the adaptive threshold in 1/256 and the residency, checked", "[config][errors]") {
  const gs::GpuConfig d = gs::parse_gpu_config(minimal_config().dump(), "d.json");
  CHECK(d.settings.srtf.adaptive_threshold == 128);  // Pai Sec. 5.1.2: "we use 0.5"
  CHECK(d.settings.srtf.adaptive_residency == 3);    // "a fixed residency limit of 3"
  json c = minimal_config();
  c["srtf"] = {{"adaptive_threshold", 0.3}, {"adaptive_residency", 5}};
  const gs::GpuConfig g = gs::parse_gpu_config(c.dump(), "g.json");
  CHECK(g.settings.srtf.adaptive_threshold == 77);  // 0.3 * 256 = 76.8, to the nearest step
  CHECK(g.settings.srtf.adaptive_residency == 5);
  c["srtf"] = {{"adaptive_threshold", 2}};
  CHECK(gs::parse_gpu_config(c.dump(), "i.json").settings.srtf.adaptive_threshold == 512);
  c["srtf"] = {{"adaptive_threshold", -0.5}};
  CHECK(contains(parse_error(c), "srtf.adaptive_threshold"));
  c["srtf"] = {{"adaptive_threshold", 16}};
  const std::string big = parse_error(c);
  CHECK(contains(big, "srtf.adaptive_threshold"));
  CHECK(contains(big, "UQ4.8"));
  c["srtf"] = {{"adaptive_threshold", "half"}};
  CHECK(contains(parse_error(c), "expected a number"));
  c["srtf"] = {{"adaptive_residency", 0}};
  CHECK(contains(parse_error(c), "srtf.adaptive_residency"));
  c["srtf"] = {{"adaptive_residency", 33}};
  CHECK(contains(parse_error(c), "MaxCtasPerSm"));
  c["srtf"] = {{"threshold", 0.5}};
  CHECK(contains(parse_error(c), "adaptive_threshold"));  // unknown key, the valid ones listed
}

TEST_CASE("policy settings: every one of the registry is read, range-checked and set by --set policy.<p>.<s>",
          "[config][errors]") {
  // Each numeric setting at its maximum through --set policy.<policy>.<setting> (any policy of
  // its module), read back through the generated table; one past it is refused naming the field.
  for (const gs::spec::PolicyInfo& p : gs::spec::kPolicies) {
    for (uint32_t i = 0; i < gs::spec::kSettingCount; ++i) {
      const gs::spec::SettingInfo& s = gs::spec::kSettings[i];  // its own section's, or its parents' (settings_of)
      if (!gs::spec::policy_reads_section(p, s.section) || std::string(s.kind) == "string") continue;
      const std::string key = std::string("policy.") + p.name + "." + s.name;
      const std::string field = std::string(s.section) + "." + s.name;
      std::ostringstream max_os;  // a fixed-point maximum exactly (4095 / 256 = 15.99609375)
      max_os.precision(12);
      if (std::string(s.kind) == "fixed") max_os << double(s.max) / double(1u << s.frac);
      else max_os << s.max;
      const std::string max_text = max_os.str();
      INFO(key << "=" << max_text);
      const gs::GpuConfig c = gs::load_gpu_config("warped-slicer", {key + "=" + max_text});
      CHECK(gs::spec::setting_value(c.settings, i) == s.max);
      CHECK(gs::spec::setting_value(gs::load_gpu_config("warped-slicer").settings, i) == s.def);
      const std::string over = std::string(s.kind) == "fixed" ? std::to_string(1u << (s.width - s.frac))
                                                              : std::to_string(uint64_t(s.max) + 1);
      const std::string m = input_error_of([&] { gs::load_gpu_config("warped-slicer", {key + "=" + over}); });
      CHECK(contains(m, field));
      if (s.min > 0) {
        const std::string low = input_error_of([&] {
          gs::load_gpu_config("warped-slicer", {key + "=" + std::to_string(s.min - 1)});
        });
        CHECK(contains(low, field));
      }
    }
  }
  // an alias and an analysis policy name their module's (or their scheduler's) section
  CHECK(gs::load_gpu_config("warped-slicer", {"policy.srtf-adaptive.adaptive_residency=7"})
            .settings.srtf.adaptive_residency == 7);
  CHECK(gs::load_gpu_config("warped-slicer", {"policy.ewm.sample_cycles=7000"}).settings.sbm.sample_cycles == 7000);
  CHECK(gs::load_gpu_config("warped-slicer", {"sbm.sample_cycles=7000"}).settings.sbm.sample_cycles == 7000);
  // the errors: a policy without settings, an unknown setting, an unknown policy, no setting
  const std::string none = input_error_of([] { gs::load_gpu_config("warped-slicer", {"policy.ppq.x=1"}); });
  CHECK(contains(none, "ppq-excl has no settings"));
  CHECK(contains(none, "warped-slicer"));
  const std::string unknown = input_error_of([] { gs::load_gpu_config("warped-slicer", {"policy.sbm.sample=1"}); });
  CHECK(contains(unknown, "no setting 'sample'"));
  CHECK(contains(unknown, "sample_cycles"));
  CHECK(contains(input_error_of([] { gs::load_gpu_config("warped-slicer", {"policy.sbn.sample_cycles=1"}); }),
                 "did you mean 'sbm'"));
  CHECK(contains(input_error_of([] { gs::load_gpu_config("warped-slicer", {"policy.sbm=1"}); }),
                 "expected policy.<policy>.<setting>"));
}

TEST_CASE("sbm fields: the profiling phase's warm-up and window, checked", "[config][errors]") {
  const gs::GpuConfig d = gs::parse_gpu_config(minimal_config().dump(), "d.json");
  CHECK(d.settings.sbm.warmup_cycles == 15000);  // SBM Sec. 6.5: the 15K-40K profiling period
  CHECK(d.settings.sbm.sample_cycles == 25000);
  json c = minimal_config();
  c["sbm"] = {{"warmup_cycles", 0}, {"sample_cycles", 60000}};  // Fig. 11's 60K period
  const gs::GpuConfig g = gs::parse_gpu_config(c.dump(), "g.json");
  CHECK(g.settings.sbm.warmup_cycles == 0);
  CHECK(g.settings.sbm.sample_cycles == 60000);
  c["sbm"] = {{"sample_cycles", 0}};
  CHECK(contains(parse_error(c), "sbm.sample_cycles"));
  c["sbm"] = {{"warmup_cycles", -1}};
  CHECK(contains(parse_error(c), "sbm.warmup_cycles"));
  c["sbm"] = {{"window", 40000}};
  CHECK(contains(parse_error(c), "sample_cycles"));  // unknown key, the valid ones listed
}
