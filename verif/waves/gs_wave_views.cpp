// gs_wave_views: checks GTKWave save files against an FST written by gsim --wave.
//
//   gs_wave_views --fst run.fst [--enum SIGNAL ...] verif/waves/*.gtkw
//
// Every signal row of every .gtkw (a line starting with "TOP.") must name a variable of the
// FST; a row GTKWave cannot resolve is silently left empty in the viewer, so a renamed RTL
// signal would go unnoticed without this. Each --enum SIGNAL must carry an FST enum table,
// which is what makes GTKWave show `SM_RESERVED` instead of `2`. Reads the FST with the
// reader half of the fstapi that Verilator's FST writer compiles in (verilated_fst_c.cpp).
// Exit 0: all rows resolve; 1: some do not (listed); 2: bad input.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "gtkwave/fstapi.h"

namespace {

/// Strips a trailing bit range ("[7:0]", "[3]") that GTKWave and fst names attach to vectors.
std::string strip_range(std::string name) {
  static const std::regex range(R"(\s*\[[0-9]+(:[0-9]+)?\]$)");
  return std::regex_replace(name, range, "");
}

struct FstNames {
  std::set<std::string> vars;        // full dotted names, without bit ranges
  std::set<std::string> enum_vars;   // those with an enum table attached
};

FstNames read_fst(const std::string& path) {
  void* ctx = fstReaderOpen(path.c_str());
  if (!ctx) throw std::runtime_error(path + ": not a readable FST file");
  FstNames out;
  std::vector<std::string> scope;
  bool enum_pending = false;   // an enum-table reference applies to the next variable
  while (fstHier* h = fstReaderIterateHier(ctx)) {
    switch (h->htyp) {
      case FST_HT_SCOPE: scope.emplace_back(h->u.scope.name); break;
      case FST_HT_UPSCOPE:
        if (!scope.empty()) scope.pop_back();
        break;
      case FST_HT_ATTRBEGIN:
        if (h->u.attr.typ == FST_AT_MISC && h->u.attr.subtype == FST_MT_ENUMTABLE && h->u.attr.arg != 0)
          enum_pending = true;
        break;
      case FST_HT_VAR: {
        std::string full;
        for (const auto& s : scope) full += s + ".";
        full = strip_range(full + h->u.var.name);
        out.vars.insert(full);
        if (enum_pending) out.enum_vars.insert(full);
        enum_pending = false;
        break;
      }
      default: break;
    }
  }
  fstReaderClose(ctx);
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Check GTKWave save files (.gtkw) against an FST waveform"};
  std::string fst;
  std::vector<std::string> gtkw, enums;
  app.add_option("--fst", fst, "FST written by gsim run --wave")->required()->check(CLI::ExistingFile);
  app.add_option("--enum", enums, "signal that must carry enum names (full dotted name); repeatable")
      ->allow_extra_args(false);
  app.add_option("gtkw", gtkw, ".gtkw save files")->required()->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);
  try {
    const FstNames names = read_fst(fst);
    int missing = 0;
    for (const auto& file : gtkw) {
      std::ifstream in(file);
      std::string line;
      int rows = 0, line_no = 0;
      while (std::getline(in, line)) {
        ++line_no;
        if (line.rfind("TOP.", 0) != 0) continue;
        ++rows;
        const std::string name = strip_range(line);
        if (!names.vars.count(name)) {
          std::cerr << file << ":" << line_no << ": " << name << " is not in " << fst << "\n";
          ++missing;
        }
      }
      std::cout << file << ": " << rows << " signal rows\n";
    }
    for (const auto& e : enums) {
      if (!names.enum_vars.count(e)) {
        std::cerr << e << ": no enum table in " << fst << (names.vars.count(e) ? "" : " (no such signal)") << "\n";
        ++missing;
      }
    }
    std::cout << names.vars.size() << " variables in " << fst << ", " << names.enum_vars.size()
              << " with enum names; " << missing << " problem(s)\n";
    return missing ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "gs_wave_views: " << e.what() << "\n";
    return 2;
  }
}
