// gs_wave_views: checks GTKWave save files against an FST written by gsim, and what GTKWave
// itself displays for them.
//
//   gs_wave_views --fst run.fst [--enum SIGNAL ...] verif/waves/*.gtkw
//   gs_wave_views --fst run.fst --shown values.txt [--marker-pair] view.gtkw
//   gs_wave_views --fst run.fst --time-range      (prints "time_range <start> <end> timescale <exp>")
//
// First form: every signal row of every .gtkw must name a variable of the FST (GTKWave leaves
// an unresolvable row silently empty, so a renamed RTL signal would go unnoticed), and each
// --enum SIGNAL must carry an FST enum table (what lets GTKWave show `SM_RESERVED`, not `2`).
//
// Second form: values.txt is what GTKWave displayed for `view.gtkw` (gtkwave_views.tcl, run in
// real GTKWave under Xvfb): one line per trace and marker time, "time<TAB>index<TAB>flags<TAB>
// value". Every row that has names to show -- an FST enum table on its signal, or a translate
// filter file (`^N file` + the filter flag) -- must show one of those names at every sampled
// time; a raw number there fails the check (the row's display flags override the enum, the
// filter misses a value, ...). --marker-pair: the first two signal rows (REF and DUT of the
// mismatching signal in a lockstep mismatch view) must differ at the save file's marker.
//
// Reads the FST with the reader half of the fstapi that Verilator's FST writer compiles in
// (verilated_fst_c.cpp). Exit 0: all checks pass; 1: some fail (listed); 2: bad input.
#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gtkwave/fstapi.h"

namespace {

const std::string kCutTable = "\x01cut";       // last "literal" of an enum table the reader cut short
constexpr uint64_t kTrFtranslated = 1u << 13;  // GTKWave TR_FTRANSLATED: a translate filter file applies

/// Strips a trailing bit range ("[7:0]", "[3]") that GTKWave and fst names attach to vectors.
std::string strip_range(std::string name) {
  static const std::regex range(R"(\s*\[[0-9]+(:[0-9]+)?\]$)");
  return std::regex_replace(name, range, "");
}

struct FstNames {
  std::set<std::string> vars;                             // full dotted names, without bit ranges
  std::map<std::string, std::vector<std::string>> enums;  // var -> its enum table's literals
};

std::vector<std::string> split(const std::string& s) {
  std::istringstream is(s);
  std::vector<std::string> v;
  for (std::string w; is >> w;) v.push_back(w);
  return v;
}

FstNames read_fst(const std::string& path) {
  void* ctx = fstReaderOpen(path.c_str());
  if (!ctx) throw std::runtime_error(path + ": not a readable FST file");
  FstNames out;
  std::map<uint64_t, std::vector<std::string>> tables;  // enum-table handle -> literals
  std::vector<std::string> scope;
  uint64_t pending = 0;  // an enum-table reference applies to the next variable
  while (fstHier* h = fstReaderIterateHier(ctx)) {
    switch (h->htyp) {
      case FST_HT_SCOPE: scope.emplace_back(h->u.scope.name); break;
      case FST_HT_UPSCOPE:
        if (!scope.empty()) scope.pop_back();
        break;
      case FST_HT_ATTRBEGIN:
        if (h->u.attr.typ == FST_AT_MISC && h->u.attr.subtype == FST_MT_ENUMTABLE && h->u.attr.arg != 0) {
          if (h->u.attr.name_length == 0) {
            pending = h->u.attr.arg;  // reference
          } else {                    // definition: "name count literal... value..."
            const auto w = split(h->u.attr.name);
            const std::size_t n = w.size() >= 2 ? std::stoul(w[1]) : 0;
            auto& t = tables[h->u.attr.arg];
            t.assign(w.begin() + 2, w.begin() + 2 + std::min(n, w.size() - 2));
            // fstapi's reader cuts attribute strings at 512 bytes; GTKWave reads the whole
            // table. A cut table is marked so the check knows it cannot list every name.
            if (t.size() < n) t.push_back(kCutTable);
          }
        }
        break;
      case FST_HT_VAR: {
        std::string full;
        for (const auto& s : scope) full += s + ".";
        full = strip_range(full + h->u.var.name);
        out.vars.insert(full);
        if (pending && tables.count(pending)) out.enums[full] = tables[pending];
        pending = 0;
        break;
      }
      default: break;
    }
  }
  fstReaderClose(ctx);
  return out;
}

/// One trace GTKWave builds from a .gtkw line: a signal row, an alias, a combined vector or a
/// comment ("-...") row.
struct Row {
  int line = 0;
  std::string text;                  // the line as written
  std::string signal;                // FST variable ("" for comments and combined vectors of several)
  std::vector<std::string> members;  // the variables a combined vector (#{name} ...) is made of
  uint64_t flags = 0;
  std::string filter;  // translate filter file ("" = none)
  bool comment = false;
};

struct SaveFile {
  std::vector<Row> rows;
  uint64_t marker = 0;
  bool has_marker = false;
};

std::string dir_of(const std::string& p) {
  const auto s = p.rfind('/');
  return s == std::string::npos ? "." : p.substr(0, s);
}

/// Resolves a filter path as GTKWave does: relative to [savefile]'s directory, re-rooted at
/// the actual save file's directory.
std::string resolve_filter(const std::string& fn, const std::string& recorded_save, const std::string& actual_save) {
  const std::string rdir = dir_of(recorded_save) + "/";
  if (!recorded_save.empty() && fn.rfind(rdir, 0) == 0) return dir_of(actual_save) + "/" + fn.substr(rdir.size());
  return fn;
}

SaveFile read_gtkw(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot read");
  SaveFile sf;
  std::string line, recorded_save, filter;
  uint64_t flags = 1u << 5;  // TR_RJUSTIFY, GTKWave's default before any '@' line
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty() || line.rfind("[*]", 0) == 0) continue;
    if (line.rfind("[savefile]", 0) == 0) {
      const auto a = line.find('"'), b = line.rfind('"');
      if (a != std::string::npos && b > a) recorded_save = line.substr(a + 1, b - a - 1);
      continue;
    }
    if (line[0] == '[') continue;
    if (line[0] == '*') {
      const auto w = split(line.substr(1));
      if (w.size() >= 2) {
        sf.marker = std::stoull(w[1]);
        sf.has_marker = w[1] != "-1";
      }
      continue;
    }
    if (line[0] == '@') {
      flags = std::stoull(line.substr(1), nullptr, 16);
      continue;
    }
    if (line[0] == '^') {
      const auto sp = line.find(' ');
      filter = (line[1] == '0' || sp == std::string::npos) ? ""
                                                           : resolve_filter(line.substr(sp + 1), recorded_save, file);
      continue;
    }
    Row r;
    r.line = n;
    r.text = line;
    r.flags = flags;
    if (flags & kTrFtranslated) r.filter = filter;
    if (line[0] == '-') {
      r.comment = true;
    } else if (line[0] == '+') {  // +{alias} signal
      const auto close = line.find('}');
      r.signal = strip_range(line.substr(line.find_first_not_of(' ', close + 1)));
    } else if (line[0] == '#' || line[0] == ':') {  // combined vector: #{name} [(bit)]var ...
      static const std::regex bit(R"(^\([0-9]+\))");
      for (const auto& m : split(line.substr(line.find('}') + 1)))
        r.members.push_back(strip_range(std::regex_replace(m, bit, "")));
      if (r.members.size() == 1) r.signal = r.members[0];  // a 1-bit vector of one variable
    } else {
      r.signal = strip_range(line);
    }
    sf.rows.push_back(r);
  }
  return sf;
}

std::vector<std::string> filter_names(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error("translate filter file " + file + ": cannot read");
  std::vector<std::string> v;
  for (std::string line; std::getline(in, line);) {
    const auto w = split(line);
    if (w.size() >= 2 && w[0][0] != '#') v.push_back(line.substr(line.find(w[1])));
  }
  return v;
}

std::string join(const std::vector<std::string>& v, std::size_t max = 6) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < max; ++i) s += (i ? ", " : "") + v[i];
  if (v.size() > max) s += ", ... (" + std::to_string(v.size()) + ")";
  return s;
}

int check_rows(const FstNames& names, const std::string& fst, const std::vector<std::string>& gtkw) {
  int missing = 0;
  for (const auto& file : gtkw) {
    const SaveFile sf = read_gtkw(file);
    int rows = 0;
    for (const Row& r : sf.rows) {
      if (r.comment) continue;
      ++rows;
      std::vector<std::string> vars = r.members;
      if (vars.empty()) vars.push_back(r.signal);
      for (const auto& v : vars) {
        if (!names.vars.count(v)) {
          std::cerr << file << ":" << r.line << ": " << v << " is not in " << fst << "\n";
          ++missing;
        }
      }
    }
    std::cout << file << ": " << rows << " signal rows\n";
  }
  return missing;
}

/// What GTKWave showed (values.txt) against the names each row should show.
int check_shown(const FstNames& names, const std::string& gtkw, const std::string& shown_file, bool marker_pair) {
  const SaveFile sf = read_gtkw(gtkw);
  std::ifstream in(shown_file);
  if (!in) throw std::runtime_error(shown_file + ": cannot read");
  std::map<uint64_t, std::map<std::size_t, std::string>> shown;  // time -> trace index -> value
  std::size_t traces = 0;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream is(line);
    std::string t, i, flags, value;
    std::getline(is, t, '\t');
    std::getline(is, i, '\t');
    std::getline(is, flags, '\t');
    std::getline(is, value);
    const std::size_t idx = std::stoul(i);
    shown[std::stoull(t)][idx] = value;
    traces = std::max(traces, idx + 1);
  }
  int bad = 0;
  if (traces != sf.rows.size()) {
    std::cerr << gtkw << ": GTKWave built " << traces << " traces from " << sf.rows.size()
              << " rows (a row did not resolve)\n";
    return 1;
  }
  int decoded_rows = 0;
  for (std::size_t k = 0; k < sf.rows.size(); ++k) {
    const Row& r = sf.rows[k];
    if (r.comment) continue;
    std::vector<std::string> lits;
    std::string source;
    if (!r.filter.empty()) {
      lits = filter_names(r.filter);
      source = "translate filter " + r.filter;
      // A filter standing in for an enum table must name exactly the enum's members.
      if (auto it = names.enums.find(r.signal);
          it != names.enums.end() && std::set<std::string>(lits.begin(), lits.end()) !=
                                         std::set<std::string>(it->second.begin(), it->second.end())) {
        std::cerr << gtkw << ":" << r.line << ": filter " << r.filter << " (" << join(lits) << ") differs from "
                  << r.signal << "'s FST enum table (" << join(it->second) << ")\n";
        ++bad;
      }
    } else if (auto it = names.enums.find(r.signal); it != names.enums.end()) {
      lits = it->second;
      source = "FST enum table";
    }
    if (lits.empty()) continue;
    ++decoded_rows;
    const std::set<std::string> ok(lits.begin(), lits.end());
    // A cut table (see read_fst): a value beyond the names read must at least not be a raw
    // number in any radix GTKWave prints (binary, octal, decimal, hex, with x/z digits).
    static const std::regex raw(R"(^-?[0-9a-fA-FxXzZ]+$)");
    const bool cut = ok.count(kCutTable) != 0;
    for (const auto& [t, vals] : shown) {
      auto v = vals.find(k);
      if (v == vals.end()) continue;
      if (!ok.count(v->second) && !(cut && !std::regex_match(v->second, raw))) {
        std::cerr << gtkw << ":" << r.line << ": row '" << r.text << "' shows '" << v->second << "' at time " << t
                  << " where its " << source << " has names (" << join(lits) << ")\n";
        ++bad;
        break;
      }
    }
  }
  if (marker_pair) {
    std::vector<std::size_t> sig;
    for (std::size_t k = 0; k < sf.rows.size() && sig.size() < 2; ++k)
      if (!sf.rows[k].comment && sf.rows[k].text.rfind("+{REF ", 0) == 0) sig.push_back(k), sig.push_back(k + 1);
    const auto at = shown.find(sf.marker);
    if (!sf.has_marker || at == shown.end() || sig.size() != 2) {
      std::cerr << gtkw << ": no marker samples or no REF/DUT row pair\n";
      ++bad;
    } else {
      const std::string ref = at->second.at(sig[0]), dut = at->second.at(sig[1]);
      std::cout << gtkw << ": at the marker (" << sf.marker << "): '" << sf.rows[sig[0]].text << "' = " << ref << ", '"
                << sf.rows[sig[1]].text << "' = " << dut << "\n";
      if (ref == dut) {
        std::cerr << gtkw << ": REF and DUT rows show the same value at the marker\n";
        ++bad;
      }
    }
  }
  std::cout << gtkw << ": " << sf.rows.size() << " traces, " << decoded_rows << " rows with names, " << shown.size()
            << " marker times checked; " << bad << " problem(s)\n";
  return bad;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Check GTKWave save files (.gtkw) against an FST waveform and what GTKWave shows"};
  std::string fst, shown;
  std::vector<std::string> gtkw, enums;
  bool marker_pair = false;
  app.add_option("--fst", fst, "FST written by gsim")->required()->check(CLI::ExistingFile);
  app.add_option("--enum", enums, "signal that must carry enum names (full dotted name); repeatable")
      ->allow_extra_args(false);
  app.add_option("--shown", shown, "values GTKWave displayed for the one .gtkw (gtkwave_views.tcl output)")
      ->check(CLI::ExistingFile);
  app.add_flag("--marker-pair", marker_pair, "with --shown: the first REF/DUT rows must differ at the marker");
  bool time_range = false;
  app.add_flag("--time-range", time_range, "print the FST's first and last time and its timescale exponent, then exit");
  app.add_option("gtkw", gtkw, ".gtkw save files")->check(CLI::ExistingFile);
  CLI11_PARSE(app, argc, argv);
  if (time_range) {
    void* ctx = fstReaderOpen(fst.c_str());
    if (!ctx) {
      std::cerr << "gs_wave_views: " << fst << ": not a readable FST file\n";
      return 2;
    }
    std::cout << "time_range " << fstReaderGetStartTime(ctx) << " " << fstReaderGetEndTime(ctx) << " timescale "
              << int(fstReaderGetTimescale(ctx)) << "\n";
    fstReaderClose(ctx);
    return 0;
  }
  if (gtkw.empty()) {
    std::cerr << "gs_wave_views: give .gtkw save files to check (or --time-range)\n";
    return 2;
  }
  try {
    const FstNames names = read_fst(fst);
    int problems = 0;
    if (!shown.empty()) {
      if (gtkw.size() != 1) throw std::runtime_error("--shown checks exactly one .gtkw");
      problems = check_shown(names, gtkw[0], shown, marker_pair);
    } else {
      problems = check_rows(names, fst, gtkw);
      for (const auto& e : enums) {
        if (!names.enums.count(e)) {
          std::cerr << e << ": no enum table in " << fst << (names.vars.count(e) ? "" : " (no such signal)") << "\n";
          ++problems;
        }
      }
      std::cout << names.vars.size() << " variables in " << fst << ", " << names.enums.size() << " with enum names; "
                << problems << " problem(s)\n";
    }
    return problems ? 1 : 0;
  } catch (const std::exception& e) {
    std::cerr << "gs_wave_views: " << e.what() << "\n";
    return 2;
  }
}
