// gsched tests: the spec generator (rtl/spec/gen_spec.py over rtl/spec/gs_spec.toml).
//
// The generated gs_pkg.sv and gs_spec.hpp must agree: every `localparam int Name = value;` of
// the package equals the C++ constant of the same name (gs::spec::kParams), derived widths
// follow their definitions, record widths are the sums of their fields, pack/unpack are
// inverse, and a bad spec or override is refused with a message naming the entry.
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "gs_spec.hpp"
#include "test_support.hpp"

namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::map<std::string, long> read_pkg_params(const std::string& text) {
  std::map<std::string, long> params;
  const std::regex re(R"(localparam\s+int\s+(\w+)\s*(?:/\*\s*verilator\s+public\s*\*/)?\s*=\s*(\d+)\s*;)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), re); it != std::sregex_iterator(); ++it)
    params[(*it)[1]] = std::stol((*it)[2]);
  return params;
}

/// Runs the generator; returns its exit status and stderr.
int run_gen(const std::string& args, const std::string& out_dir, std::string& err) {
  const std::string errf = out_dir + "/gen.err";
  const std::string cmd = std::string(GS_PYTHON) + " " + GS_SOURCE_DIR + "/rtl/spec/gen_spec.py " + args + " --out " +
                          out_dir + " 2>" + errf;
  const int rc = std::system(cmd.c_str());
  err = read_file(errf);
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

TEST_CASE("generated gs_pkg.sv and gs_spec.hpp carry the same parameters", "[spec]") {
  const auto p = read_pkg_params(read_file(std::string(GS_SV_GEN_DIR) + "/gs_pkg.sv"));
  REQUIRE(p.size() >= std::size(gs::spec::kParams));
  for (const auto& e : gs::spec::kParams) {
    INFO("gs_pkg::" << e.name);
    REQUIRE(p.count(e.name) == 1);
    CHECK(p.at(e.name) == long(e.value));
  }
  // derived widths follow their definitions
  CHECK((1L << p.at("SlotW")) == p.at("MaxKernels"));
  CHECK((1L << p.at("CtxW")) == p.at("MaxContexts"));
  CHECK((1L << p.at("CmdPtrW")) == p.at("CmdBufDepth"));
  CHECK((1L << p.at("PtbqPtrW")) == p.at("PtbqDepth"));
  CHECK((1L << p.at("OrderPtrW")) == p.at("MaxContexts") * p.at("CmdBufDepth"));
  CHECK((1L << p.at("PtbqCntW")) > p.at("PtbqDepth"));
  CHECK((1L << p.at("CtaCntW")) > p.at("MaxCtasPerSm"));
  CHECK((1L << p.at("SmIdW")) > p.at("MaxSms"));
  CHECK((1L << p.at("SaveCreditW")) > p.at("MaxSms") * p.at("MaxCtasPerSm"));
  CHECK(p.at("OrderKeyW") == p.at("PrioW") + p.at("SlotW"));
  CHECK(p.at("NoKernel") == (1L << p.at("KernelIdW")) - 1);
  // record widths are the sums of their fields
  CHECK(p.at("LaunchW") == p.at("KernelIdW") + p.at("CtxW") + p.at("PrioW") + p.at("TokenW") + p.at("ThreadW") +
                               p.at("WarpW") + p.at("RegW") + p.at("ShmemW") + p.at("CtaIdW"));
  CHECK(p.at("KsrtW") == 1 + p.at("LaunchW") + 2 * p.at("CtaIdW"));
  CHECK(p.at("SmstW") == 2 + 2 * (1 + p.at("SlotW")) + p.at("ThreadW") + p.at("WarpW") + p.at("RegW") + p.at("ShmemW") +
                             p.at("CtaCntW"));
  CHECK(gs::KsrtEntry::kWidth == p.at("KsrtW"));
  CHECK(gs::DispatchCmd::kWidth == p.at("DispatchW"));
}

TEST_CASE("generated records pack and unpack to the same values", "[spec]") {
  gs::KsrtEntry e;
  e.valid = true;
  e.kernel = 7;
  e.tokens = -3;  // signed field: two's complement in TokenW bits
  e.grid = (1u << gs::spec::CtaIdW) - 1;
  e.done = 12345;
  uint64_t words[4] = {0, 0, 0, 0};
  unsigned at = gs::KsrtEntry::kWidth;
  gs::pack(e, [&](uint64_t v, unsigned w) {
    at -= w;
    for (unsigned b = 0; b < w; ++b)
      if (v >> b & 1u) words[(at + b) / 64] |= 1ull << ((at + b) % 64);
  });
  CHECK(at == 0);
  at = gs::KsrtEntry::kWidth;
  const gs::KsrtEntry back = gs::unpack_KsrtEntry([&](unsigned w) {
    at -= w;
    uint64_t v = 0;
    for (unsigned b = 0; b < w; ++b) v |= uint64_t(words[(at + b) / 64] >> ((at + b) % 64) & 1u) << b;
    return v;
  });
  CHECK(back == e);
  CHECK(back.tokens == -3);
  // kNoKernel travels as all ones of KernelIdW and comes back as kNoKernel
  gs::DispatchCmd d;
  uint64_t kernel_bits = 0;
  unsigned field = 0;
  gs::pack(d, [&](uint64_t v, unsigned) {
    if (field++ == 2) kernel_bits = v;
  });
  CHECK(kernel_bits == gs::spec::NoKernel);
  CHECK(gs::record_str(d).find("kernel=none") != std::string::npos);
}

TEST_CASE("the generator follows a param override and refuses bad specs", "[spec]") {
  gs::test::TempDir tmp("gs-spec");
  const std::string dir = tmp.path.string();
  std::string err;
  // the values of the build option GS_MAX_KERNELS=16, at a smaller MaxSms than the spec's
  REQUIRE(run_gen(std::string("--spec ") + GS_SOURCE_DIR + "/rtl/spec/gs_spec.toml --set MaxSms=32 --set MaxKernels=16",
                  dir, err) == 0);
  const auto p = read_pkg_params(read_file(dir + "/gs_pkg.sv"));
  CHECK(p.at("MaxSms") == 32);
  CHECK(p.at("MaxKernels") == 16);
  CHECK(p.at("SmIdW") == 6);  // holds 0..32
  CHECK(p.at("SlotW") == 4);
  CHECK(p.at("SaveCreditW") == 11);  // 0..32*32
  // the generated C++ names the overrides (the RTL-limit messages print them)
  CHECK(read_file(dir + "/gs_spec.hpp").find("kSpecOverrides = \"MaxSms=32 MaxKernels=16\"") != std::string::npos);
  CHECK(std::string(gs::spec::kSpecOverrides).find("MaxSms") == std::string::npos);  // this build: no MaxSms override

  // a width that follows a param must still fit the C++ type its fields are packed into
  CHECK(run_gen(std::string("--spec ") + GS_SOURCE_DIR + "/rtl/spec/gs_spec.toml --set MaxKernels=64", dir, err) == 2);
  CHECK(err.find("slot_mask_t") != std::string::npos);
  CHECK(err.find("uint32_t") != std::string::npos);

  CHECK(run_gen(std::string("--spec ") + GS_SOURCE_DIR + "/rtl/spec/gs_spec.toml --set NoSuchParam=3", dir, err) == 2);
  CHECK(err.find("NoSuchParam") != std::string::npos);

  const std::string bad = dir + "/bad.toml";
  {
    std::ofstream f(bad);
    f << "[params]\nMaxSms = { value = 32 }\n[derived]\nSlotW = { expr = \"clog2(MaxKernelz)\" }\n";
  }
  CHECK(run_gen("--spec " + bad, dir, err) == 2);
  CHECK(err.find("derived.SlotW") != std::string::npos);
  CHECK(err.find("MaxKernelz") != std::string::npos);
}

TEST_CASE("the generator refuses a [[report]] or [[policy]] entry it cannot build", "[spec][report]") {
  // the spec's own entries plus a bad one, in a tree whose verif/ and sim_top/ are the
  // source's (the registry's `view` and `regression_config` are checked against them)
  gs::test::TempDir tmp("gs-spec-report");
  const std::filesystem::path root = tmp.path;
  std::filesystem::create_directories(root / "rtl" / "spec");
  std::filesystem::create_directories(root / "out");
  std::filesystem::create_directory_symlink(std::filesystem::path(GS_SOURCE_DIR) / "verif", root / "verif");
  std::filesystem::create_directory_symlink(std::filesystem::path(GS_SOURCE_DIR) / "sim_top", root / "sim_top");
  const std::string spec = read_file(std::string(GS_SOURCE_DIR) + "/rtl/spec/gs_spec.toml");
  const std::string bad = (root / "rtl" / "spec" / "bad.toml").string();
  const auto refused = [&](const std::string& entry, const std::string& why) {
    std::ofstream(bad) << spec << "\n" << entry;
    std::string err;
    CHECK(run_gen("--spec " + bad, (root / "out").string(), err) == 2);
    INFO(err);
    CHECK(err.find(why) != std::string::npos);
  };
  refused("[[report]]\nname = \"bad\"\njson = \"bads\"\nper_edge = true\ndoc = \"x\"\n"
          "fields = [ { name = \"why\", type = \"text\", doc = \"\" } ]\n"
          "[[report.table]]\nname = \"kernels\"\ncolumns = [ { name = \"kernel\", type = \"kernel\", doc = \"\" } ]\n",
          "(bad): a per_edge record has int or named fields");
  refused("[[report]]\nname = \"bad\"\njson = \"bad\"\ndoc = \"x\"\n"
          "fields = [ { name = \"f\", type = \"no_such_type\", doc = \"\" } ]\n",
          "(bad).fields.f.type: 'no_such_type'");
  refused("[[report]]\nname = \"partition\"\njson = \"p2\"\ndoc = \"x\"\n", "(partition): name or json key used twice");
  refused("[[report]]\nname = \"bad\"\njson = \"bad\"\ndoc = \"x\"\n"
          "fields = [ { name = \"c\", type = \"choice\", doc = \"\" } ]\n",
          "a choice needs `choices`");
  // a combined policy reads existing sections of other modules, and has none of its own
  refused("[[policy]]\nname = \"bad\"\nmember = \"POL_BAD\"\nmodule = \"gs_policy_left_over\"\ndoc = \"x\"\n"
          "settings_of = [\"warped_slicer\", \"no_such_section\"]\n",
          "(bad).settings_of: expected a list of settings sections");
  refused("[[policy]]\nname = \"bad\"\nmember = \"POL_BAD\"\nmodule = \"gs_policy_left_over\"\ndoc = \"x\"\n"
          "settings_of = [\"srtf\"]\nsettings = \"bad\"\n[[policy.setting]]\nname = \"x\"\ntype = \"cycle_t\"\n"
          "default = 1\ndoc = \"y\"\n",
          "for a scheduler policy without settings of its own");
}

TEST_CASE("the registry's attributes replace the framework's policy names", "[spec]") {
  using gs::spec::kPolicies;
  const auto info = [](const char* name) -> const gs::spec::PolicyInfo& {
    for (const auto& p : kPolicies)
      if (std::string(p.name) == name) return p;
    FAIL("no policy " << name);
    return kPolicies[0];
  };
  // each golden-only option goes with the entries that take it, and only those
  CHECK(gs::spec::policy_takes(info("left-over"), "fixed_ctas"));
  CHECK_FALSE(gs::spec::policy_takes(info("left-over"), "fixed"));  // whole names only
  CHECK_FALSE(gs::spec::policy_takes(info("even"), "fixed_ctas"));
  CHECK(gs::spec::policy_takes(info("srtf"), "srtf_known_cycles"));
  CHECK_FALSE(gs::spec::policy_takes(info("srtf-adaptive"), "srtf_known_cycles"));
  CHECK(gs::spec::policy_takes(info("mwg"), "sbm_fixed_reg"));
  CHECK(info("hetero-dynamic").sm_types);
  CHECK(std::string(info("hetero-dynamic").regression_config) == "heterocore");
  CHECK(info("srtf-adaptive").regression_mix.any());
  CHECK(info("srtf-adaptive").regression_mix.max_grid == 1200);
  CHECK_FALSE(info("warped-slicer").regression_mix.any());
  CHECK(std::string(gs::spec::kDefaultPolicyName) == kPolicies[0].name);
  CHECK(static_cast<uint8_t>(gs::spec::kDefaultPolicy) == 0);
  gs::spec::PolicySettings s;
  s.hetero.baseline_config = "heterocore-baseline";
  CHECK(gs::spec::base_sm_config(s) == "heterocore-baseline");

  // the generator refuses an option no scheduler has, and sm_types without its regression preset
  gs::test::TempDir tmp("gs-spec-attr");
  const std::string dir = tmp.path.string();
  const std::string spec = read_file(std::string(GS_SOURCE_DIR) + "/rtl/spec/gs_spec.toml");
  const auto gen_with = [&](const std::string& from, const std::string& to, std::string& err) {
    const size_t at = spec.find(from);
    REQUIRE(at != std::string::npos);
    // in a tree like the source's: the registry's `view` and `regression_config` name files
    // under verif/waves/ and sim_top/configs/ beside rtl/spec/
    namespace fs = std::filesystem;
    const fs::path root = tmp.path / "tree";
    fs::create_directories(root / "rtl" / "spec");
    for (const char* d : {"verif", "sim_top"})
      if (!fs::exists(root / d)) fs::create_directory_symlink(fs::path(GS_SOURCE_DIR) / d, root / d);
    const std::string path = (root / "rtl" / "spec" / "gs_spec.toml").string();
    {
      std::ofstream f(path);
      f << spec.substr(0, at) << to << spec.substr(at + from.size());
    }
    return run_gen("--spec " + path, dir, err);
  };
  std::string err;
  CHECK(gen_with("takes = [\"fixed_ctas\"]", "takes = [\"fixed_caps\"]", err) == 2);
  CHECK(err.find("takes") != std::string::npos);
  CHECK(gen_with("regression_config = \"heterocore\"", "", err) == 2);
  CHECK(err.find("regression_config") != std::string::npos);
  CHECK(gen_with("regression_config = \"heterocore\"", "regression_config = \"no-such-preset\"", err) == 2);
  CHECK(err.find("regression_config") != std::string::npos);
  CHECK(gen_with("max_grid = 1200", "max_grid = -3", err) == 2);
  CHECK(err.find("regression_mix") != std::string::npos);
  CHECK(gen_with("base_sm = true", "base_sm = 1", err) == 2);
  CHECK(err.find("base_sm") != std::string::npos);
}
