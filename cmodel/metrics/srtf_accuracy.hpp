// gsched: accuracy of Pai et al.'s Simple Slicing runtime predictor on CTA traces (PACT 2014,
// Sec. 4.2 "Predictor Accuracy", Fig. 11; reference: docs/srtf-accuracy.md).
//
// A trace is what `gsim run --ctas` writes (every CTA's kernel, SM, start and end cycle) plus
// each kernel's arrival and grid size and the GPU's SM count. srtf_accuracy() turns it into the
// event stream each SM's predictor sees -- ONLAUNCH at the kernel's arrival (on every SM, with
// Total_Blocks = ceil(grid / N_SM)), ONBLOCKSTART / ONBLOCKEND per CTA with a block slot l (the
// lowest slot free on that SM, below spec::MaxCtasPerSm), ONKERNELEND at the kernel's last CTA
// end (on every SM) -- and replays it through srtf_reference() (metrics/srtf_reference.hpp:
// Algorithm 1 and Eq. 2 read straight, in integers and in absolute 64-bit time: cycles, t and
// active intervals are not wrapped, so a trace in ns or scaled by 10^7 gives the ratios of the
// unscaled one; Pred_Cycles saturates at 2^SrtfPredW - 1). Every block end gives one
// prediction, Pred_Cycles; it is compared with the actual runtime (ActualRuntime) as
// predicted / actual.
//
// Modes (the paper's two): slice-aware "SS" keeps every block end's prediction (t re-sampled
// after every launch and kernel end, as Sec. 4 does); slice-unaware "unaware" keeps only the
// first prediction of each kernel on each SM (the one made "at the beginning of the kernel",
// with the first block's t; later slices are never seen). For multi-kernel traces each SS
// prediction carries `last_slice`: made after the last slice boundary (a launch, or another
// kernel's end, while the kernel ran) before the kernel's last block end on that SM -- the
// paper's mpmax group counts only those.
//
// Within a cycle, events are ordered: block ends, launches, block starts, block ends of CTAs
// that started in that same cycle, kernel ends; ties by kernel then CTA index. Deterministic.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gs {

struct Mix;
struct RunResult;
struct KernelDesc;

struct AccuracyKernel {
  std::string name;
  uint64_t arrival_cycle = 0;  // ONLAUNCH on every SM
  uint32_t grid_ctas = 0;      // Kernel.Blocks; Total_Blocks = ceil(grid_ctas / num_sms)
};

struct AccuracyCta {
  uint32_t kernel = 0;  // index into AccuracyTrace::kernels
  uint32_t cta = 0;
  uint32_t sm = 0;
  uint64_t start_cycle = 0, end_cycle = 0;
};

/// One run: its kernels, every CTA, and where it came from.
struct AccuracyTrace {
  std::string group;     // box group of Fig. 11: "single-sim", "single-gpu", "multi-sim", ...
  std::string name;      // the run: mix or kernel name, trace file and run number
  uint32_t num_sms = 0;  // N_SM of Algorithm 1 line 3
  std::vector<AccuracyKernel> kernels;
  std::vector<AccuracyCta> ctas;
};

/// What "actual" is. kSmActive (default): the kernel's Active_Kernel_Cycles on that SM when its
/// last block there ends -- cycles with at least one of its blocks resident on the SM, exactly
/// the quantity Pred_Cycles predicts (the union of its CTA intervals there). kTurnaround: the
/// kernel's turnaround on the GPU, last CTA end - arrival (the same for every SM).
enum class ActualRuntime { kSmActive, kTurnaround };

enum class AccuracyMode { kSliceAware, kSliceUnaware };
/// "SS" or "unaware" (the CSV's mode column).
const char* accuracy_mode_name(AccuracyMode m);

struct AccuracyOptions {
  ActualRuntime actual = ActualRuntime::kSmActive;
  bool last_slice_only = false;  // drop SS predictions outside the last slice (unaware rows stay)
};

/// One prediction, predicted / actual.
struct AccuracyPoint {
  std::string group, trace, kernel;
  uint32_t kernel_index = 0;
  uint32_t sm = 0;
  uint64_t cycle = 0;  // the block end that made it
  AccuracyMode mode = AccuracyMode::kSliceAware;
  uint64_t predicted = 0;  // Pred_Cycles
  uint64_t actual = 0;
  double ratio = 0;  // predicted / actual
  uint64_t t = 0;    // Eq. 2's t: a CTA's duration, 64-bit (traces in ns or scaled exceed 2**32)
  uint32_t done = 0, total = 0, resident = 0;  // Eq. 2's other inputs
  bool last_slice = false;
};

/// Replays `trace` through one predictor per SM; points ordered by SM, then event order, SS
/// before unaware for the same block end. Throws InputError for an inconsistent trace (a CTA
/// of an unknown kernel or SM, ending before it starts or before its kernel's arrival, more
/// than spec::MaxCtasPerSm CTAs resident on an SM, more than spec::MaxKernels kernels running
/// at once, a grid of 0). Predictions whose actual is 0 (only zero-length CTAs) are dropped.
std::vector<AccuracyPoint> srtf_accuracy(const AccuracyTrace& trace, const AccuracyOptions& opt = {});

/// The trace of a finished run of `mix` (RunResult::ctas, kernel = mix index): arrivals from the
/// mix, grids from its entries (MixEntry::grid_ctas, else the descriptor's). Context-saved CTA
/// pieces (switch preemption) count as blocks that ended there.
AccuracyTrace trace_from_run(const RunResult& run, const Mix& mix, uint32_t num_sms, const std::string& group,
                             const std::string& name);

/// A `gsim run --ctas` CSV (header kernel,cta,sm,start_cycle,end_cycle). `kernels` gives names,
/// arrivals and grids; a row naming another kernel is an error. `path` names the file in errors.
AccuracyTrace parse_cta_csv(const std::string& text, const std::string& path, std::vector<AccuracyKernel> kernels,
                            uint32_t num_sms, const std::string& group);

/// The real-GPU traces of ../shared/traces/h100 (alone.csv: run,pos,kernel,block,sm,start_ns,
/// end_ns), one trace per run: kernel "h100.<kernel>", arrival 0, grid = the run's CTA count,
/// times in ns (the ratio does not depend on the unit), N_SM = the highest SM index + 1 over the
/// file. `path` names the file in errors.
std::vector<AccuracyTrace> parse_h100_alone_csv(const std::string& text, const std::string& path,
                                                const std::string& group);

/// Box statistics of one (group, kernel, mode): quartiles by linear interpolation between
/// order statistics (numpy's default), `within` = share of ratios in [0.5, 2].
struct AccuracySummary {
  std::string group, kernel;
  AccuracyMode mode = AccuracyMode::kSliceAware;
  size_t n = 0;
  double min = 0, q1 = 0, median = 0, q3 = 0, max = 0, within = 0;
};
/// One summary per (group, kernel, mode), groups and kernels in order of first appearance, SS
/// before unaware.
std::vector<AccuracySummary> summarize_accuracy(const std::vector<AccuracyPoint>& points);

/// CSV: group,trace,kernel,sm,cycle,mode,ratio,predicted,actual,t,done_blocks,total_blocks,
/// resident,last_slice (ratio with 6 decimals). Rows concatenate across files.
std::string format_accuracy_csv(const std::vector<AccuracyPoint>& points, bool header = true);
/// The summary as an aligned text table.
std::string format_accuracy_summary(const std::vector<AccuracySummary>& s);

}  // namespace gs
