// Tests of the model-side hardening: limits in one place (config/limits.hpp), config
// overrides (--set), JSON values the parser cannot hold, and safe output files
// (common/output_file.hpp).
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "common/output_file.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "test_support.hpp"
#include "workload/kernel_desc.hpp"

using gs::test::contains;
using gs::test::input_error_of;
using nlohmann::json;

namespace {

json preset(const std::string& name) {
  return json::parse(gs::read_text_file(gs::data_dir() + "/configs/" + name + ".json"));
}

std::string config_error(const json& c) {
  return input_error_of([&] { (void)gs::parse_gpu_config(c.dump(), "cfg.json"); });
}

}  // namespace

TEST_CASE("config limits: the scheduler's fields and the golden bounds, named by field", "[hardening]") {
  json c = preset("warped-slicer");
  REQUIRE(config_error(c).empty());
  auto with = [&](const std::function<void(json&)>& f) {
    json d = c;
    f(d);
    return config_error(d);
  };
  CHECK(contains(with([](json& d) { d["sm_types"][0]["count"] = 257; }), "sm_types[0].count"));
  CHECK(with([](json& d) { d["sm_types"][0]["count"] = 256; }).empty());
  CHECK(contains(with([](json& d) { d["sm_types"][0]["registers"] = 131072; }), "sm_types[0].registers"));
  CHECK(contains(with([](json& d) { d["sm_types"][0]["registers"] = 131072; }), "rtl/spec/gs_spec.toml"));
  CHECK(contains(with([](json& d) { d["sm_types"][0]["max_ctas"] = 33; }), "sm_types[0].max_ctas"));
  CHECK(contains(with([](json& d) { d["sm_types"][0]["shared_mem_bytes"] = 262144; }), "shared_mem_bytes"));
  CHECK(contains(with([](json& d) { d["max_contexts"] = 33; }), "max_contexts"));
  CHECK(contains(with([](json& d) { d["max_active_kernels"] = 33; }), "max_active_kernels"));
  // Host memory: each field within its range, together far beyond the bound -- refused up front.
  const std::string mem = with([](json& d) {
    d["l2_slice_bytes"] = 1 << 30;
    d["dram_channels"] = 1024;
  });
  CHECK(contains(mem, "l2_slice_bytes"));
  CHECK(contains(mem, "MiB of host memory"));
}

TEST_CASE("JSON numbers the parser cannot hold and deep nesting are input errors with a position", "[hardening]") {
  const std::string e1 = input_error_of([] { (void)gs::parse_json_strict("{\n  \"a\": 1e400\n}", "f.json"); });
  CHECK(contains(e1, "f.json:2:"));
  CHECK(contains(e1, "out of range"));
  const std::string e2 = input_error_of([] { (void)gs::parse_json_strict(std::string(10000, '['), "d.json"); });
  CHECK(contains(e2, "d.json:1:65"));
  CHECK(input_error_of([] { (void)gs::parse_json_strict("", "e.json"); }).find("e.json:1:1") == 0);
}

TEST_CASE("config overrides (--set) change fields before validation and rename the config", "[hardening]") {
  const gs::GpuConfig base = gs::load_gpu_config("warped-slicer");
  const gs::GpuConfig c = gs::load_gpu_config("warped-slicer", {"l2_assoc=16", "sm_types[*].l1_assoc=8"});
  CHECK(c.l2_assoc == 16);
  CHECK(c.sm(0).l1_assoc == 8);
  CHECK(c.name == "warped-slicer{l2_assoc=16,sm_types[*].l1_assoc=8}");
  CHECK(c.num_sms() == base.num_sms());
  const gs::GpuConfig p = gs::load_gpu_config("warped-slicer", {"sm_types[0].warp_sched_policy=lrr"});
  CHECK(p.sm(0).warp_sched_policy == gs::WarpSchedPolicy::kLrr);
  CHECK(contains(input_error_of([] { (void)gs::load_gpu_config("warped-slicer", {"bogus=1"}); }), "'bogus'"));
  CHECK(contains(input_error_of([] { (void)gs::load_gpu_config("warped-slicer", {"l2_assoc=-1"}); }), "l2_assoc"));
  CHECK(contains(input_error_of([] { (void)gs::load_gpu_config("warped-slicer", {"l2_assoc"}); }), "key=value"));
  CHECK(contains(input_error_of([] { (void)gs::load_gpu_config("warped-slicer", {"sm_types[3].count=1"}); }),
                 "sm_types[3]"));
  CHECK(contains(input_error_of([] { (void)gs::load_gpu_config("warped-slicer", {"name=x"}); }), "cannot be set"));
}

TEST_CASE("a copy of a preset does not report under the preset's name", "[hardening]") {
  gs::test::TempDir dir;
  const std::string copy = dir.write("warped-slicer.json", preset("warped-slicer").dump());
  const gs::GpuConfig c = gs::load_gpu_config(copy);
  CHECK(c.name == "warped-slicer@" + copy);
  CHECK(gs::load_gpu_config("warped-slicer").name == "warped-slicer");
  CHECK(gs::load_gpu_config(gs::data_dir() + "/configs/warped-slicer.json").name == "warped-slicer");
  json other = preset("warped-slicer");
  other["name"] = "my-gpu";
  CHECK(gs::load_gpu_config(dir.write("x.json", other.dump())).name == "my-gpu");
}

TEST_CASE("a mix is checked against the config before any run, naming the entry", "[hardening]") {
  gs::test::TempDir dir;
  const auto lib = gs::load_kernel_library();
  const gs::GpuConfig cfg = gs::load_gpu_config("warped-slicer");
  std::string nine = "{\"kernels\":[";
  for (int i = 0; i < 9; ++i) nine += std::string(i ? "," : "") + "{\"kernel\":\"test.compute\"}";
  nine += "]}";
  const gs::Mix m9 = gs::load_mix(dir.write("nine.json", nine), lib);
  const std::string e = input_error_of([&] { gs::limits::check_mix_fits(cfg, m9); });
  CHECK(contains(e, "nine.json: field 'kernels[8].context'"));
  CHECK(contains(e, "max_contexts = 8"));
  // The same launches with a shared context fit.
  std::string shared = "{\"kernels\":[";
  for (int i = 0; i < 9; ++i)
    shared += std::string(i ? "," : "") + "{\"kernel\":\"test.compute\",\"context\":" + std::to_string(i % 8) + "}";
  shared += "]}";
  CHECK(input_error_of([&] {
          gs::limits::check_mix_fits(cfg, gs::load_mix(dir.write("s.json", shared), lib));
        }).empty());
  CHECK(contains(input_error_of([&] {
                   (void)gs::load_mix(dir.write("p.json",
                                                "{\"kernels\":[{\"kernel\":\"test.compute\",\"priority\":16}]}"),
                                      lib);
                 }),
                 "kernels[0].priority"));
}

TEST_CASE("output paths: refused before a run when they would destroy something", "[hardening]") {
  gs::test::TempDir dir;
  const std::string in = dir.write("in.json", "{}");
  const std::vector<gs::NamedPath> inputs = {{"--mix", in}};
  auto refusal = [&](const std::string& opt, const std::string& path, const std::vector<gs::NamedPath>& outs = {}) {
    return input_error_of([&] { gs::check_output_path(opt, path, inputs, outs); });
  };
  CHECK(refusal("--json", (dir.path / "out.json").string()).empty());
  CHECK(contains(refusal("--json", in), "same file as the input --mix"));
  CHECK(contains(refusal("--json", ""), "empty"));
  CHECK(contains(refusal("--json", dir.path.string()), "is a directory"));
  CHECK(contains(refusal("--csv", "/dev/null"), "is a device"));
  CHECK(contains(refusal("--json", (dir.path / "no/dir/x.json").string()), "does not exist"));
  const std::string o = (dir.path / "o.txt").string();
  CHECK(contains(refusal("--csv", o, {{"--json", o}}), "also the output of --json"));
  const std::string fifo = (dir.path / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK(contains(refusal("--json", fifo), "FIFO"));
}

TEST_CASE("atomic writes replace the whole file and leave no temporary behind", "[hardening]") {
  gs::test::TempDir dir;
  const std::string p = dir.write("r.json", "old");
  ::chmod(p.c_str(), 0640);
  gs::write_file_atomically("--json", p, "new contents\n");
  std::ifstream in(p);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "new contents\n");
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0640);  // the target keeps its mode
  size_t files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir.path)) files += e.is_regular_file() ? 1 : 0;
  CHECK(files == 1);
  CHECK(contains(input_error_of([&] { gs::write_file_atomically("--json", (dir.path / "no/x").string(), "x"); }),
                 "--json"));
}
