// gsched: multiprogram metrics (definitions and citations in metrics.hpp).
#include "metrics/metrics.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace gs {

namespace {

void require_nonempty(const std::vector<double>& v, const char* what) {
  if (v.empty()) throw InputError(std::string("metrics: ") + what + " of an empty mix");
}

}  // namespace

double normalized_turnaround(uint64_t cycles_shared, uint64_t cycles_alone) {
  if (cycles_alone == 0 || cycles_shared == 0)
    throw InputError("metrics: a kernel with a zero-cycle runtime (alone " + std::to_string(cycles_alone) +
                     ", shared " + std::to_string(cycles_shared) + ") has no slowdown");
  return double(cycles_shared) / double(cycles_alone);
}

double antt(const std::vector<double>& ntts) {
  require_nonempty(ntts, "ANTT");
  double sum = 0;
  for (double n : ntts) sum += n;
  return sum / double(ntts.size());
}

double stp(const std::vector<double>& ntts) {
  require_nonempty(ntts, "STP");
  double sum = 0;
  for (double n : ntts) sum += 1.0 / n;
  return sum;
}

double strict_fairness(const std::vector<double>& ntts) {
  require_nonempty(ntts, "StrictF");
  const auto [lo, hi] = std::minmax_element(ntts.begin(), ntts.end());
  return *lo / *hi;
}

double mix_ipc(uint64_t total_instructions, uint64_t cycles) {
  if (cycles == 0) throw InputError("metrics: mix IPC of a zero-cycle run");
  return double(total_instructions) / double(cycles);
}

namespace {

/// The fields every kind of mix reports for a kernel the same way.
KernelMetrics kernel_metrics_of(const KernelRuntimes& k) {
  KernelMetrics km;
  km.name = k.name;
  km.arrival_cycle = k.arrival_cycle;
  km.priority = k.priority;
  km.instructions = k.instructions;
  return km;
}

/// The mix-wide figures over the slowdowns of its kernels or processes and its run length.
void finish_mix_metrics(MixMetrics& m, const std::vector<double>& ntts, uint64_t cycles) {
  m.antt = antt(ntts);
  m.stp = stp(ntts);
  m.strictf = strict_fairness(ntts);
  m.ipc = mix_ipc(m.instructions, cycles);
}

}  // namespace

MixMetrics compute_mix_metrics(const std::vector<KernelRuntimes>& kernels, uint64_t cycles) {
  MixMetrics m;
  m.cycles = cycles;
  std::vector<double> ntts;
  ntts.reserve(kernels.size());
  for (const KernelRuntimes& k : kernels) {
    KernelMetrics km = kernel_metrics_of(k);
    km.cycles_alone = k.cycles_alone;
    km.cycles_shared = k.cycles_shared;
    km.ntt = normalized_turnaround(k.cycles_shared, k.cycles_alone);
    km.ipc = double(k.instructions) / double(k.cycles_shared);
    ntts.push_back(km.ntt);
    m.instructions += k.instructions;
    m.kernels.push_back(std::move(km));
  }
  finish_mix_metrics(m, ntts, cycles);
  return m;
}

MixMetrics compute_window_metrics(const std::vector<KernelRuntimes>& kernels, uint64_t window) {
  if (window == 0) throw InputError("metrics: fixed window of zero cycles");
  MixMetrics m;
  m.cycles = window;
  m.window_cycles = window;
  std::vector<double> ntts;
  ntts.reserve(kernels.size());
  for (const KernelRuntimes& k : kernels) {
    if (k.instructions == 0 || k.instructions_alone == 0)
      throw InputError("metrics: kernel '" + k.name + "' issued no instruction in the window of " +
                       std::to_string(window) + " cycles" + (k.instructions == 0 ? "" : " when run alone") +
                       ": its IPC slowdown is undefined; lengthen window_cycles");
    KernelMetrics km = kernel_metrics_of(k);
    km.instructions_alone = k.instructions_alone;
    km.ipc = double(k.instructions) / double(window);
    km.ipc_alone = double(k.instructions_alone) / double(window);
    km.ntt = km.ipc_alone / km.ipc;
    km.launches = k.launches;
    km.completions = k.completions;
    ntts.push_back(km.ntt);
    m.antt_sbm += km.ntt;
    m.instructions += k.instructions;
    m.kernels.push_back(std::move(km));
  }
  finish_mix_metrics(m, ntts, window);
  return m;
}

namespace {

double mean_of(const std::vector<uint64_t>& v, size_t n) {
  double sum = 0;
  for (size_t i = 0; i < n; ++i) sum += double(v[i]);
  return sum / double(n);
}

}  // namespace

MixMetrics compute_process_metrics(const std::vector<ProcessRuntimes>& processes,
                                   const std::vector<KernelRuntimes>& kernels, uint64_t cycles) {
  if (processes.empty()) throw InputError("metrics: a process mix without processes");
  MixMetrics m;
  m.cycles = cycles;
  std::vector<double> ntts;
  for (const ProcessRuntimes& p : processes) {
    if (p.shared.empty() || p.alone.empty())
      throw InputError("metrics: process '" + p.name + "' completed no run" + (p.shared.empty() ? "" : " alone"));
    for (const std::vector<uint64_t>* v : {&p.shared, &p.alone})
      for (uint64_t t : *v)
        if (t == 0) throw InputError("metrics: process '" + p.name + "' has a zero-cycle run");
    ProcessMetrics pm;
    pm.name = p.name;
    pm.priority = p.priority;
    pm.runs = p.runs;
    pm.turnarounds = p.shared;
    pm.turnarounds_alone = p.alone;
    pm.mean_shared = mean_of(p.shared, p.shared.size());
    pm.mean_first = mean_of(p.shared, std::min<size_t>(p.shared.size(), std::max<uint32_t>(p.runs, 1)));
    pm.mean_alone = mean_of(p.alone, p.alone.size());
    pm.ntt = pm.mean_shared / pm.mean_alone;
    ntts.push_back(pm.ntt);
    m.processes.push_back(std::move(pm));
  }
  for (const KernelRuntimes& k : kernels) {
    KernelMetrics km = kernel_metrics_of(k);
    km.launches = k.launches;
    km.completions = k.completions;
    km.ipc = cycles ? double(k.instructions) / double(cycles) : 0;
    m.instructions += k.instructions;
    m.kernels.push_back(std::move(km));
  }
  finish_mix_metrics(m, ntts, cycles);
  return m;
}

}  // namespace gs
