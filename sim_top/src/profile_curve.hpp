// gsim profile's measurement, shared with gsim calibrate: a kernel alone under golden Left-Over
// capped at N CTAs per SM, measured over a window after a warm-up (Warped-Slicer Fig. 3a's
// IPC against CTAs per SM, docs/cli.md "gsim profile"), and the Fig. 3a class of such a curve.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "config/gpu_config.hpp"
#include "workload/kernel_desc.hpp"

namespace gsim {

/// The measurement window: `warmup` cycles, then `sample` cycles measured; the run's seed.
struct ProfileWindow {
  uint64_t warmup = 20000, sample = 50000, seed = 1;
};

/// One CTA count's figures.
struct Point {
  uint32_t ctas = 0;
  uint64_t window_start = 0, window_end = 0;  // cycles the figures cover
  bool whole_run = false;                     // the kernel ended before the window did: read over its run
  uint64_t instructions = 0;
  double ipc = 0, mem_stall = 0, l1_miss = 0, l2_miss = 0;
};

/// The kernel alone with at most `ctas` CTAs per SM over `w` (a kernel that ends before the
/// window does is read over its whole run).
Point measure_point(const gs::GpuConfig& cfg, const gs::KernelDesc& k, uint32_t ctas, const ProfileWindow& w);

/// Resident CTAs per SM of `k` alone: the most over the SM types it fits (an InputError when
/// it fits none, as gsim occupancy).
uint32_t occupancy_of(const gs::GpuConfig& cfg, const gs::KernelDesc& k);

/// The Warped-Slicer Fig. 3a class of a curve of IPC at 1..N CTAs per SM (N = points, >= 2),
/// with p(j) = ipc(j) / the highest: "cache" when the peak is before N and p(N) <= 0.90;
/// "compute-nonsat" when the peak is at N and p(N-1) <= 0.95; otherwise "memory" when
/// `l2_mpki` >= 30 (Table II's Type threshold, Sec. II-C), else "compute-sat" (the thresholds
/// of sim_top/workloads/calibration/targets.json's "class" metric). "" when N < 2.
std::string fig3a_class(const std::vector<Point>& curve, double l2_mpki);

}  // namespace gsim
