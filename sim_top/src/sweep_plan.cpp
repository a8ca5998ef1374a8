// gsim sweep: reading, validating and expanding a sweep file (contracts in sweep_plan.hpp).
#include "sweep_plan.hpp"

#include <algorithm>
#include <filesystem>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "common/error.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"
#include "config/limits.hpp"
#include "metrics/mix_strategy.hpp"
#include "sched/scheduler_port.hpp"
#include "workload/kernel_desc.hpp"
#include "gpu/gpu.hpp"

namespace gsim::sweep {

namespace {

using nlohmann::json;

/// What the sweep file says, before expansion.
struct SweepSpec {
  std::string name, scheduler = "golden";
  // "sets": config override variants, each a list of gsim run --set KEY=VALUE; {{}}: none
  std::vector<std::vector<std::string>> sets = {{}};
  std::vector<std::string> configs, mixes, policies = {gs::spec::kDefaultPolicyName}, preempt = {"drain"}, sm_sharing;
  std::vector<std::string> kernel_files;  // "kernels": the user's kernel libraries (gsim run --kernels)
  std::vector<uint64_t> seeds = {1};
  uint64_t max_cycles = 0;    // 0 = gsim run's default
  gs::WindowOverride window;  // "window_cycles"/"window_start": every mix's fixed window (gsim run --window-*)
  bool has_pairs = false;
  std::vector<std::string> pair_kernels;
  std::vector<std::string> pair_with;  // second kernels (empty: pair_kernels)
  bool pair_unordered = false;         // one of (a, b) and (b, a): the first generated
  // "combos": one kernel from each list, all at cycle 0; a set already generated is skipped
  std::vector<std::vector<std::string>> combo_lists;
  std::string combo_config;
  uint32_t combo_window = 0;  // the generated mixes' window_cycles (0: none; docs/sweep.md)
  std::vector<uint32_t> pair_stagger = {0};
  std::vector<uint32_t> pair_stagger_pct;  // arrival_pct of the second kernel (docs/sweep.md)
  std::string pair_config;
  uint32_t pair_window = 0;  // the generated mixes' window_cycles (0: none)
  bool has_groups = false;
  std::vector<std::string> group_kernels;
  std::vector<uint32_t> group_sizes = {2};
  uint32_t group_rounds = 1;
  uint64_t group_seed = 1;
  uint64_t group_arrival = 0;
  std::string group_config;
};

bool safe_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/// `s` with every character outside [A-Za-z0-9_.-] replaced by '_', never starting with '.'
/// (dot files in <out>/runs are the sweep's temporaries).
std::string file_safe(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (!safe_char(c)) c = '_';
  if (out.empty() || out[0] == '.') out.insert(out.begin(), '_');
  return out;
}

std::string element(const std::string& key, size_t i) { return key + "[" + std::to_string(i) + "]"; }

/// A list of strings; `required` lists must be present. Every list given must be non-empty
/// and hold non-empty strings, each once.
void string_list(gs::ObjectReader& r, const std::string& key, std::vector<std::string>& out, bool required) {
  if (required) r.require(key);
  const json* v = r.array(key);
  if (!v) return;
  if (v->empty()) r.fail(key, "the list is empty; give at least one value or leave the key out for its default");
  std::vector<std::string> list;
  std::unordered_set<std::string> seen;  // linear: a long list must not take quadratic time
  for (size_t i = 0; i < v->size(); ++i) {
    const json& e = (*v)[i];
    if (!e.is_string()) r.fail(element(key, i), "expected a string, got " + gs::json_type_name(e));
    const std::string s = e.get<std::string>();
    if (s.empty()) r.fail(element(key, i), "empty string");
    if (!seen.insert(s).second) r.fail(element(key, i), "\"" + s + "\" is listed twice");
    list.push_back(s);
  }
  out = std::move(list);
}

SweepSpec read_spec(const json& doc, const std::string& file) {
  gs::expect_object(doc, file, "");
  gs::ObjectReader r(doc, file, "");
  SweepSpec s;
  r.require("name");
  r.str("name", s.name);
  if (!std::all_of(s.name.begin(), s.name.end(), safe_char) || s.name[0] == '.')
    r.fail("name", "\"" + s.name + "\" may hold only letters, digits, '_', '.' and '-' (and not start with '.')");
  r.notes("notes");
  string_list(r, "configs", s.configs, true);
  if (const json* sets = r.array("sets")) {
    if (sets->empty()) r.fail("sets", "the list is empty; leave the key out for the configs as they are");
    s.sets.clear();
    std::set<std::vector<std::string>> seen;
    for (size_t i = 0; i < sets->size(); ++i) {
      const json& v = (*sets)[i];
      if (!v.is_array())
        r.fail(element("sets", i), "expected a list of \"KEY=VALUE\" strings, got " + gs::json_type_name(v));
      std::vector<std::string> one;
      for (size_t j = 0; j < v.size(); ++j) {
        if (!v[j].is_string() || v[j].get<std::string>().find('=') == std::string::npos)
          r.fail(element("sets", i) + "[" + std::to_string(j) + "]",
                 "expected \"KEY=VALUE\" (as gsim run --set), got " + v[j].dump());
        one.push_back(v[j].get<std::string>());
      }
      if (!seen.insert(one).second) r.fail(element("sets", i), "listed twice");
      s.sets.push_back(std::move(one));
    }
  }
  string_list(r, "mixes", s.mixes, false);
  string_list(r, "kernels", s.kernel_files, false);
  string_list(r, "policies", s.policies, false);
  string_list(r, "preempt", s.preempt, false);
  string_list(r, "sm_sharing", s.sm_sharing, false);
  r.str("scheduler", s.scheduler);
  r.u64("max_cycles", s.max_cycles, 1);
  r.u64("window_cycles", s.window.cycles, 1, uint64_t(1) << 48,
        "a fixed window of the mix loader's range (docs/workloads.md), given to every run as --window-cycles");
  if (r.has("window_start")) {
    uint64_t start = 0;
    r.u64("window_start", start, 0, uint64_t(1) << 48,
          "the cycle the measured window opens, given to every run as --window-start");
    s.window.start = start;
  }
  if (const json* seeds = r.array("seeds")) {
    if (seeds->empty()) r.fail("seeds", "the list is empty; give at least one seed or leave the key out for [1]");
    s.seeds.clear();
    std::unordered_set<uint64_t> seen;  // linear: 1M seeds must not take quadratic time
    for (size_t i = 0; i < seeds->size(); ++i) {
      const json& e = (*seeds)[i];
      if (!e.is_number_unsigned()) r.fail(element("seeds", i), "expected a whole number >= 0, got " + e.dump());
      const uint64_t seed = e.get<uint64_t>();
      if (!seen.insert(seed).second) r.fail(element("seeds", i), std::to_string(seed) + " is listed twice");
      s.seeds.push_back(seed);
    }
  }
  if (const json* pairs = r.object("pairs")) {
    s.has_pairs = true;
    gs::ObjectReader p(*pairs, file, "pairs");
    string_list(p, "kernels", s.pair_kernels, true);
    string_list(p, "with", s.pair_with, false);
    if (s.pair_with.empty() && s.pair_kernels.size() < 2) {
      p.fail("kernels", "pairs need at least two kernels");
    }
    s.pair_unordered = p.choice("order", {"ordered", "unordered"}) == 1;
    const auto distinct = [&p](const char* key, const std::vector<uint32_t>& v) {
      std::unordered_set<uint32_t> seen;
      for (size_t i = 0; i < v.size(); ++i)
        if (!seen.insert(v[i]).second) p.fail(element(key, i), std::to_string(v[i]) + " is listed twice");
    };
    if (p.has("stagger_pct")) {
      p.u32_list("stagger_pct", s.pair_stagger_pct);
      if (s.pair_stagger_pct.empty()) p.fail("stagger_pct", "the list is empty; leave the key out");
      for (size_t i = 0; i < s.pair_stagger_pct.size(); ++i)
        if (s.pair_stagger_pct[i] == 0 || s.pair_stagger_pct[i] > 10000)
          p.fail(element("stagger_pct", i), std::to_string(s.pair_stagger_pct[i]) +
                                                " is outside 1..10000 (a percentage of the first kernel's alone "
                                                "runtime; 0 is \"stagger\": [0])");
      distinct("stagger_pct", s.pair_stagger_pct);
      if (!p.has("stagger")) s.pair_stagger.clear();  // only the relative arrivals
    }
    if (p.has("stagger") || s.pair_stagger_pct.empty()) {
      p.u32_list("stagger", s.pair_stagger);
      if (s.pair_stagger.empty()) p.fail("stagger", "the list is empty; leave the key out for [0]");
    }
    distinct("stagger", s.pair_stagger);
    p.str("config", s.pair_config);
    p.u32("window_cycles", s.pair_window, 1, 1u << 30, "a fixed window of the mix loader's range (docs/workloads.md)");
    if (s.pair_window && !s.pair_stagger_pct.empty())
      p.fail("window_cycles", "a fixed-window mix has no alone runtime for stagger_pct to take a share of");
    p.reject_unknown_keys();
  }
  if (const json* combos = r.object("combos")) {
    gs::ObjectReader c(*combos, file, "combos");
    c.require("kernels");
    const json* lists = c.array("kernels");
    if (lists->size() < 2) c.fail("kernels", "give at least two lists (one per kernel of a mix)");
    for (size_t i = 0; i < lists->size(); ++i) {
      const json& l = (*lists)[i];
      const std::string f = element("kernels", i);
      if (!l.is_array() || l.empty()) c.fail(f, "expected a non-empty list of kernel names");
      std::vector<std::string> names;
      for (size_t j = 0; j < l.size(); ++j) {
        if (!l[j].is_string()) c.fail(f + "[" + std::to_string(j) + "]", "expected a kernel name");
        names.push_back(l[j].get<std::string>());
      }
      s.combo_lists.push_back(std::move(names));
    }
    c.str("config", s.combo_config);
    c.u32("window_cycles", s.combo_window, 1, 1u << 30, "a fixed window of the mix loader's range (docs/workloads.md)");
    c.reject_unknown_keys();
  }
  if (const json* groups = r.object("groups")) {
    s.has_groups = true;
    gs::ObjectReader g(*groups, file, "groups");
    string_list(g, "kernels", s.group_kernels, true);
    if (s.group_kernels.size() < 2) g.fail("kernels", "groups need at least two kernels");
    const uint32_t most = static_cast<uint32_t>(s.group_kernels.size());
    g.u32_list("sizes", s.group_sizes, 2, most,
               "a workload holds distinct kernels of \"kernels\", at most all of them");
    if (s.group_sizes.empty()) g.fail("sizes", "the list is empty; leave the key out for [2]");
    std::unordered_set<uint32_t> seen;
    for (size_t i = 0; i < s.group_sizes.size(); ++i)
      if (!seen.insert(s.group_sizes[i]).second)
        g.fail(element("sizes", i), std::to_string(s.group_sizes[i]) + " is listed twice");
    g.u32("rounds", s.group_rounds, 1, 1000);
    g.u64("seed", s.group_seed);
    g.u64("arrival", s.group_arrival, 0, 1ull << 48);
    g.str("config", s.group_config);
    g.reject_unknown_keys();
  }
  r.reject_unknown_keys();
  if ((s.window.cycles || s.window.start) && (s.pair_window || s.combo_window))
    r.fail(s.window.cycles ? "window_cycles" : "window_start", std::string("give the window once: \"") +
                                                                   (s.pair_window ? "pairs" : "combos") +
                                                                   "\" has its own window_cycles");
  if (s.mixes.empty() && !s.has_pairs && !s.has_groups && s.combo_lists.empty())
    r.fail("mixes", "give \"mixes\", \"pairs\", \"combos\" or \"groups\": the sweep has no mix");
  return s;
}

/// Rethrows an InputError raised while resolving `field` as one naming the sweep file and field.
template <class F>
auto in_field(const std::string& file, const std::string& field, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const gs::InputError& e) {
    throw gs::InputError(file, field, e.what());
  }
}

void check_member(const std::string& file, const std::string& key, const std::vector<std::string>& values,
                  const std::vector<std::string>& known, const std::string& what) {
  for (size_t i = 0; i < values.size(); ++i)
    if (std::find(known.begin(), known.end(), values[i]) == known.end())
      throw gs::InputError(file, element(key, i),
                           "unknown " + what + " \"" + values[i] + "\" (known: " + gs::join_names(known) + ")");
}

/// One launch of a generated mix.
struct Launch {
  std::string kernel;
  uint64_t arrival;
  uint32_t priority;
  uint32_t arrival_pct = 0;  // non-zero: the mix's "arrival_pct" instead of "arrival_cycle"
};

/// A generated mix document in the format of the shipped mixes (launch i in context i), and its
/// validation by the mix loader itself, naming `field` of the sweep file on a mistake.
GeneratedMix make_mix(const std::string& name, const std::string& config, const std::string& note,
                      const std::vector<Launch>& launches, const std::string& mixes_dir,
                      const std::vector<gs::KernelDesc>& lib, const std::string& file, const std::string& field,
                      gs::Mix& parsed, uint32_t window_cycles = 0) {
  GeneratedMix m;
  m.name = file_safe(name);
  m.path = mixes_dir + "/" + m.name + ".json";
  json doc = json::object();
  doc["name"] = m.name;
  if (!config.empty()) doc["config"] = config;
  doc["notes"] = json::array({note});
  if (window_cycles) doc["window_cycles"] = window_cycles;  // the fixed-window method
  doc["kernels"] = json::array();
  for (size_t i = 0; i < launches.size(); ++i) {
    json k = {{"kernel", launches[i].kernel}};
    if (launches[i].arrival_pct != 0) k["arrival_pct"] = launches[i].arrival_pct;
    else k["arrival_cycle"] = launches[i].arrival;
    k["context"] = i;
    k["priority"] = launches[i].priority;
    doc["kernels"].push_back(std::move(k));
  }
  m.text = doc.dump(2) + "\n";
  parsed = in_field(file, field, [&] { return gs::parse_mix(doc, m.path, lib); });
  return m;
}

/// A whole number in [0, n) from `rng`, without modulo bias (rejection), so that the draws are
/// the same with every standard library: std::mt19937_64's output is fixed by the standard,
/// std::uniform_int_distribution's is not.
uint64_t draw_below(std::mt19937_64& rng, uint64_t n) {
  const uint64_t limit = std::numeric_limits<uint64_t>::max() - std::numeric_limits<uint64_t>::max() % n;
  uint64_t x;
  do x = rng();
  while (x >= limit);
  return x % n;
}

/// The workloads of "groups" (docs/sweep.md): for every size n, every round and every kernel hp
/// of the list, hp is the prioritized process and n-1 others are drawn, distinct, from the rest.
std::vector<std::pair<GeneratedMix, gs::Mix>> group_mixes(const SweepSpec& s, const std::string& mixes_dir,
                                                          const std::vector<gs::KernelDesc>& lib,
                                                          const std::string& file) {
  std::vector<std::pair<GeneratedMix, gs::Mix>> out;
  for (const uint32_t n : s.group_sizes) {
    // One stream per size, so adding a size to the list leaves the other sizes' draws alone.
    std::mt19937_64 rng(fnv1a64("groups:" + std::to_string(s.group_seed) + ":" + std::to_string(n)));
    for (uint32_t round = 0; round < s.group_rounds; ++round)
      for (const std::string& hp : s.group_kernels) {
        std::vector<std::string> pool;
        for (const std::string& k : s.group_kernels)
          if (k != hp) pool.push_back(k);
        std::vector<Launch> launches;
        std::string others;
        for (uint32_t i = 0; i + 1 < n; ++i) {  // partial Fisher-Yates: the first n-1 of a shuffle
          std::swap(pool[i], pool[i + draw_below(rng, pool.size() - i)]);
          launches.push_back({pool[i], 0, 0});
          others += (i ? ", " : "") + pool[i];
        }
        launches.push_back({hp, s.group_arrival, 1});
        const std::string name = "group_n" + std::to_string(n) + "_r" + std::to_string(round) + "_" + hp;
        const std::string note = "Generated by gsim sweep from the sweep file's \"groups\": " + others +
                                 " at cycle 0 (priority 0), then the prioritized " + hp + " at cycle " +
                                 std::to_string(s.group_arrival) + " (priority 1).";
        gs::Mix parsed;
        GeneratedMix m = make_mix(name, s.group_config, note, launches, mixes_dir, lib, file, "groups", parsed);
        out.emplace_back(std::move(m), std::move(parsed));
      }
  }
  return out;
}

struct ConfigEntry {
  std::string arg, path, id;
  std::vector<std::string> extra_files;  // other configs it reads (hetero.baseline_config)
  std::vector<std::string> sets;         // one variant of "sets"
  gs::GpuConfig cfg;
  std::string field;
};
struct MixRef {
  std::string arg, id;
  gs::Mix mix;
  std::string field;
};

namespace fs = std::filesystem;

/// Refuses a sweep file whose lists/objects nest deeper than kMaxNesting, naming the top-level
/// field they are in, before the JSON is parsed (a deep value costs stack in every copy of it).
void check_nesting(const std::string& text, const std::string& file) {
  int depth = 0;
  bool in_string = false;
  size_t string_start = 0;
  std::string last_top_string, field;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
        if (depth == 1) last_top_string = text.substr(string_start, std::min<size_t>(i - string_start, 80));
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      string_start = i + 1;
    } else if (c == '[' || c == '{') {
      if (depth == 1) field = last_top_string;  // the key before this value
      if (++depth > kMaxNesting)
        throw gs::InputError(file, field.empty() ? "(top level)" : field,
                             "lists and objects nested deeper than " + std::to_string(kMaxNesting) +
                                 " levels (the limit of a sweep file; its own keys nest at most 4 deep)");
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
}

/// a x b, saturating at UINT64_MAX instead of wrapping.
uint64_t mul_sat(uint64_t a, uint64_t b) {
  uint64_t r = 0;
  return __builtin_mul_overflow(a, b, &r) ? std::numeric_limits<uint64_t>::max() : r;
}

std::string count_text(uint64_t n) {
  return n == std::numeric_limits<uint64_t>::max() ? std::string("more than 2^64") : std::to_string(n);
}

void throw_if_stopped(const std::string& file) {
  if (interrupted())
    throw gs::Interrupted("sweep " + file + ": stopped while planning (SIGINT/SIGTERM); nothing was written");
}

/// The number of mixes "pairs" gives, arithmetically (docs/sweep.md): every (a, b) of kernels x with,
/// a != b, per arrival; "unordered" drops one of each pair both of whose kernels are in both lists.
uint64_t pair_mix_count(const SweepSpec& s) {
  if (!s.has_pairs) return 0;
  const std::vector<std::string>& second = s.pair_with.empty() ? s.pair_kernels : s.pair_with;
  const std::unordered_set<std::string> in_second(second.begin(), second.end());
  uint64_t both = 0;  // kernels in both lists (each list holds a kernel once)
  for (const std::string& k : s.pair_kernels) both += in_second.count(k);
  uint64_t pairs = mul_sat(s.pair_kernels.size(), second.size()) - both;
  if (s.pair_unordered) pairs -= both * (both - 1) / 2;
  return mul_sat(pairs, s.pair_stagger.size() + s.pair_stagger_pct.size());
}

/// The picks of "combos" that make a mix (distinct kernels, a set not made before), as indices
/// into the lists, in the odometer order of docs/sweep.md. The product of the list lengths (the
/// odometer's steps) is counted first and refused above kMaxComboPicks; more than `most` picks
/// stop the count (the caller refuses the plan). Honours SIGINT/SIGTERM.
std::vector<std::vector<uint32_t>> combo_picks(const SweepSpec& s, const std::string& file, uint64_t most) {
  std::vector<std::vector<uint32_t>> picks;
  if (s.combo_lists.empty()) return picks;
  uint64_t steps = 1;
  for (const auto& l : s.combo_lists) steps = mul_sat(steps, l.size());
  if (steps > kMaxComboPicks)
    throw gs::InputError(file, "combos.kernels",
                         "the lists give " + count_text(steps) +
                             " combinations (the product of their lengths) to look "
                             "through, more than the limit of " +
                             std::to_string(kMaxComboPicks) + "; split the sweep or shorten the lists");
  std::unordered_map<std::string, uint32_t> ids;  // kernel name -> small id, for the set keys
  std::vector<std::vector<uint32_t>> list_ids;
  for (const auto& l : s.combo_lists) {
    std::vector<uint32_t> v;
    for (const std::string& k : l) v.push_back(ids.emplace(k, static_cast<uint32_t>(ids.size())).first->second);
    list_ids.push_back(std::move(v));
  }
  std::unordered_set<std::string> seen;  // sorted ids of every set made
  std::vector<uint32_t> at(s.combo_lists.size(), 0), set(at.size());
  for (uint64_t step = 0;; ++step) {
    if ((step & 4095) == 0) throw_if_stopped(file);
    for (size_t i = 0; i < at.size(); ++i) set[i] = list_ids[i][at[i]];
    std::sort(set.begin(), set.end());
    if (std::adjacent_find(set.begin(), set.end()) == set.end() &&
        seen.insert(std::string(reinterpret_cast<const char*>(set.data()), set.size() * sizeof(uint32_t))).second) {
      picks.push_back(at);
      if (picks.size() > most) return picks;
    }
    size_t i = at.size();
    while (i > 0 && ++at[i - 1] == s.combo_lists[i - 1].size()) at[--i] = 0;
    if (i == 0) break;
  }
  return picks;
}

/// Where a config or mix the sweep file names by a relative path is (docs/sweep.md, "Paths"):
/// the sweep file's directory, then the data directory, then the working directory. "" when
/// none holds it. Names (no '/', no ".json") and absolute paths are returned as they are.
std::string find_relative(const std::string& arg, const std::string& sweep_dir) {
  if (!gs::looks_like_path(arg) || arg.empty() || arg[0] == '/') return arg;
  std::error_code ec;
  for (const std::string& base : {sweep_dir, gs::data_dir(), std::string()}) {
    const std::string p = (fs::path(base) / arg).lexically_normal().string();
    if (fs::is_regular_file(p, ec)) return p;
  }
  return {};
}

std::string looked_in(const std::string& sweep_dir) {
  return "looked for it relative to the sweep file's directory (" + (sweep_dir.empty() ? "." : sweep_dir) +
         "), the data directory (" + gs::data_dir() + ") and the working directory (" + fs::current_path().string() +
         ")";
}

/// A config path of the sweep file, resolved; a missing one is an error naming the places looked at.
std::string resolve_config_arg(const std::string& arg, const std::string& sweep_dir) {
  const std::string p = find_relative(arg, sweep_dir);
  if (p.empty()) throw gs::InputError(arg + ": no such config file; " + looked_in(sweep_dir));
  return p;
}

/// A mix path of the sweep file, resolved; a missing one is an error naming the places looked at
/// and the shipped mix files of the same file name (sim_top/workloads/mixes/ and its folders).
std::string resolve_mix_arg(const std::string& arg, const std::string& sweep_dir) {
  const std::string p = find_relative(arg, sweep_dir);
  if (!p.empty()) return p;
  std::string msg = arg + ": no such mix file; " + looked_in(sweep_dir) + ".";
  const std::string name = fs::path(arg).filename().string();
  const std::string mixes = gs::data_dir() + "/workloads/mixes";
  std::vector<std::string> same;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(mixes, ec), end; !ec && it != end; it.increment(ec))
    if (it->path().filename() == name && it->is_regular_file(ec))
      same.push_back(fs::path("workloads/mixes") / it->path().lexically_relative(mixes));
  std::sort(same.begin(), same.end());
  if (!same.empty())
    msg += " Did you mean " + gs::join_names(same) + " (in the data directory " + gs::data_dir() + ")?";
  throw gs::InputError(msg);
}

}  // namespace

std::string shell_line(const std::string& program, const std::vector<std::string>& args) {
  std::string out = program;
  for (const std::string& a : args) {
    const bool plain = !a.empty() && std::all_of(a.begin(), a.end(), [](char c) {
      return safe_char(c) || c == '/' || c == '=' || c == ':' || c == '@' || c == '%' || c == '+' || c == ',';
    });
    if (plain) {
      out += " " + a;
      continue;
    }
    out += " '";
    for (const char c : a) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += "'";
  }
  return out;
}

Plan load_sweep_plan(const std::string& file, const std::string& out_dir) {
  const std::string text = gs::read_text_file(file);
  check_nesting(text, file);
  SweepSpec s = read_spec(gs::parse_json_strict(text, file), file);
  throw_if_stopped(file);
  Plan plan;
  plan.name = s.name;
  plan.file = file;
  plan.out_dir = out_dir.empty() ? "sweep-results/" + s.name : out_dir;
  const std::string sweep_dir = fs::path(file).parent_path().string();

  // ---- how many runs: counted before anything of the plan is loaded, generated or allocated
  const std::vector<std::string> sharing = s.sm_sharing.empty() ? std::vector<std::string>{""} : s.sm_sharing;
  uint64_t per_mix = mul_sat(s.configs.size(), s.sets.size());
  for (const size_t n : {s.policies.size(), s.preempt.size(), s.seeds.size(), sharing.size()})
    per_mix = mul_sat(per_mix, n);
  uint64_t group_mixes_n = 0;
  if (s.has_groups) group_mixes_n = mul_sat(mul_sat(s.group_sizes.size(), s.group_rounds), s.group_kernels.size());
  uint64_t mixes_n = s.mixes.size();
  for (const uint64_t n : {pair_mix_count(s), group_mixes_n})
    mixes_n = n > std::numeric_limits<uint64_t>::max() - mixes_n ? std::numeric_limits<uint64_t>::max() : mixes_n + n;
  const auto refuse_runs = [&](uint64_t runs, const std::string& more) {
    throw gs::InputError(file, "(the runs)",
                         "the sweep has " + more + count_text(runs) +
                             " runs (configs x sets x mixes x policies x "
                             "preempt x seeds x sm_sharing), more than the limit of " +
                             std::to_string(kMaxRuns) + " of one sweep; split it into several sweep files");
  };
  if (mul_sat(per_mix, mixes_n) > kMaxRuns) refuse_runs(mul_sat(per_mix, mixes_n), "");
  // combos: the distinct sets are counted by walking the lists (at most kMaxComboPicks steps)
  const uint64_t room = per_mix == 0 ? kMaxRuns : (kMaxRuns - per_mix * mixes_n) / per_mix;
  const std::vector<std::vector<uint32_t>> picks = combo_picks(s, file, room);
  if (picks.size() > room) refuse_runs(mul_sat(per_mix, mixes_n + picks.size()), "at least ");
  const uint64_t run_count = per_mix * (mixes_n + picks.size());
  if (run_count == 0)
    throw gs::InputError(file, s.has_pairs ? "pairs" : "combos",
                         "the sweep has no run: its pairs/combos give no mix (a pair or combination of a kernel "
                         "with itself is left out)");

  // ---- names, checked against the registries and data the runs will load
  register_build_schedulers();
  const auto kinds = gs::list_scheduler_kinds();
  if (std::find(kinds.begin(), kinds.end(), s.scheduler) == kinds.end())
    throw gs::InputError(file, "scheduler",
                         "unknown scheduler \"" + s.scheduler + "\" (this build has: " + gs::join_names(kinds) + ")");
  // registry names and aliases, as gsim run takes them; runs are named by the registry name
  std::unordered_set<std::string> policy_seen;
  for (size_t i = 0; i < s.policies.size(); ++i) {
    s.policies[i] = in_field(file, element("policies", i), [&] { return gs::canonical_policy_name(s.policies[i]); });
    if (!policy_seen.insert(s.policies[i]).second)
      throw gs::InputError(file, element("policies", i),
                           "policy \"" + s.policies[i] + "\" is listed twice (an alias counts)");
  }
  check_member(file, "preempt", s.preempt, {"drain", "switch"}, "preemption mode");
  check_member(file, "sm_sharing", s.sm_sharing, {"shared", "exclusive"}, "sm_sharing mode");

  std::vector<ConfigEntry> configs;
  for (size_t i = 0; i < s.configs.size(); ++i) {
    const std::string field = element("configs", i);
    const std::string arg = in_field(file, field, [&] { return resolve_config_arg(s.configs[i], sweep_dir); });
    for (size_t v = 0; v < s.sets.size(); ++v) {
      throw_if_stopped(file);
      ConfigEntry c;
      c.arg = arg;
      c.sets = s.sets[v];
      c.field = field;
      c.path = in_field(file, c.field, [&] { return gs::resolve_config_path(c.arg); });
      c.cfg = in_field(file, s.sets.size() > 1 || !c.sets.empty() ? element("sets", v) : c.field,
                       [&] { return gs::load_gpu_config(c.arg, c.sets); });
      // a config that names another (the base_sm setting, hetero.baseline_config): the run reads
      // that one too
      if (!gs::spec::base_sm_config(c.cfg.settings).empty())
        c.extra_files.push_back(in_field(file, c.field, [&] {
          return gs::resolve_config_path(gs::spec::base_sm_config(c.cfg.settings));
        }));
      c.id = file_safe(std::filesystem::path(s.configs[i]).stem().string()) +
             (s.sets.size() > 1 ? "__set" + std::to_string(v) : "");
      configs.push_back(std::move(c));
    }
  }
  const auto check_hint = [&](const std::string& hint, const char* field) {
    if (hint.empty()) return;
    in_field(file, field, [&] { return gs::resolve_config_path(resolve_config_arg(hint, sweep_dir)); });
  };
  check_hint(s.pair_config, "pairs.config");

  // "kernels": the user's kernel libraries, each run reads them beside the shipped ones
  std::vector<std::string> kernel_files;
  for (size_t i = 0; i < s.kernel_files.size(); ++i)
    kernel_files.push_back(in_field(file, element("kernels", i), [&] {
      const std::string p = find_relative(s.kernel_files[i], sweep_dir);
      if (p.empty()) throw gs::InputError(s.kernel_files[i] + ": no such kernel library file; " + looked_in(sweep_dir));
      return p;
    }));
  const std::vector<gs::KernelDesc> lib = in_field(file, "kernels",
                                                   [&] { return gs::load_kernel_library(kernel_files); });
  std::vector<MixRef> mixes;
  // the sweep's "window_cycles"/"window_start" on one mix, checked as gsim run --window-* checks them
  const auto apply_window = [&](MixRef& m) {
    in_field(file, s.window.cycles ? "window_cycles" : "window_start", [&] {
      gs::override_window(m.mix, s.window, m.field);
      return 0;
    });
  };
  for (size_t i = 0; i < s.mixes.size(); ++i) {
    throw_if_stopped(file);
    MixRef m;
    m.field = element("mixes", i);
    m.arg = in_field(file, m.field, [&] { return resolve_mix_arg(s.mixes[i], sweep_dir); });
    m.mix = in_field(file, m.field, [&] { return gs::load_mix(m.arg, lib); });
    if (!m.mix.processes.empty()) plan.has_process_mixes = true;  // its rows go to processes.csv
    apply_window(m);
    if (m.mix.window_cycles != 0) plan.has_window_mixes = true;  // its rows go to windows.csv
    m.id = file_safe(m.mix.name);
    mixes.push_back(std::move(m));
  }
  const size_t listed_mixes = mixes.size();
  for (size_t i = 0; i < s.pair_kernels.size(); ++i)
    in_field(file, element("pairs.kernels", i), [&] { return gs::find_kernel(lib, s.pair_kernels[i]); });
  for (size_t i = 0; i < s.pair_with.size(); ++i)
    in_field(file, element("pairs.with", i), [&] { return gs::find_kernel(lib, s.pair_with[i]); });
  const std::vector<std::string>& pair_second = s.pair_with.empty() ? s.pair_kernels : s.pair_with;
  const std::string mixes_dir = plan.out_dir + "/mixes";
  const auto add_generated = [&](GeneratedMix gm, gs::Mix parsed, const std::string& field) {
    MixRef m;
    m.arg = gm.path;
    m.field = field;
    m.mix = std::move(parsed);
    apply_window(m);
    m.id = gm.name;
    if (m.mix.window_cycles != 0) plan.has_window_mixes = true;  // pairs/combos window_cycles: windows.csv
    mixes.push_back(std::move(m));
    plan.generated_mixes.push_back(std::move(gm));
  };
  // every stagger in cycles, then every stagger in percent of the first kernel's alone runtime
  std::vector<std::pair<uint32_t, bool>> arrivals;
  for (const uint32_t c : s.pair_stagger) arrivals.emplace_back(c, false);
  for (const uint32_t pct : s.pair_stagger_pct) arrivals.emplace_back(pct, true);
  for (const auto& [stagger, pct] : arrivals) {
    std::set<std::pair<std::string, std::string>> made;
    for (const std::string& a : s.pair_kernels)
      for (const std::string& b : pair_second) {
        if (a == b || !s.has_pairs) continue;
        if (s.pair_unordered && made.count(std::make_pair(b, a))) continue;
        throw_if_stopped(file);
        made.emplace(a, b);
        const std::string when = pct ? std::to_string(stagger) + "% of " + a + "'s alone runtime"
                                     : "cycle " + std::to_string(stagger);
        const std::string note = "Generated by gsim sweep from the sweep file's \"pairs\": " + a + " at cycle 0, " + b +
                                 " at " + when + ".";
        gs::Mix parsed;
        Launch second{b, pct ? 0 : stagger, 0, pct ? stagger : 0};
        GeneratedMix gm = make_mix("pair_" + a + "_" + b + "_at" + std::to_string(stagger) + (pct ? "pct" : ""),
                                   s.pair_config, note, {{a, 0, 0}, second}, mixes_dir, lib, file, "pairs", parsed,
                                   s.pair_window);
        add_generated(std::move(gm), std::move(parsed), "pairs");
      }
  }
  for (size_t i = 0; i < s.combo_lists.size(); ++i)
    for (size_t j = 0; j < s.combo_lists[i].size(); ++j)
      in_field(file, element("combos.kernels", i) + "[" + std::to_string(j) + "]",
               [&] { return gs::find_kernel(lib, s.combo_lists[i][j]); });
  check_hint(s.combo_config, "combos.config");
  for (const std::vector<uint32_t>& at : picks) {
    throw_if_stopped(file);
    std::string name = "combo", list;
    std::vector<Launch> launches;
    for (size_t i = 0; i < at.size(); ++i) {
      const std::string& k = s.combo_lists[i][at[i]];
      name += "_" + k;
      list += (list.empty() ? "" : ", ") + k;
      launches.push_back({k, 0, 0});
    }
    gs::Mix parsed;
    GeneratedMix gm = make_mix(name, s.combo_config,
                               "Generated by gsim sweep from the sweep file's \"combos\": " + list + " at cycle 0.",
                               launches, mixes_dir, lib, file, "combos", parsed, s.combo_window);
    add_generated(std::move(gm), std::move(parsed), "combos");
  }
  for (size_t i = 0; i < s.group_kernels.size(); ++i)
    in_field(file, element("groups.kernels", i), [&] { return gs::find_kernel(lib, s.group_kernels[i]); });
  check_hint(s.group_config, "groups.config");
  if (s.has_groups)
    for (auto& [gm, parsed] : group_mixes(s, mixes_dir, lib, file))
      add_generated(std::move(gm), std::move(parsed), "groups");

  // ---- a generated mix never replaces a mix the sweep lists or a shipped one
  {
    std::error_code ec;
    const auto canon = [&ec](const std::string& p) { return fs::weakly_canonical(fs::absolute(p), ec).string(); };
    std::map<std::string, std::string> listed;  // canonical path -> field
    for (size_t i = 0; i < listed_mixes; ++i) listed.emplace(canon(mixes[i].mix.file), mixes[i].field);
    const std::string shipped = canon(gs::data_dir() + "/workloads/mixes") + "/";
    for (size_t i = listed_mixes; i < mixes.size(); ++i) {
      const std::string p = canon(mixes[i].arg);
      if (const auto it = listed.find(p); it != listed.end())
        throw gs::InputError(file, mixes[i].field,
                             "the generated mix " + mixes[i].arg + " would replace the mix " + it->second +
                                 " lists; give that mix another file name or the sweep another --out");
      if (p.compare(0, shipped.size(), shipped) == 0)
        throw gs::InputError(file, mixes[i].field,
                             "the generated mix " + mixes[i].arg + " would replace a shipped mix of " + shipped +
                                 "; give --out a directory of its own");
    }
  }

  // ---- combinations gsim run would refuse: a mix that does not fit a config, sm_sharing
  // with a policy that does not take it (the checks gsim run makes before simulating), a
  // window longer than the runs may last
  const uint64_t max_cycles = s.max_cycles ? s.max_cycles : gs::RunOptions{}.max_cycles;
  for (const MixRef& m : mixes) {
    if (m.mix.window_cycles == 0) continue;
    const uint64_t lasts = m.mix.window_start + m.mix.window_cycles;
    if (lasts <= max_cycles) continue;
    const std::string field = s.window.cycles || s.window.start ? (s.window.cycles ? "window_cycles" : "window_start")
                              : m.field == "pairs" || m.field == "combos" ? m.field + ".window_cycles"
                                                                          : m.field;
    throw gs::InputError(file, field,
                         "the window of " + m.id + " ends at cycle " + std::to_string(lasts) + " (window_start " +
                             std::to_string(m.mix.window_start) + " + window_cycles " +
                             std::to_string(m.mix.window_cycles) + "), after the runs' max_cycles " +
                             std::to_string(max_cycles) + (s.max_cycles ? "" : " (gsim run's default)") +
                             ": every run would fail; raise \"max_cycles\" or shorten the window");
  }
  for (const ConfigEntry& c : configs) {
    for (const MixRef& m : mixes)
      in_field(file, m.field, [&] {
        gs::limits::check_mix_fits(c.cfg, m.mix);
        return 0;
      });
    for (size_t p = 0; p < s.policies.size(); ++p)
      for (size_t k = 0; k < sharing.size(); ++k) {
        const gs::spec::DerivedPolicyInfo* derived = gs::find_derived_policy(s.policies[p]);
        if (derived && derived->golden_only) {  // an analysis policy (cmd_run.cpp checks the rest)
          if (s.scheduler != "golden")
            throw gs::InputError(file, "scheduler",
                                 "\"" + s.scheduler + "\": policy " + s.policies[p] +
                                     " is C++ only, give \"scheduler\": \"golden\"");
          continue;
        }
        gs::SchedOptions opt;
        opt.policy = derived ? derived->runs_under : s.policies[p];
        opt.sm_sharing = sharing[k] == "exclusive" ? gs::SmSharing::kExclusive : gs::SmSharing::kShared;
        const std::string field = sharing[k].empty() ? element("policies", p) : element("sm_sharing", k);
        in_field(file, field, [&] {
          try {
            gs::limits::check_scheduler_config(c.cfg, opt);
          } catch (const gs::InputError& e) {
            throw gs::InputError("policy " + s.policies[p] + " on " + c.field + " (" + c.arg + "): " + e.what());
          }
          return 0;
        });
      }
  }

  // ---- the Cartesian product
  const std::vector<std::string> library_files = gs::kernel_library_files(kernel_files);
  std::unordered_map<std::string, std::string> seen;  // run id -> its command, to name a clash
  plan.runs.reserve(run_count);
  for (const ConfigEntry& c : configs)
    for (const MixRef& m : mixes)
      for (const std::string& policy : s.policies)
        for (const std::string& preempt : s.preempt)
          for (const uint64_t seed : s.seeds)
            for (const std::string& share : sharing) {
              if ((plan.runs.size() & 1023) == 0) throw_if_stopped(file);
              Run run;
              run.id = c.id + "__" + m.id + "__" + policy + "__" + preempt + "__s" + std::to_string(seed) +
                       (share.empty() ? "" : "__" + share);
              run.args = {
                  "run",    "--config",          c.arg, "--mix", m.arg, "--policy", policy, "--preempt", preempt,
                  "--seed", std::to_string(seed)};
              for (const std::string& kv : c.sets) run.args.insert(run.args.end(), {"--set", kv});
              for (const std::string& k : kernel_files) run.args.insert(run.args.end(), {"--kernels", k});
              if (!share.empty()) run.args.insert(run.args.end(), {"--sm-sharing", share});
              run.args.insert(run.args.end(), {"--scheduler", s.scheduler});
              if (s.max_cycles) run.args.insert(run.args.end(), {"--max-cycles", std::to_string(s.max_cycles)});
              if (s.window.cycles)
                run.args.insert(run.args.end(), {"--window-cycles", std::to_string(s.window.cycles)});
              if (s.window.start) run.args.insert(run.args.end(), {"--window-start", std::to_string(*s.window.start)});
              run.args.push_back("--quiet");
              run.input_files = {c.path};
              run.input_files.insert(run.input_files.end(), c.extra_files.begin(), c.extra_files.end());
              run.input_files.push_back(m.mix.file);
              run.input_files.insert(run.input_files.end(), library_files.begin(), library_files.end());
              const std::string line = shell_line("gsim", run.args);
              if (const auto it = seen.find(run.id); it != seen.end())
                throw gs::InputError(file + ": two runs get the same id " + run.id + " (" + it->second + " and " +
                                     line + "): give configs and mixes distinct file names");
              seen.emplace(run.id, line);
              plan.runs.push_back(std::move(run));
            }
  return plan;
}

}  // namespace gsim::sweep
