// gsched: fuzz target for the config, kernel-descriptor and mix loaders, the inputs of
// `gsim unit` (its parsing and range checks, gs::run_unit_checked in sim_top/unit/unit_runner.hpp)
// and sweep files (gsim sweep's planner, gsim::sweep::load_sweep_plan in sim_top/src/sweep_plan.hpp).
//
// Contract under test: whatever bytes a config, kernel, mix or unit input file holds, loading it either
// succeeds or throws gs::InputError -- never another exception, a crash, a hang or unbounded
// memory (the sanitizer build turns memory errors and undefined behaviour into failures). A
// config that loads is also built into a Gpu with a small mix and stepped a few hundred
// cycles under the golden scheduler, so a config the loader accepts must be one the model
// can run (or one it rejects with InputError/WatchdogError). A unit input that is accepted is
// run by the golden side of its block (dss, waterfill, sbm, hetero), exactly as
// `gsim unit BLOCK --input F` runs it. A sweep file is planned as `gsim sweep F --list` plans it
// (every name resolved, every config and mix loaded, the limits on runs and nesting checked).
//
// Two drivers, one TestOneInput():
//   * default (g++, any build): a seeded random mutator. Seeds are the shipped configs,
//     kernel files and mixes, the unit vectors (verif/vectors/<block>_*.json) and the shipped
//     sweep files (sim_top/sweeps/); each iteration mutates one (byte flips, insertions, deletions,
//     number tokens replaced by extreme values, chunks spliced from other seeds). Bounded by
//     --seconds and --iterations; deterministic for a given --seed. Used by CTest
//     (fuzz_loaders, in the asan preset).
//   * libFuzzer: build with clang++ -fsanitize=fuzzer,address,undefined -DGS_LIBFUZZER
//     (LLVMFuzzerTestOneInput below); the first input byte picks the loader (and, for a unit
//     input, the second the block).
// Usage: gs_fuzz_loaders [--seconds S] [--iterations N] [--seed X] [--corpus-out DIR]
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "gpu/gpu.hpp"
#include "sched/scheduler_port.hpp"
#include "sweep_plan.hpp"
#include "unit/unit_runner.hpp"
#include "workload/kernel_desc.hpp"

namespace {

enum Target : uint8_t { kConfig = 0, kKernels = 1, kMix = 2, kUnit = 3, kSweep = 4 };
constexpr int kTargets = 5;

/// The decision units `gsim unit` knows (gs::list_units()).
const std::vector<std::string>& unit_blocks() {
  static const std::vector<std::string> b = gs::list_units();
  return b;
}

std::string g_tmp;  // private directory for the files the loaders read

const std::vector<gs::KernelDesc>& library() {
  static const std::vector<gs::KernelDesc> lib = gs::load_kernel_library();
  return lib;
}

std::string write_tmp(const std::string& name, const std::string& text) {
  const std::string path = g_tmp + "/" + name;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  return path;
}

// A config that loaded: run a small mix on it for a few hundred cycles.
void exercise_config(const gs::GpuConfig& cfg) {
  gs::Mix mix;
  mix.name = "fuzz";
  mix.file = "fuzz-mix";
  for (const char* k : {"test.compute", "test.memory"}) {
    gs::MixEntry e;
    e.kernel = k;
    e.desc = gs::find_kernel(library(), k);
    e.context = static_cast<uint32_t>(mix.kernels.size());
    mix.kernels.push_back(e);
  }
  try {
    gs::limits::check_mix_fits(cfg, mix);
  } catch (const gs::InputError&) {
    return;  // the mix does not fit this config: a proper refusal
  }
  gs::SchedOptions so;
  gs::RunOptions ro;
  ro.max_cycles = 400;
  ro.watchdog_cycles = 400;
  auto sched = gs::make_scheduler("golden", so);
  gs::Gpu gpu(cfg, mix, *sched, ro);
  for (int i = 0; i < 300 && gpu.step(); ++i) {
  }
}

/// One input: returns normally when the loader accepted or properly refused it. `block` is the
/// decision unit of a kUnit input.
void test_one(Target t, const std::string& text, const std::string& block = "") {
  try {
    switch (t) {
      case kUnit: (void)gs::run_unit_checked(block, text, "fuzz-unit.json"); break;
      case kConfig: {
        const gs::GpuConfig cfg = gs::parse_gpu_config(text, "fuzz-config.json");
        exercise_config(cfg);
        break;
      }
      case kKernels: {
        const std::string p = write_tmp("kernels.json", text);
        (void)gs::load_kernel_file(p);
        break;
      }
      case kSweep: {
        const std::string p = write_tmp("sweep.json", text);
        (void)gsim::sweep::load_sweep_plan(p, g_tmp + "/sweep-out");
        break;
      }
      case kMix: {
        const std::string p = write_tmp("mix.json", text);
        const gs::Mix m = gs::load_mix(p, library());
        static const gs::GpuConfig ws = gs::load_gpu_config("warped-slicer");
        gs::limits::check_mix_fits(ws, m);
        break;
      }
    }
  } catch (const gs::InputError&) {
  } catch (const gs::WatchdogError&) {  // a legal but hopeless config: the watchdog stops it
  }
}

std::string read_file(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// ---- seeded mutator

struct Rng {
  uint64_t s;
  uint64_t next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
  size_t below(size_t n) { return n ? size_t(next() % n) : 0; }
};

const char* const kValues[] = {"-1",
                               "0",
                               "1",
                               "4294967295",
                               "4294967296",
                               "18446744073709551615",
                               "18446744073709551616",
                               "99999999999999999999",
                               "1e400",
                               "-1e400",
                               "1.5",
                               "-0",
                               "1e-400",
                               "\"\"",
                               "\"x\"",
                               "null",
                               "true",
                               "[]",
                               "{}",
                               "[1,2]",
                               "{\"a\":1}",
                               "1073741824",
                               "65536",
                               "131072",
                               "256",
                               "257",
                               "33",
                               "1024",
                               "2",
                               "3"};

std::string mutate(std::string s, Rng& r, const std::vector<std::string>& seeds) {
  const int steps = 1 + int(r.below(4));
  for (int k = 0; k < steps; ++k) {
    switch (r.below(7)) {
      case 0:  // flip a byte
        if (!s.empty()) s[r.below(s.size())] ^= char(1u << r.below(8));
        break;
      case 1:  // delete a range
        if (!s.empty()) {
          const size_t a = r.below(s.size());
          s.erase(a, r.below(std::min<size_t>(32, s.size() - a) + 1));
        }
        break;
      case 2:  // insert a structural character
        s.insert(r.below(s.size() + 1), 1, "{}[]\",:-0e."[r.below(11)]);
        break;
      case 3:
      case 4: {  // replace a number token with an extreme value
        std::vector<size_t> starts;
        for (size_t i = 0; i < s.size(); ++i)
          if ((std::isdigit((unsigned char)s[i]) || s[i] == '-') && (i == 0 || !std::isalnum((unsigned char)s[i - 1])))
            starts.push_back(i);
        if (starts.empty()) break;
        const size_t a = starts[r.below(starts.size())];
        size_t b = a + 1;
        while (b < s.size() && (std::isalnum((unsigned char)s[b]) || s[b] == '.' || s[b] == '-' || s[b] == '+')) ++b;
        s.replace(a, b - a, kValues[r.below(sizeof kValues / sizeof kValues[0])]);
        break;
      }
      case 5: {  // splice a chunk of another seed
        const std::string& o = seeds[r.below(seeds.size())];
        if (o.empty()) break;
        const size_t a = r.below(o.size());
        s.insert(r.below(s.size() + 1), o.substr(a, r.below(64)));
        break;
      }
      case 6:  // truncate
        s.resize(r.below(s.size() + 1));
        break;
    }
  }
  return s;
}

}  // namespace

#if defined(GS_LIBFUZZER)
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (g_tmp.empty()) {
    char tmpl[] = "/tmp/gs_fuzz_XXXXXX";
    g_tmp = mkdtemp(tmpl);
  }
  if (size < 2) return 0;
  const Target t = static_cast<Target>(data[0] % kTargets);
  test_one(t, std::string(reinterpret_cast<const char*>(data) + 2, size - 2),
           t == kUnit ? unit_blocks()[data[1] % unit_blocks().size()] : std::string());
  return 0;
}
#else
int main(int argc, char** argv) {
  double seconds = 20;
  uint64_t iterations = ~0ull, seed = 1;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string a = argv[i];
    if (a == "--seconds") seconds = std::atof(argv[i + 1]);
    else if (a == "--iterations") iterations = std::strtoull(argv[i + 1], nullptr, 10);
    else if (a == "--seed") seed = std::strtoull(argv[i + 1], nullptr, 10);
    else {
      std::fprintf(stderr, "usage: gs_fuzz_loaders [--seconds S] [--iterations N] [--seed X]\n");
      return 2;
    }
  }
  char tmpl[] = "/tmp/gs_fuzz_XXXXXX";
  if (!mkdtemp(tmpl)) return 2;
  g_tmp = tmpl;

  struct Seed {
    Target target;
    std::string text, block;  // block: the decision unit of a kUnit seed
  };
  std::vector<Seed> seeds;
  std::vector<std::string> texts;
  const std::string data = gs::data_dir();
  auto add_dir = [&](const std::string& dir, Target t) {
    for (const std::string& stem : gs::json_stems_in(dir)) {
      std::string block;
      if (t == kUnit) {  // verif/vectors/<block>_*.json, the block with '-' written '_'
        for (const std::string& b : unit_blocks()) {
          std::string prefix = b + "_";
          for (char& c : prefix)
            if (c == '-') c = '_';
          if (stem.rfind(prefix, 0) == 0) block = b;
        }
        if (block.empty()) continue;
      }
      seeds.push_back({t, read_file(dir + "/" + stem + ".json"), block});
      texts.push_back(seeds.back().text);
    }
  };
  add_dir(data + "/configs", kConfig);
  add_dir(data + "/workloads/kernels", kKernels);
  add_dir(data + "/workloads/mixes", kMix);
  add_dir(GS_UNIT_VECTORS_DIR, kUnit);
  add_dir(data + "/sweeps", kSweep);
  if (seeds.empty()) {
    std::fprintf(stderr, "gs_fuzz_loaders: no seed files under %s\n", data.c_str());
    return 2;
  }
  for (int t = 0; t < kTargets; ++t)
    if (std::none_of(seeds.begin(), seeds.end(), [&](const Seed& s) { return s.target == t; })) {
      std::fprintf(stderr, "gs_fuzz_loaders: no seed file for target %d (unit vectors: %s)\n", t, GS_UNIT_VECTORS_DIR);
      return 2;
    }
  // Seeds themselves must load (a unit seed must also give a result, not a refusal).
  for (const Seed& s : seeds) {
    test_one(s.target, s.text, s.block);
    if (s.target == kUnit) (void)gs::run_unit_checked(s.block, s.text, "seed");
  }

  Rng rng{seed * 0x9E3779B97F4A7C15ull + 1};
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t n = 0;
  const char* names[] = {"config", "kernels", "mix", "unit", "sweep"};
  uint64_t per[kTargets] = {0, 0, 0, 0, 0};
  for (; n < iterations; ++n) {
    if ((n & 63) == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() >= seconds) break;
    // Each loader equally often, whatever the number of its seed files.
    const Target t = static_cast<Target>(rng.below(kTargets));
    std::vector<size_t> of_t;
    for (size_t i = 0; i < seeds.size(); ++i)
      if (seeds[i].target == t) of_t.push_back(i);
    if (of_t.empty()) continue;
    const Seed& s = seeds[of_t[rng.below(of_t.size())]];
    const std::string input = mutate(s.text, rng, texts);
    ++per[s.target];
    try {
      test_one(s.target, input, s.block);
    } catch (const std::exception& e) {
      const std::string out = g_tmp + "/finding.json";
      std::ofstream(out, std::ios::binary) << input;
      std::fprintf(stderr, "gs_fuzz_loaders: FINDING after %llu inputs (%s loader%s%s): %s: %s\ninput saved to %s\n",
                   (unsigned long long)n, names[s.target], s.block.empty() ? "" : ", block ", s.block.c_str(),
                   typeid(e).name(), e.what(), out.c_str());
      return 1;
    }
  }
  std::filesystem::remove_all(g_tmp);
  std::printf("gs_fuzz_loaders: %llu inputs (config %llu, kernels %llu, mix %llu, unit %llu, sweep %llu) in %.1f s, "
              "seed %llu: no finding\n",
              (unsigned long long)n, (unsigned long long)per[0], (unsigned long long)per[1], (unsigned long long)per[2],
              (unsigned long long)per[3], (unsigned long long)per[4],
              std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), (unsigned long long)seed);
  return 0;
}
#endif
