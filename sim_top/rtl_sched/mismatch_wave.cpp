// gsched rtl_sched: the lockstep mismatch waveform (see mismatch_wave.hpp).
//
// The FST is written with the fstapi that Verilator's FST writer compiles in
// (verilated_fst_c.cpp includes gtkwave/fstapi.c): the DUT replay's FST is read back
// (hierarchy, enum tables, value changes in time order) and copied into the new file, with
// the `ref`, `dut` and `lockstep` scopes added and their value changes merged in by time.
// GTKWave opens one dump file at a time, so REF and DUT can only sit on adjacent rows if they
// are in the same file.
#include "rtl_sched/mismatch_wave.hpp"

#include <cctype>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "gs_rtl_params.hpp"
#include "gs_rtl_ports.hpp"
#include "gs_top_port.hpp"
#include "gtkwave/fstapi.h"

namespace gs::rtl {

std::vector<DecisionWindow::Entry> DecisionWindow::entries() const {
  std::vector<Entry> out;
  out.reserve(count_);
  const std::size_t first = (next_ + ring_.size() - count_) % ring_.size();
  for (std::size_t i = 0; i < count_; ++i) out.push_back(ring_[(first + i) % ring_.size()]);
  return out;
}

namespace {

constexpr int kTimescale = -10;  // 100 ps: cycle c at 10*c = c ns (gs_top_driver.hpp)
constexpr uint64_t kUnitsPerCycle = 10;
constexpr uint64_t kGtkwPerCycle = 1000;  // GTKWave keeps 100 ps files in ps: .gtkw times

// GTKWave trace flags (.gtkw "@<hex>" lines; gtkwave analyzer.h TraceEntFlagBits).
constexpr uint64_t kTrDec = 1u << 2, kTrBin = 1u << 3, kTrRjustify = 1u << 5, kTrBlank = 1u << 9,
                   kTrFtranslated = 1u << 13;
constexpr uint64_t kTrEnum = uint64_t(1) << 32;  // show the FST enum table's names
constexpr uint64_t kFlagsBit = kTrBin | kTrRjustify;
constexpr uint64_t kFlagsDec = kTrDec | kTrRjustify;
constexpr uint64_t kFlagsEnum = kTrEnum | kTrBin | kTrRjustify;  // what GTKWave sets for an FST enum
constexpr uint64_t kFlagsComment = kTrBlank;
constexpr uint64_t kFlagsText = kTrRjustify;                                // a string variable: GTKWave shows its text
constexpr uint64_t kFlagsFiltered = kTrFtranslated | kTrBin | kTrRjustify;  // through a translate filter file

std::string bits(uint64_t v, unsigned width) {
  std::string s(width, '0');
  for (unsigned b = 0; b < width; ++b)
    if ((v >> b) & 1u) s[width - 1 - b] = '1';
  return s;
}

/// One field of a decision record, as a gs_top output port: the generated port table
/// (gs_top_port.hpp, from rtl/spec/gs_spec.toml) plus launch_ready_o, which is no record.
struct Field {
  const char* port;
  unsigned width;
  enum Kind { kBit, kNum, kKernel, kMode, kLevel } kind;
  uint64_t (*get)(const SchedOutputs&);
};

const std::vector<Field>& fields() {
  static const std::vector<Field> f = [] {
    std::vector<Field> v;
    for (const port::OutputField& g : port::kOutputFields) {
      Field::Kind kind = Field::kNum;
      if (g.kind == port::OutputField::kBit) kind = Field::kBit;
      if (g.kind == port::OutputField::kKernel) kind = Field::kKernel;
      // the enums this file writes tables for; another enum shows as its number
      if (g.kind == port::OutputField::kEnum && std::string(g.enum_name) == "preempt_mode_e") kind = Field::kMode;
      if (g.kind == port::OutputField::kEnum && std::string(g.enum_name) == "bypass_level_e") kind = Field::kLevel;
      v.push_back({g.port, g.width, kind, g.bits});
    }
    v.push_back({"launch_ready_o", port_width::launch_ready_o, Field::kBit,
                 [](const SchedOutputs& o) -> uint64_t { return o.launch_ready; }});
    return v;
  }();
  return f;
}

/// The attribute string fstWriterCreateEnumTable would write: "name count lit... val...".
/// Written with explicit handles so they cannot collide with the copied DUT's tables.
std::string enum_table_attr(const std::string& name, const std::vector<std::pair<std::string, uint32_t>>& members,
                            unsigned width) {
  std::string s = name + " " + std::to_string(members.size());
  for (const auto& m : members) s += " " + m.first;
  for (const auto& m : members) s += " " + bits(m.second, width);
  return s;
}

template <std::size_t N>
std::vector<std::pair<std::string, uint32_t>> members_of(const EnumMember (&arr)[N]) {
  std::vector<std::pair<std::string, uint32_t>> v;
  for (const auto& m : arr) v.emplace_back(m.member, m.value);
  return v;
}

std::vector<std::pair<std::string, uint32_t>> kernel_members() {
  std::vector<std::pair<std::string, uint32_t>> v;
  const uint32_t none = (1u << KernelIdW) - 1;
  for (uint32_t k = 0; k < none; ++k) v.emplace_back("K" + std::to_string(k), k);
  v.emplace_back("none", none);
  return v;
}

/// A DUT variable that holds a kernel id (all ones = none) by its name and width.
bool is_kernel_var(const std::string& name, uint32_t length) {
  static const std::regex re(R"((^|[._])(kernel|victim|next)(_[io])?( ?\[[0-9:]+\])?$)");  // "x_o [7:0]"
  return length == KernelIdW && std::regex_search(name, re);
}

struct Change {
  uint64_t time;
  fstHandle handle;  // writer handle
  std::string value;
  bool text = false;  // a string variable (FST_VT_GEN_STRING): the value as written
};

struct Copier {
  void* w = nullptr;
  std::vector<fstHandle> map;  // reader handle -> writer handle
  const std::vector<Change>* mine = nullptr;
  std::size_t next = 0;
  uint64_t last_time = UINT64_MAX;

  void time(uint64_t t) {
    if (t != last_time) {
      fstWriterEmitTimeChange(w, t);
      last_time = t;
    }
  }
  void mine_upto(uint64_t t) {
    for (; next < mine->size() && (*mine)[next].time <= t; ++next) {
      const Change& ch = (*mine)[next];
      time(ch.time);
      if (ch.text)
        fstWriterEmitVariableLengthValueChange(w, ch.handle, ch.value.data(), static_cast<uint32_t>(ch.value.size()));
      else fstWriterEmitValueChange(w, ch.handle, ch.value.c_str());
    }
  }
};

void on_value(void* user, uint64_t t, fstHandle h, const unsigned char* value) {
  auto* c = static_cast<Copier*>(user);
  c->mine_upto(t);
  if (h < c->map.size() && c->map[h]) {
    c->time(t);
    fstWriterEmitValueChange(c->w, c->map[h], value);
  }
}

/// Whether the mismatch is of a table entry or register (the state check), not of a gs_top port.
bool is_state_mismatch(const MismatchWaveSpec& spec) {
  for (const Field& f : fields())
    if (spec.signal == f.port) return false;
  return true;
}

/// The state signal's name as one FST variable under ref.state / dut.state ("SMST[3].owner" ->
/// "SMST_3__owner"): GTKWave reads '.' and '[' in a name as hierarchy and bit range.
std::string state_var(const std::string& signal) {
  std::string v;
  for (char ch : signal) v += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' ? ch : '_';
  return v;
}

std::string abs_path(const std::string& p) {
  char buf[PATH_MAX];
  if (::realpath(p.c_str(), buf)) return buf;
  return p;
}

/// Writes the merged FST; returns whether DUT internals were copied in.
bool write_fst(const MismatchWaveSpec& spec, const std::vector<DecisionWindow::Entry>& records, const std::string& path,
               std::string& note) {
  void* r = spec.dut_fst.empty() ? nullptr : fstReaderOpen(spec.dut_fst.c_str());
  if (!spec.dut_fst.empty() && !r) note += "  (the DUT replay's FST " + spec.dut_fst + " could not be read back)\n";
  void* w = fstWriterCreate(path.c_str(), 1);
  if (!w) {
    if (r) fstReaderClose(r);
    throw std::runtime_error("cannot create " + path);
  }
  fstWriterSetPackType(w, FST_WR_PT_LZ4);
  fstWriterSetTimescale(w, kTimescale);
  fstWriterSetVersion(w, "gsched lockstep mismatch window");

  Copier c;
  c.w = w;
  std::vector<std::string> scope;
  if (r) c.map.assign(fstReaderGetMaxHandle(r) + 1, 0);
  // GTKWave wants enum tables numbered 1, 2, ... in the order they are defined: ours are 1..3,
  // the copied DUT tables (and their references) move up by kOurTables.
  constexpr uint64_t kOurTables = 3;
  const fstEnumHandle kernel_table = 1, mode_table = 2, level_table = 3;
  fstWriterSetAttrBegin(w, FST_AT_MISC, FST_MT_ENUMTABLE,
                        enum_table_attr("gs_kernel_id", kernel_members(), KernelIdW).c_str(), kernel_table);
  fstWriterSetAttrBegin(
      w, FST_AT_MISC, FST_MT_ENUMTABLE,
      enum_table_attr("preempt_mode_e", members_of(kPreemptModeMembers), port_width::preempt_mode_o).c_str(),
      mode_table);
  fstWriterSetAttrBegin(
      w, FST_AT_MISC, FST_MT_ENUMTABLE,
      enum_table_attr("bypass_level_e", members_of(kBypassLevelMembers), port_width::bypass_level_o).c_str(),
      level_table);

  if (r) {
    bool enum_ref_pending = false;
    while (fstHier* h = fstReaderIterateHier(r)) {
      switch (h->htyp) {
        case FST_HT_SCOPE:
          fstWriterSetScope(w, fstScopeType(h->u.scope.typ), h->u.scope.name, h->u.scope.component);
          scope.emplace_back(h->u.scope.name);
          break;
        case FST_HT_UPSCOPE:
          fstWriterSetUpscope(w);
          if (!scope.empty()) scope.pop_back();
          break;
        case FST_HT_ATTRBEGIN:
          if (h->u.attr.typ == FST_AT_MISC &&
              (h->u.attr.subtype == FST_MT_SOURCESTEM || h->u.attr.subtype == FST_MT_SOURCEISTEM))
            break;  // name is an overloaded integer; Verilator writes none
          if (h->u.attr.typ == FST_AT_MISC && h->u.attr.subtype == FST_MT_ENUMTABLE) {
            if (h->u.attr.name_length == 0) enum_ref_pending = true;
            fstWriterSetAttrBegin(w, FST_AT_MISC, FST_MT_ENUMTABLE, h->u.attr.name, h->u.attr.arg + kOurTables);
            break;
          }
          fstWriterSetAttrBegin(w, fstAttrType(h->u.attr.typ), h->u.attr.subtype, h->u.attr.name, h->u.attr.arg);
          break;
        case FST_HT_ATTREND: fstWriterSetAttrEnd(w); break;
        case FST_HT_VAR: {
          std::string full;
          for (const auto& s : scope) full += s + ".";
          full += h->u.var.name;
          if (!enum_ref_pending && is_kernel_var(full, h->u.var.length)) fstWriterEmitEnumTableRef(w, kernel_table);
          enum_ref_pending = false;
          const fstHandle alias = h->u.var.is_alias && h->u.var.handle < c.map.size() ? c.map[h->u.var.handle] : 0;
          const fstHandle nh = fstWriterCreateVar(w, fstVarType(h->u.var.typ), fstVarDir(h->u.var.direction),
                                                  h->u.var.length, h->u.var.name, alias);
          if (!h->u.var.is_alias && h->u.var.handle < c.map.size()) c.map[h->u.var.handle] = nh;
          break;
        }
        default: break;
      }
    }
  }

  // ref / dut decision records (same fields, same port names) and the lockstep scope. A state
  // mismatch (a table entry or register differed) also gets ref.state.<name> and dut.state.<name>:
  // text variables holding the two values the state check compared, from the mismatch cycle on
  // (the check compares them there; earlier values are not recorded).
  std::vector<Change> mine;
  std::map<std::string, fstHandle> ref_h, dut_h;
  const bool state = is_state_mismatch(spec);
  fstHandle state_h[2] = {0, 0};
  for (const char* side : {"ref", "dut"}) {
    fstWriterSetScope(w, FST_ST_VCD_MODULE, side, nullptr);
    auto& hm = std::string(side) == "ref" ? ref_h : dut_h;
    for (const Field& f : fields()) {
      if (f.kind == Field::kKernel) fstWriterEmitEnumTableRef(w, kernel_table);
      if (f.kind == Field::kMode) fstWriterEmitEnumTableRef(w, mode_table);
      if (f.kind == Field::kLevel) fstWriterEmitEnumTableRef(w, level_table);
      hm[f.port] = fstWriterCreateVar(w, FST_VT_SV_LOGIC, FST_VD_OUTPUT, f.width, f.port, 0);
    }
    if (state) {
      fstWriterSetScope(w, FST_ST_VCD_MODULE, "state", nullptr);
      state_h[side[0] == 'd'] = fstWriterCreateVar(w, FST_VT_GEN_STRING, FST_VD_IMPLICIT, 0,
                                                   state_var(spec.signal).c_str(), 0);
      fstWriterSetUpscope(w);
    }
    fstWriterSetUpscope(w);
  }
  if (state) {
    const uint64_t t = spec.mismatch * kUnitsPerCycle;
    mine.push_back({t, state_h[0], spec.ref_value, true});
    mine.push_back({t, state_h[1], spec.dut_value, true});
  }
  fstWriterSetScope(w, FST_ST_VCD_MODULE, "lockstep", nullptr);
  const fstHandle cycle_h = fstWriterCreateVar(w, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 32, "cycle", 0);
  const fstHandle mismatch_h = fstWriterCreateVar(w, FST_VT_SV_LOGIC, FST_VD_IMPLICIT, 1, "mismatch", 0);
  fstWriterSetUpscope(w);

  for (const auto& e : records) {
    const uint64_t t = e.step * kUnitsPerCycle;
    for (const Field& f : fields()) {
      // Decisions are registered: the record returned in cycle s is on the port from the start
      // of s. launch_ready is sampled after the edge of s (port contract), so it changes at s.5.
      const uint64_t at = std::string(f.port) == "launch_ready_o" ? t + kUnitsPerCycle / 2 : t;
      mine.push_back({at, ref_h[f.port], bits(f.get(e.ref), f.width)});
      mine.push_back({at, dut_h[f.port], bits(f.get(e.dut), f.width)});
    }
    mine.push_back({t, cycle_h, bits(e.step, 32)});
    mine.push_back({t, mismatch_h, e.step == spec.mismatch ? "1" : "0"});
  }
  const uint64_t end = (spec.mismatch + 1) * kUnitsPerCycle;
  mine.push_back({end, mismatch_h, "0"});
  mine.push_back({end, cycle_h, bits(spec.mismatch + 1, 32)});
  std::stable_sort(mine.begin(), mine.end(), [](const Change& a, const Change& b) { return a.time < b.time; });
  c.mine = &mine;

  if (r) {
    fstReaderSetFacProcessMaskAll(r);
    fstReaderIterBlocks(r, &on_value, &c, nullptr);
    fstReaderClose(r);
  }
  c.mine_upto(UINT64_MAX);
  fstWriterClose(w);
  return r != nullptr;
}

void row(std::ostream& os, uint64_t& cur, uint64_t flags, const std::string& line) {
  if (flags != cur) {
    os << "@" << std::hex << flags << std::dec << "\n";
    cur = flags;
  }
  os << line << "\n";
}

uint64_t field_flags(const Field& f) {
  switch (f.kind) {
    case Field::kBit: return kFlagsBit;
    case Field::kNum: return kFlagsDec;
    default: return kFlagsEnum;
  }
}

void write_gtkw(const MismatchWaveSpec& spec, const std::string& fst, const std::string& path, bool dut_internals,
                const std::string& mode_filter) {
  std::ofstream os(path);
  if (!os) throw std::runtime_error("cannot write " + path);
  const uint64_t marker = spec.mismatch * kGtkwPerCycle;
  const uint64_t start = spec.first * kGtkwPerCycle;
  os << "[*]\n[*] gsched lockstep mismatch at cycle " << spec.mismatch << ": signal " << spec.signal
     << "  REF=" << spec.ref_value << "  DUT=" << spec.dut_value << "\n"
     << "[*] Written by gsim with " << fst << " (sim_top/rtl_sched/mismatch_wave.cpp; docs/waveforms.md).\n"
     << "[*] Time axis: 1 ns = 1 core cycle. Marker: the mismatch cycle. Rows: REF (golden) above DUT (RTL).\n[*]\n"
     << "[dumpfile] \"" << abs_path(fst) << "\"\n"
     << "[savefile] \"" << abs_path(path) << "\"\n"
     << "[timestart] " << start << "\n[size] 1600 900\n[pos] -1 -1\n"
     << "*-14.800000 " << marker;  // the whole window (66 cycles) across the wave pane
  for (int i = 0; i < 26; ++i) os << " -1";
  os << "\n[sst_width] 180\n[signals_width] 680\n[sst_expanded] 1\n[sst_vpaned_height] 200\n";
  uint64_t cur = 0;
  const Field* diff = nullptr;
  for (const Field& f : fields())
    if (spec.signal == f.port) diff = &f;
  std::ostringstream title;
  title << "-mismatch at cycle " << spec.mismatch << ": " << spec.signal;
  row(os, cur, kFlagsComment, title.str());
  row(os, cur, kFlagsDec, "+{cycle} lockstep.cycle[31:0]");
  row(os, cur, kFlagsBit, "+{mismatch} lockstep.mismatch");
  auto pair = [&](const Field& f) {
    const std::string range = f.width > 1 ? "[" + std::to_string(f.width - 1) + ":0]" : "";
    for (const char* side : {"REF", "DUT"}) {
      const std::string var = (side[0] == 'R' ? "ref." : "dut.") + std::string(f.port) + range;
      if (f.kind == Field::kMode) {  // 1-bit enum: GTKWave decodes enum tables of vectors only
        row(os, cur, kFlagsFiltered, "^3 " + abs_path(mode_filter));
        os << "#{" << side << " " << f.port << "} " << var << "\n";
      } else {
        row(os, cur, field_flags(f), std::string("+{") + side + " " + f.port + "} " + var);
      }
    }
  };
  if (diff) pair(*diff);
  if (is_state_mismatch(spec))  // the table entry or register the state check found different
    for (const char* side : {"ref", "dut"})
      row(os, cur, kFlagsText,
          std::string("+{") + (side[0] == 'r' ? "REF " : "DUT ") + spec.signal + "} " + side + ".state." +
              state_var(spec.signal));
  row(os, cur, kFlagsComment, "-decision records: REF (golden) / DUT (RTL)");
  for (const Field& f : fields())
    if (&f != diff) pair(f);
  if (dut_internals) {
    row(os, cur, kFlagsComment, "-DUT inputs (replayed on the traced model)");
    row(os, cur, kFlagsBit, "TOP.gs_top.clk_i");
    row(os, cur, kFlagsBit, "TOP.gs_top.launch_valid_i");
    row(os, cur, kFlagsEnum, "TOP.gs_top.launch_kernel_i[" + std::to_string(KernelIdW - 1) + ":0]");
    row(os, cur, kFlagsBit, "TOP.gs_top.event_valid_i");
    row(os, cur, kFlagsEnum, "TOP.gs_top.event_type_i[1:0]");
    row(os, cur, kFlagsDec, "TOP.gs_top.event_sm_i[" + std::to_string(port_width::event_sm_i - 1) + ":0]");
    row(os, cur, kFlagsEnum, "TOP.gs_top.event_kernel_i[" + std::to_string(KernelIdW - 1) + ":0]");
    row(os, cur, kFlagsDec, "TOP.gs_top.event_cta_i[" + std::to_string(port_width::event_cta_i - 1) + ":0]");
    row(os, cur, kFlagsComment, "-DUT SM states (SMST); more: File > Read Save File > verif/waves/*.gtkw");
    for (uint32_t s = 0; s < spec.num_sms && s < MaxSms; ++s)
      row(os, cur, kFlagsEnum, "TOP.gs_top.u_smst.g_view[" + std::to_string(s) + "].entry.state[1:0]");
  }
}

}  // namespace

std::string write_mismatch_wave(const MismatchWaveSpec& spec, const std::vector<DecisionWindow::Entry>& records) {
  const std::string fst = spec.base + ".fst", gtkw = spec.base + ".gtkw";
  std::ostringstream os;
  try {
    std::string note;
    const bool merged = write_fst(spec, records, fst, note);
    if (!spec.dut_fst.empty()) std::remove(spec.dut_fst.c_str());
    const std::string mode_filter = spec.base + "_preempt_mode.txt";
    {
      std::ofstream mf(mode_filter);
      mf << "# GTKWave translate filter for " << gtkw << ": preempt_mode_e (1 bit)\n";
      for (const auto& m : kPreemptModeMembers) mf << m.value << " " << m.member << "\n";
      if (!mf) throw std::runtime_error("cannot write " + mode_filter);
    }
    write_gtkw(spec, fst, gtkw, merged, mode_filter);
    const uint64_t from = records.empty() ? spec.mismatch : records.front().step;
    os << "waveform (cycles " << from << ".." << spec.mismatch << "; 1 ns = 1 cycle, marker at cycle " << spec.mismatch
       << "): " << fst << " -- REF and DUT decision records side by side (scopes ref, dut)"
       << (merged ? ", DUT internals replayed on the traced model (TOP.gs_top)"
                  : ", no DUT internals (this DUT build has no traced model)")
       << "\n"
       << note << "open it with:  gtkwave " << fst << " " << gtkw << "\n";
  } catch (const std::exception& e) {
    os << "waveform: could not write " << fst << ": " << e.what() << "\n";
  }
  return os.str();
}

}  // namespace gs::rtl
