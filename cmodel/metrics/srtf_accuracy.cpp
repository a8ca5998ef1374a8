// gsched: accuracy of the Simple Slicing predictor on CTA traces (see srtf_accuracy.hpp).
#include "metrics/srtf_accuracy.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <map>
#include <tuple>

#include "common/error.hpp"
#include "gpu/gpu.hpp"
#include "metrics/report.hpp"
#include "metrics/srtf_reference.hpp"
#include "workload/kernel_desc.hpp"

namespace gs {

namespace {

// Order of the events of one cycle (srtf_accuracy.hpp): a CTA that ended frees its block slot
// before one that starts takes it; a launch comes before its first block starts; a kernel ends
// after its last block.
enum EvOrder : int { kOrdEnd = 0, kOrdLaunch = 1, kOrdStart = 2, kOrdEndSameCycle = 3, kOrdKernelEnd = 4 };

struct Ev {
  uint64_t cycle = 0;
  int order = 0;
  uint32_t kernel = 0;
  uint32_t cta = 0;  // CTA index in the trace (block events)
  SrtfEvent kind = SrtfEvent::kLaunch;
  bool operator<(const Ev& o) const {
    return std::tie(cycle, order, kernel, cta) < std::tie(o.cycle, o.order, o.kernel, o.cta);
  }
};

std::string kernel_label(const AccuracyTrace& tr, uint32_t k) {
  return "kernel " + tr.kernels.at(k).name + " of trace " + tr.name;
}

/// The cycles the kernel had a CTA resident on the SM: the length of the union of the intervals.
uint64_t union_length(std::vector<std::pair<uint64_t, uint64_t>> iv) {
  std::sort(iv.begin(), iv.end());
  uint64_t total = 0, cur_lo = 0, cur_hi = 0;
  bool open = false;
  for (const auto& [lo, hi] : iv) {
    if (!open || lo > cur_hi) {
      if (open) total += cur_hi - cur_lo;
      cur_lo = lo;
      cur_hi = hi;
      open = true;
    } else {
      cur_hi = std::max(cur_hi, hi);
    }
  }
  if (open) total += cur_hi - cur_lo;
  return total;
}

double quantile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double pos = p * static_cast<double>(sorted.size() - 1);
  const size_t lo = static_cast<size_t>(pos);
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

/// Splits one CSV line at commas (these files never quote) and drops a trailing '\r'.
std::vector<std::string> split_line(std::string line) {
  if (!line.empty() && line.back() == '\r') line.pop_back();
  std::vector<std::string> out;
  size_t pos = 0;
  while (true) {
    const size_t c = line.find(',', pos);
    out.push_back(line.substr(pos, c == std::string::npos ? std::string::npos : c - pos));
    if (c == std::string::npos) break;
    pos = c + 1;
  }
  return out;
}

/// A whole number of the full 64-bit range (cycle and ns stamps of long traces exceed 2^32).
uint64_t parse_whole(const std::string& s, const std::string& where, const std::string& field) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    throw InputError(where + ": field '" + field + "' is '" + s + "', not a whole number");
  uint64_t v = 0;
  for (const char c : s) {
    const uint64_t d = uint64_t(c - '0');
    if (v > (UINT64_MAX - d) / 10)
      throw InputError(where + ": field '" + field + "' is " + s + ", beyond 2^64-1 = 18446744073709551615");
    v = v * 10 + d;
  }
  return v;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    lines.push_back(text.substr(pos, nl - pos));
    pos = nl + 1;
  }
  while (!lines.empty() && (lines.back().empty() || lines.back() == "\r")) lines.pop_back();
  return lines;
}

void check_header(const std::vector<std::string>& lines, const std::string& path, const std::string& want) {
  if (lines.empty()) throw InputError(path + ": empty file (expected the header '" + want + "')");
  std::string got = lines.front();
  if (!got.empty() && got.back() == '\r') got.pop_back();
  if (got != want) throw InputError(path + " line 1: header is '" + got + "', expected '" + want + "'");
}

}  // namespace

const char* accuracy_mode_name(AccuracyMode m) { return m == AccuracyMode::kSliceAware ? "SS" : "unaware"; }

std::vector<AccuracyPoint> srtf_accuracy(const AccuracyTrace& tr, const AccuracyOptions& opt) {
  constexpr uint32_t K = spec::MaxKernels, B = spec::MaxCtasPerSm;
  const uint32_t nk = static_cast<uint32_t>(tr.kernels.size());
  if (tr.num_sms == 0) throw InputError("trace " + tr.name + ": the GPU has 0 SMs");
  // ---- validate; each kernel's end = its last CTA end
  std::vector<uint64_t> kend(nk, 0);
  std::vector<uint32_t> kctas(nk, 0);
  for (const AccuracyCta& c : tr.ctas) {
    if (c.kernel >= nk)
      throw InputError("trace " + tr.name + ": CTA " + std::to_string(c.cta) + " names kernel index " +
                       std::to_string(c.kernel) + " (the trace has " + std::to_string(nk) + " kernels)");
    const std::string who = "CTA " + std::to_string(c.cta) + " of " + kernel_label(tr, c.kernel);
    if (c.sm >= tr.num_sms)
      throw InputError(who + ": SM " + std::to_string(c.sm) + ", but the GPU has " + std::to_string(tr.num_sms) +
                       " SMs");
    if (c.end_cycle < c.start_cycle)
      throw InputError(who + ": ends at cycle " + std::to_string(c.end_cycle) + ", before it starts (" +
                       std::to_string(c.start_cycle) + ")");
    if (c.start_cycle < tr.kernels[c.kernel].arrival_cycle)
      throw InputError(who + ": starts at cycle " + std::to_string(c.start_cycle) + ", before the kernel arrives (" +
                       std::to_string(tr.kernels[c.kernel].arrival_cycle) + ")");
    kend[c.kernel] = std::max(kend[c.kernel], c.end_cycle);
    ++kctas[c.kernel];
  }
  for (uint32_t k = 0; k < nk; ++k) {
    if (tr.kernels[k].grid_ctas == 0) throw InputError(kernel_label(tr, k) + ": grid of 0 CTAs");
    if (kctas[k] == 0) throw InputError(kernel_label(tr, k) + ": no CTA of it in the trace");
  }

  // ---- KSRT slots: the lowest free one at the launch, freed at the kernel end (global order)
  std::vector<Ev> global;
  for (uint32_t k = 0; k < nk; ++k) {
    global.push_back({tr.kernels[k].arrival_cycle, kOrdLaunch, k, 0, SrtfEvent::kLaunch});
    global.push_back({kend[k], kOrdKernelEnd, k, 0, SrtfEvent::kKernelEnd});
  }
  std::sort(global.begin(), global.end());
  std::vector<uint32_t> kslot(nk, 0);
  {
    std::array<bool, K> used{};
    for (const Ev& e : global) {
      if (e.kind == SrtfEvent::kKernelEnd) {
        used[kslot[e.kernel]] = false;
        continue;
      }
      uint32_t s = 0;
      while (s < K && used[s]) ++s;
      if (s == K)
        throw InputError(kernel_label(tr, e.kernel) + ": more than " + std::to_string(K) +
                         " kernels run at once at cycle " + std::to_string(e.cycle) +
                         " (the predictor's KSRT slots, spec::MaxKernels)");
      used[s] = true;
      kslot[e.kernel] = s;
    }
  }

  // ---- per SM: events, replay, points
  std::vector<std::vector<uint32_t>> on_sm(tr.num_sms);
  for (uint32_t i = 0; i < tr.ctas.size(); ++i) on_sm[tr.ctas[i].sm].push_back(i);

  std::vector<AccuracyPoint> points;
  for (uint32_t sm = 0; sm < tr.num_sms; ++sm) {
    std::vector<Ev> evs;
    for (const Ev& g : global) evs.push_back(g);
    for (uint32_t i : on_sm[sm]) {
      const AccuracyCta& c = tr.ctas[i];
      evs.push_back({c.start_cycle, kOrdStart, c.kernel, i, SrtfEvent::kBlockStart});
      evs.push_back({c.end_cycle, c.end_cycle == c.start_cycle ? kOrdEndSameCycle : kOrdEnd, c.kernel, i,
                     SrtfEvent::kBlockEnd});
    }
    std::sort(evs.begin(), evs.end());

    // block slots l, the slice each prediction falls in, the timed events of the predictor
    std::array<bool, B> busy{};
    std::vector<uint32_t> blk_of(tr.ctas.size(), 0);  // only this SM's entries are used
    std::vector<bool> running(nk, false);
    std::vector<uint32_t> slice_start(nk, 0);  // event index of the kernel's latest boundary
    std::vector<uint32_t> slice_of_event(evs.size(), 0);
    std::vector<SrtfTimedEv> timed;
    timed.reserve(evs.size());
    for (uint32_t i = 0; i < evs.size(); ++i) {
      const Ev& e = evs[i];
      SrtfTimedEv t;
      t.cycle = e.cycle;
      t.kind = e.kind;
      t.slot = kslot[e.kernel];
      switch (e.kind) {
        case SrtfEvent::kLaunch:
          t.total = static_cast<uint32_t>((uint64_t(tr.kernels[e.kernel].grid_ctas) + tr.num_sms - 1) / tr.num_sms);
          running[e.kernel] = true;
          for (uint32_t k = 0; k < nk; ++k)
            if (running[k]) slice_start[k] = i;
          break;
        case SrtfEvent::kKernelEnd:
          running[e.kernel] = false;
          for (uint32_t k = 0; k < nk; ++k)
            if (running[k]) slice_start[k] = i;
          break;
        case SrtfEvent::kBlockStart: {
          uint32_t l = 0;
          while (l < B && busy[l]) ++l;
          if (l == B)
            throw InputError("trace " + tr.name + ", SM " + std::to_string(sm) + ": more than " + std::to_string(B) +
                             " CTAs resident at cycle " + std::to_string(e.cycle) +
                             " (the predictor's block slots, spec::MaxCtasPerSm)");
          busy[l] = true;
          blk_of[e.cta] = l;
          t.blk = l;
          break;
        }
        case SrtfEvent::kBlockEnd:
          t.blk = blk_of[e.cta];
          busy[t.blk] = false;
          slice_of_event[i] = slice_start[e.kernel];
          break;
      }
      timed.push_back(t);
    }
    const std::vector<SrtfPrediction> preds = srtf_reference(timed);

    // actual runtime per kernel on this SM; the slice of each kernel's last block end here
    std::vector<uint64_t> actual(nk, 0);
    {
      std::vector<std::vector<std::pair<uint64_t, uint64_t>>> iv(nk);
      for (uint32_t i : on_sm[sm]) iv[tr.ctas[i].kernel].push_back({tr.ctas[i].start_cycle, tr.ctas[i].end_cycle});
      for (uint32_t k = 0; k < nk; ++k)
        actual[k] = opt.actual == ActualRuntime::kSmActive ? union_length(iv[k])
                                                           : kend[k] - tr.kernels[k].arrival_cycle;
    }
    std::vector<int64_t> last_slice(nk, -1);
    for (const SrtfPrediction& p : preds) last_slice[evs[p.event].kernel] = slice_of_event[p.event];

    std::vector<bool> first_seen(nk, false);
    for (const SrtfPrediction& p : preds) {
      const Ev& e = evs[p.event];
      if (actual[e.kernel] == 0) continue;
      AccuracyPoint pt;
      pt.group = tr.group;
      pt.trace = tr.name;
      pt.kernel = tr.kernels[e.kernel].name;
      pt.kernel_index = e.kernel;
      pt.sm = sm;
      pt.cycle = e.cycle;
      pt.predicted = p.pred;
      pt.actual = actual[e.kernel];
      pt.ratio = static_cast<double>(p.pred) / static_cast<double>(pt.actual);
      pt.t = p.t;
      pt.done = p.done;
      pt.total = p.total;
      pt.resident = p.resident;
      pt.last_slice = static_cast<int64_t>(slice_of_event[p.event]) == last_slice[e.kernel];
      if (!opt.last_slice_only || pt.last_slice) points.push_back(pt);
      if (!first_seen[e.kernel]) {
        first_seen[e.kernel] = true;
        pt.mode = AccuracyMode::kSliceUnaware;
        points.push_back(pt);
      }
    }
  }
  return points;
}

AccuracyTrace trace_from_run(const RunResult& run, const Mix& mix, uint32_t num_sms, const std::string& group,
                             const std::string& name) {
  AccuracyTrace tr;
  tr.group = group;
  tr.name = name;
  tr.num_sms = num_sms;
  for (const MixEntry& e : mix.kernels)
    tr.kernels.push_back({e.kernel, e.arrival_cycle, e.grid_ctas ? e.grid_ctas : e.desc.grid_ctas});
  for (const CtaRecord& c : run.ctas) tr.ctas.push_back({c.kernel, c.cta, c.sm, c.start_cycle, c.end_cycle});
  return tr;
}

AccuracyTrace parse_cta_csv(const std::string& text, const std::string& path, std::vector<AccuracyKernel> kernels,
                            uint32_t num_sms, const std::string& group) {
  const std::vector<std::string> lines = lines_of(text);
  check_header(lines, path, "kernel,cta,sm,start_cycle,end_cycle");
  AccuracyTrace tr;
  tr.group = group;
  tr.name = path;
  tr.num_sms = num_sms;
  tr.kernels = std::move(kernels);
  std::string names;
  for (const AccuracyKernel& k : tr.kernels) names += (names.empty() ? "" : ", ") + k.name;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string where = path + " line " + std::to_string(i + 1);
    const std::vector<std::string> f = split_line(lines[i]);
    if (f.size() != 5)
      throw InputError(where + ": " + std::to_string(f.size()) +
                       " fields, expected 5 (kernel,cta,sm,start_cycle,end_cycle)");
    AccuracyCta c;
    const auto it = std::find_if(tr.kernels.begin(), tr.kernels.end(),
                                 [&](const AccuracyKernel& k) { return k.name == f[0]; });
    if (it == tr.kernels.end())
      throw InputError(where + ": field 'kernel' is '" + f[0] + "', not a kernel of this trace (" + names + ")");
    c.kernel = static_cast<uint32_t>(it - tr.kernels.begin());
    const uint64_t cta = parse_whole(f[1], where, "cta"), sm = parse_whole(f[2], where, "sm");
    if (cta > UINT32_MAX) throw InputError(where + ": field 'cta' is " + f[1] + ", too large");
    if (sm >= num_sms)
      throw InputError(where + ": field 'sm' is " + f[2] + ", but the config has " + std::to_string(num_sms) + " SMs");
    c.cta = static_cast<uint32_t>(cta);
    c.sm = static_cast<uint32_t>(sm);
    c.start_cycle = parse_whole(f[3], where, "start_cycle");
    c.end_cycle = parse_whole(f[4], where, "end_cycle");
    if (c.end_cycle < c.start_cycle)
      throw InputError(where + ": field 'end_cycle' (" + f[4] + ") is before 'start_cycle' (" + f[3] + ")");
    tr.ctas.push_back(c);
  }
  if (tr.ctas.empty()) throw InputError(path + ": no CTA rows after the header");
  return tr;
}

std::vector<AccuracyTrace> parse_h100_alone_csv(const std::string& text, const std::string& path,
                                                const std::string& group) {
  const std::vector<std::string> lines = lines_of(text);
  check_header(lines, path, "run,pos,kernel,block,sm,start_ns,end_ns");
  std::map<uint64_t, AccuracyTrace> runs;  // by run number
  uint32_t max_sm = 0;
  for (size_t i = 1; i < lines.size(); ++i) {
    const std::string where = path + " line " + std::to_string(i + 1);
    const std::vector<std::string> f = split_line(lines[i]);
    if (f.size() != 7)
      throw InputError(where + ": " + std::to_string(f.size()) +
                       " fields, expected 7 (run,pos,kernel,block,sm,start_ns,end_ns)");
    const uint64_t run = parse_whole(f[0], where, "run");
    if (f[2].empty()) throw InputError(where + ": field 'kernel' is empty");
    AccuracyTrace& tr = runs[run];
    const std::string name = "h100." + f[2];
    auto it = std::find_if(tr.kernels.begin(), tr.kernels.end(),
                           [&](const AccuracyKernel& k) { return k.name == name; });
    if (it == tr.kernels.end()) {
      tr.kernels.push_back({name, UINT64_MAX, 0});
      it = tr.kernels.end() - 1;
    }
    AccuracyCta c;
    c.kernel = static_cast<uint32_t>(it - tr.kernels.begin());
    const uint64_t block = parse_whole(f[3], where, "block"), sm = parse_whole(f[4], where, "sm");
    if (block > UINT32_MAX || sm > 65535) throw InputError(where + ": field 'block' or 'sm' too large");
    c.cta = static_cast<uint32_t>(block);
    c.sm = static_cast<uint32_t>(sm);
    c.start_cycle = parse_whole(f[5], where, "start_ns");
    c.end_cycle = parse_whole(f[6], where, "end_ns");
    if (c.end_cycle < c.start_cycle)
      throw InputError(where + ": field 'end_ns' (" + f[6] + ") is before 'start_ns' (" + f[5] + ")");
    it->arrival_cycle = std::min(it->arrival_cycle, c.start_cycle);
    ++it->grid_ctas;
    max_sm = std::max(max_sm, c.sm);
    tr.ctas.push_back(c);
  }
  if (runs.empty()) throw InputError(path + ": no CTA rows after the header");
  std::vector<AccuracyTrace> out;
  for (auto& [run, tr] : runs) {
    tr.group = group;
    tr.name = path + " run " + std::to_string(run);
    tr.num_sms = max_sm + 1;
    out.push_back(std::move(tr));
  }
  return out;
}

std::vector<AccuracySummary> summarize_accuracy(const std::vector<AccuracyPoint>& points) {
  std::vector<std::tuple<std::string, std::string, AccuracyMode>> order;
  std::map<std::tuple<std::string, std::string, AccuracyMode>, std::vector<double>> by;
  std::vector<std::pair<std::string, std::string>> gk;  // (group, kernel) in order of first appearance
  for (const AccuracyPoint& p : points) {
    if (std::find(gk.begin(), gk.end(), std::make_pair(p.group, p.kernel)) == gk.end())
      gk.push_back({p.group, p.kernel});
    by[{p.group, p.kernel, p.mode}].push_back(p.ratio);
  }
  std::vector<AccuracySummary> out;
  for (const auto& [g, k] : gk)
    for (AccuracyMode m : {AccuracyMode::kSliceAware, AccuracyMode::kSliceUnaware}) {
      const auto it = by.find({g, k, m});
      if (it == by.end()) continue;
      std::vector<double> v = it->second;
      std::sort(v.begin(), v.end());
      AccuracySummary s;
      s.group = g;
      s.kernel = k;
      s.mode = m;
      s.n = v.size();
      s.min = v.front();
      s.max = v.back();
      s.q1 = quantile(v, 0.25);
      s.median = quantile(v, 0.5);
      s.q3 = quantile(v, 0.75);
      s.within = static_cast<double>(std::count_if(v.begin(), v.end(), [](double r) { return r >= 0.5 && r <= 2.0; })) /
                 static_cast<double>(v.size());
      out.push_back(s);
    }
  return out;
}

std::string format_accuracy_csv(const std::vector<AccuracyPoint>& points, bool header) {
  std::string out;
  if (header)
    out = "group,trace,kernel,sm,cycle,mode,ratio,predicted,actual,t,done_blocks,total_blocks,resident,last_slice\n";
  for (const AccuracyPoint& p : points)
    out += csv_field(p.group) + "," + csv_field(p.trace) + "," + csv_field(p.kernel) + "," + std::to_string(p.sm) +
           "," + std::to_string(p.cycle) + "," + accuracy_mode_name(p.mode) + "," + format_fixed(p.ratio, 6) + "," +
           std::to_string(p.predicted) + "," + std::to_string(p.actual) + "," + std::to_string(p.t) + "," +
           std::to_string(p.done) + "," + std::to_string(p.total) + "," + std::to_string(p.resident) + "," +
           (p.last_slice ? "1" : "0") + "\n";
  return out;
}

std::string format_accuracy_summary(const std::vector<AccuracySummary>& s) {
  std::vector<std::vector<std::string>> rows = {
      {"group", "kernel", "mode", "n", "min", "q1", "median", "q3", "max", "in_0.5x-2x"}};
  for (const AccuracySummary& a : s)
    rows.push_back({a.group, a.kernel, accuracy_mode_name(a.mode), std::to_string(a.n), format_fixed(a.min, 3),
                    format_fixed(a.q1, 3), format_fixed(a.median, 3), format_fixed(a.q3, 3), format_fixed(a.max, 3),
                    format_fixed(100.0 * a.within, 1) + "%"});
  std::vector<size_t> w(rows.front().size(), 0);
  for (const auto& r : rows)
    for (size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], r[c].size());
  std::string out;
  for (const auto& r : rows) {
    std::string line;
    for (size_t c = 0; c < r.size(); ++c) {
      const std::string pad(w[c] - r[c].size(), ' ');
      if (c) line += "  ";
      line += c < 3 ? r[c] + pad : pad + r[c];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace gs
