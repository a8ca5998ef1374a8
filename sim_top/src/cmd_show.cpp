// gsim show: what a name resolves to. `gsim show config NAME [--set KEY=VALUE ...]` prints every
// field of the config as the loader resolved it: its value and where it came from (the preset
// file, a --set override, or the loader's default), then the same for a config it reads (a
// heterocore preset's hetero.baseline_config). The loader itself reports the fields it reads
// (FieldRecorder, config/json_reader.hpp), so the list cannot drift from what a run uses.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include "commands.hpp"
#include "config/gpu_config.hpp"
#include "config/json_reader.hpp"

namespace gsim {

namespace {

/// Whether field path `field` ("sm_types[0].count") is what --set key `key` names
/// ("sm_types[0].count" or "sm_types[*].count").
bool set_names(const std::string& key, const std::string& field) {
  if (key == field) return true;
  std::string any;  // the field with every index written [*]: sm_types[*].x names sm_types[i].x
  for (size_t i = 0; i < field.size(); ++i) {
    const size_t close = field.find(']', i);
    if (field[i] == '[' && close != std::string::npos && field.find_first_not_of("0123456789", i + 1) == close &&
        close > i + 1) {
      any += "[*]";
      i = close;
    } else {
      any += field[i];
    }
  }
  return key == any;
}

int show_config(const std::string& name, const std::vector<std::string>& sets) {
  std::vector<gs::FieldRead> reads;
  gs::GpuConfig cfg;
  {
    gs::FieldRecorder recorder(&reads);
    cfg = gs::load_gpu_config(name, sets);
  }
  const std::string path = gs::resolve_config_path(name);
  // The loader with --set also reads the plain file once (for the name): keep the last read of
  // each field of each file, and with --set only the overridden document of the config itself.
  std::vector<std::string> files;
  std::map<std::string, std::map<std::string, const gs::FieldRead*>> last;
  std::map<std::string, std::vector<std::string>> order;
  for (const gs::FieldRead& r : reads) {
    if (!sets.empty() && r.file == path) continue;
    if (!last.count(r.file)) files.push_back(r.file);
    if (!last[r.file].count(r.field)) order[r.file].push_back(r.field);
    last[r.file][r.field] = &r;
  }
  // the config itself first, then the configs it reads
  std::stable_partition(files.begin(), files.end(), [&cfg](const std::string& f) { return f == cfg.file; });
  std::printf("config %s: %u SMs, %u MHz\n", cfg.name.c_str(), cfg.num_sms(), cfg.core_clock_mhz);
  for (const std::string& file : files) {
    const bool own = file == cfg.file;
    std::printf("\n%s %s\n", own ? "file" : "and the config it reads,", file.c_str());
    size_t w = 5, vw = 5;
    for (const std::string& field : order[file]) {
      w = std::max(w, field.size());
      vw = std::max(vw, std::min<size_t>(last[file][field]->value.size(), 24));  // a long text overflows
    }
    std::printf("  %-*s  %-*s  %s\n", int(w), "field", int(vw), "value", "source");
    for (const std::string& field : order[file]) {
      const gs::FieldRead& r = *last[file][field];
      std::string source = r.given ? "file" : "default";
      if (own)
        for (const std::string& s : sets)
          if (set_names(s.substr(0, s.find('=')), field)) source = "--set " + s;
      std::printf("  %-*s  %-*s  %s\n", int(w), field.c_str(), int(vw), r.value.c_str(), source.c_str());
    }
  }
  return 0;
}

}  // namespace

Command add_show_command(CLI::App& top) {
  auto what = std::make_shared<std::string>();
  auto name = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  CLI::App* app = top.add_subcommand("show",
                                     "Show what a name resolves to: every field of a config, its value and source");
  app->add_option("what", *what, "config")->required()->check(CLI::IsMember({"config"}));
  app->add_option("name", *name, "Config preset name (gsim list configs) or JSON file")->required();
  app->add_option("--set", *sets, "Change a config field first, as gsim run --set does (repeatable)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);
  return {app, [what, name, sets] { return show_config(*name, *sets); }};
}

}  // namespace gsim
