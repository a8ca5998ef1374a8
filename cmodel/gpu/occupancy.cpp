// gsched: per-CTA resource rounding, SM occupancy and context-switch accounting (contract in
// occupancy.hpp; the rules are written out in docs/sm.md, "Occupancy").
#include "gpu/occupancy.hpp"

#include <algorithm>

#include "common/error.hpp"

namespace gs {

uint64_t round_up(uint64_t v, uint32_t unit) {
  if (unit <= 1) return v;
  return (v + unit - 1) / unit * unit;
}

CtaResources cta_resources(const KernelDesc& k, const GpuConfig& cfg) {
  if (cfg.sm_types.empty()) throw InputError(cfg.file, "sm_types", "no SM type configured");
  const SmTypeConfig& t = cfg.sm_types[0];
  CtaResources r;
  r.threads = k.threads_per_cta;
  r.warps = k.warps_per_cta(cfg.warp_size);
  if (t.reg_alloc_scope == RegAllocScope::kCta) {
    // Tanasic Table 1 accounting: "# Regs/TB" = threads x registers per thread.
    r.regs = static_cast<uint32_t>(round_up(uint64_t(k.regs_per_thread) * k.threads_per_cta, t.reg_alloc_unit));
  } else {
    // Hardware / GPGPU-Sim: a whole warp's worth of each thread's registers, per warp.
    r.regs = r.warps * static_cast<uint32_t>(round_up(uint64_t(k.regs_per_thread) * cfg.warp_size, t.reg_alloc_unit));
  }
  r.shmem = static_cast<uint32_t>(round_up(k.shmem_per_cta, t.shmem_alloc_unit));
  return r;
}

uint32_t max_shared_mem(const SmTypeConfig& t) {
  if (t.shared_mem_options.empty()) return t.shared_mem_bytes;
  return *std::max_element(t.shared_mem_options.begin(), t.shared_mem_options.end());
}

uint32_t shared_mem_carveout(const SmTypeConfig& t, uint32_t shmem) {
  if (t.shared_mem_options.empty()) return t.shared_mem_bytes;
  // Tanasic Table 2 footnote: the default (first) configuration unless the kernel needs more,
  // then the first bigger configuration that satisfies it.
  const uint32_t dflt = t.shared_mem_options.front();
  if (shmem <= dflt) return dflt;
  uint32_t best = 0;
  for (uint32_t opt : t.shared_mem_options)
    if (opt >= shmem && (best == 0 || opt < best)) best = opt;
  return best != 0 ? best : max_shared_mem(t);
}

uint32_t unified_l1_carveout(const SmTypeConfig& t, uint32_t resident_shmem) {
  uint32_t best = max_shared_mem(t);
  for (uint32_t opt : t.shared_mem_options)
    if (opt >= resident_shmem && opt < best) best = opt;
  return best;
}

uint32_t unified_l1_bytes(const SmTypeConfig& t, uint32_t resident_shmem) {
  return t.l1_size_bytes - unified_l1_carveout(t, resident_shmem);
}

uint64_t sm_storage_bytes(const SmTypeConfig& t) { return uint64_t(t.registers) * kRegisterBytes + max_shared_mem(t); }

uint64_t context_bytes(const CtaResources& r) { return uint64_t(r.regs) * kRegisterBytes + r.shmem; }

namespace {

// One capacity check: "kernel 'X' cannot fit one CTA on an SM of type 'Y': registers need N,
// capacity M".
void require_fits(const KernelDesc& k, const SmTypeConfig& t, const char* resource, uint64_t need, uint64_t capacity) {
  if (need <= capacity) return;
  throw InputError("kernel '" + k.name + "' cannot fit one CTA on an SM of type '" + t.name + "': " + resource +
                   " need " + std::to_string(need) + ", capacity " + std::to_string(capacity));
}

}  // namespace

Occupancy occupancy(const KernelDesc& k, const GpuConfig& cfg, const SmTypeConfig& t) {
  Occupancy o;
  o.per_cta = cta_resources(k, cfg);
  const CtaResources& r = o.per_cta;
  if (r.threads == 0) throw InputError("kernel '" + k.name + "': threads_per_cta is 0");
  require_fits(k, t, "threads", r.threads, t.max_threads);
  require_fits(k, t, "warps", r.warps, t.max_warps);
  require_fits(k, t, "registers", r.regs, t.registers);
  require_fits(k, t, "shared memory", r.shmem, max_shared_mem(t));
  require_fits(k, t, "CTA slots", 1, t.max_ctas);
  o.shared_mem_config = shared_mem_carveout(t, r.shmem);

  // The first fully used resource limits the count (Tanasic Sec. 2.2). Ties report the first
  // of this list.
  struct Limit {
    const char* name;
    uint64_t ctas;
  };
  const uint64_t unlimited = ~uint64_t(0);
  const Limit limits[] = {
      {"threads", t.max_threads / r.threads},
      {"warps", r.warps ? t.max_warps / r.warps : unlimited},
      {"registers", r.regs ? t.registers / r.regs : unlimited},
      {"shared memory", r.shmem ? o.shared_mem_config / r.shmem : unlimited},
      {"CTA slots", t.max_ctas},
  };
  const Limit* best = &limits[0];
  for (const Limit& l : limits)
    if (l.ctas < best->ctas) best = &l;
  o.max_ctas = static_cast<uint32_t>(best->ctas);
  o.limiter = best->name;

  o.sm_storage_bytes = sm_storage_bytes(t);
  o.context_bytes = uint64_t(o.max_ctas) * context_bytes(r);
  o.storage_share = o.sm_storage_bytes ? double(o.context_bytes) / double(o.sm_storage_bytes) : 0.0;
  // Sec. 3.2 / Table 1: each SM saves through its share of the peak DRAM bandwidth.
  const double sm_bw = cfg.num_sms() ? cfg.dram_peak_bytes_per_sec() / cfg.num_sms() : 0.0;
  o.save_time_us = sm_bw > 0 ? double(o.context_bytes) / sm_bw * 1e6 : 0.0;
  return o;
}

bool ctas_fit_together(const GpuConfig& cfg, const std::vector<CtaResources>& res, const std::vector<uint32_t>& ctas) {
  for (const SmTypeConfig& t : cfg.sm_types) {
    uint64_t threads = 0, warps = 0, regs = 0, shmem = 0, n = 0;
    for (size_t i = 0; i < res.size() && i < ctas.size(); ++i) {
      threads += uint64_t(ctas[i]) * res[i].threads;
      warps += uint64_t(ctas[i]) * res[i].warps;
      regs += uint64_t(ctas[i]) * res[i].regs;
      shmem += uint64_t(ctas[i]) * res[i].shmem;
      n += ctas[i];
    }
    if (threads > t.max_threads || warps > t.max_warps || regs > t.registers || shmem > t.shared_mem_bytes ||
        n > t.max_ctas)
      return false;
  }
  return true;
}

}  // namespace gs
