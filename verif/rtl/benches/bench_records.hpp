// gsched block benches: gs_pkg packed records <-> golden records (sched/golden/golden_types.hpp).
// Field order and widths follow rtl/gs_pkg.sv; the first field of a packed struct is its MSB.
#pragma once
#include <sstream>
#include <string>

#include "bench_harness.hpp"
#include "sched/golden/golden_types.hpp"

namespace gs::bench {

using namespace gs::golden;
using gs::KernelId;
using gs::kNoKernel;

constexpr unsigned kSlotW = 3;
constexpr unsigned kLaunchW = kKernelIdW + 3 + kPrioW + kTokenW + kThreadW + kWarpW + kRegW + kShmemW + kCtaIdW;
constexpr unsigned kKsrtW = 1 + kLaunchW + 2 * kCtaIdW;
constexpr unsigned kSmstW = 2 + 1 + kSlotW + 1 + kSlotW + kThreadW + kWarpW + kRegW + kShmemW + kCtaCntW;
constexpr unsigned kCtaResW = kThreadW + kWarpW + kRegW + kShmemW;
static_assert(kLaunchW == 104 && kKsrtW == 145 && kSmstW == 69, "gs_pkg record widths changed: update the benches");

inline uint32_t kernel_bits(KernelId k) { return k == kNoKernel ? 0xFFu : k; }

template <class Port>
void put_launch(Port& p, const Launch& l, unsigned lsb = 0) {
  pack_fields(p, lsb,
              {{kernel_bits(l.kernel), kKernelIdW}, {l.ctx, 3}, {l.prio, kPrioW},
               {static_cast<uint16_t>(l.tokens), kTokenW}, {l.threads, kThreadW}, {l.warps, kWarpW},
               {l.regs, kRegW}, {l.shmem, kShmemW}, {l.grid, kCtaIdW}});
}

template <class Port>
void put_cta_res(Port& p, const CtaRes& r, unsigned lsb = 0) {
  pack_fields(p, lsb, {{r.threads, kThreadW}, {r.warps, kWarpW}, {r.regs, kRegW}, {r.shmem, kShmemW}});
}

template <class Port>
Launch get_launch(const Port& p, unsigned lsb = 0) {
  FieldReader<Port> r(p, lsb, kLaunchW);
  Launch l;
  const uint64_t k = r.next(kKernelIdW);
  l.kernel = k == 0xFF ? kNoKernel : KernelId(k);
  l.ctx = uint32_t(r.next(3));
  l.prio = uint32_t(r.next(kPrioW));
  l.tokens = static_cast<int16_t>(static_cast<uint16_t>(r.next(kTokenW)));
  l.threads = uint32_t(r.next(kThreadW));
  l.warps = uint32_t(r.next(kWarpW));
  l.regs = uint32_t(r.next(kRegW));
  l.shmem = uint32_t(r.next(kShmemW));
  l.grid = uint32_t(r.next(kCtaIdW));
  return l;
}

/// Packs a golden SMST / KSRT entry into a flat table port at bit `lsb` (gs_pkg layout).
template <class Port>
void put_smst(Port& p, const SmstEntry& e, unsigned lsb) {
  pack_fields(p, lsb,
              {{uint64_t(e.state), 2}, {e.owner_valid, 1}, {e.owner, kSlotW}, {e.next_valid, 1}, {e.next, kSlotW},
               {e.threads, kThreadW}, {e.warps, kWarpW}, {e.regs, kRegW}, {e.shmem, kShmemW}, {e.ctas, kCtaCntW}});
}

template <class Port>
void put_ksrt(Port& p, const KsrtEntry& e, unsigned lsb) {
  pack_fields(p, lsb,
              {{e.valid, 1}, {kernel_bits(e.kernel), kKernelIdW}, {e.ctx, 3}, {e.prio, kPrioW},
               {static_cast<uint16_t>(e.tokens), kTokenW}, {e.threads, kThreadW}, {e.warps, kWarpW},
               {e.regs, kRegW}, {e.shmem, kShmemW}, {e.grid, kCtaIdW}, {e.next_cta, kCtaIdW}, {e.done, kCtaIdW}});
}

template <class Port>
KsrtEntry get_ksrt(const Port& p, unsigned lsb) {
  FieldReader<Port> r(p, lsb, kKsrtW);
  KsrtEntry e;
  e.valid = r.next(1);
  const uint64_t k = r.next(kKernelIdW);
  e.kernel = k == 0xFF ? kNoKernel : KernelId(k);
  e.ctx = uint32_t(r.next(3));
  e.prio = uint32_t(r.next(kPrioW));
  e.tokens = static_cast<int16_t>(static_cast<uint16_t>(r.next(kTokenW)));
  e.threads = uint32_t(r.next(kThreadW));
  e.warps = uint32_t(r.next(kWarpW));
  e.regs = uint32_t(r.next(kRegW));
  e.shmem = uint32_t(r.next(kShmemW));
  e.grid = uint32_t(r.next(kCtaIdW));
  e.next_cta = uint32_t(r.next(kCtaIdW));
  e.done = uint32_t(r.next(kCtaIdW));
  return e;
}

template <class Port>
SmstEntry get_smst(const Port& p, unsigned lsb) {
  FieldReader<Port> r(p, lsb, kSmstW);
  SmstEntry e;
  e.state = static_cast<SmState>(r.next(2));
  e.owner_valid = r.next(1);
  e.owner = uint32_t(r.next(kSlotW));
  e.next_valid = r.next(1);
  e.next = uint32_t(r.next(kSlotW));
  e.threads = uint32_t(r.next(kThreadW));
  e.warps = uint32_t(r.next(kWarpW));
  e.regs = uint32_t(r.next(kRegW));
  e.shmem = uint32_t(r.next(kShmemW));
  e.ctas = uint32_t(r.next(kCtaCntW));
  return e;
}

inline std::string str(const Launch& l) {
  std::ostringstream os;
  os << "{k=" << l.kernel << " ctx=" << l.ctx << " prio=" << l.prio << " tok=" << l.tokens << " thr=" << l.threads
     << " w=" << l.warps << " regs=" << l.regs << " shm=" << l.shmem << " grid=" << l.grid << "}";
  return os.str();
}
inline bool same(const Launch& a, const Launch& b) {
  return a.kernel == b.kernel && a.ctx == b.ctx && a.prio == b.prio && a.tokens == b.tokens && a.threads == b.threads &&
         a.warps == b.warps && a.regs == b.regs && a.shmem == b.shmem && a.grid == b.grid;
}
inline std::string str(const KsrtEntry& e) {
  std::ostringstream os;
  os << "{v=" << e.valid << " k=" << e.kernel << " ctx=" << e.ctx << " prio=" << e.prio << " tok=" << e.tokens
     << " thr=" << e.threads << " w=" << e.warps << " regs=" << e.regs << " shm=" << e.shmem << " grid=" << e.grid
     << " next=" << e.next_cta << " done=" << e.done << "}";
  return os.str();
}
inline bool same(const KsrtEntry& a, const KsrtEntry& b) {
  return a.valid == b.valid && a.kernel == b.kernel && a.ctx == b.ctx && a.prio == b.prio && a.tokens == b.tokens &&
         a.threads == b.threads && a.warps == b.warps && a.regs == b.regs && a.shmem == b.shmem && a.grid == b.grid &&
         a.next_cta == b.next_cta && a.done == b.done;
}
inline std::string str(const SmstEntry& e) {
  std::ostringstream os;
  os << "{state=" << int(e.state) << " own=" << e.owner_valid << "/" << e.owner << " next=" << e.next_valid << "/"
     << e.next << " thr=" << e.threads << " w=" << e.warps << " regs=" << e.regs << " shm=" << e.shmem
     << " ctas=" << e.ctas << "}";
  return os.str();
}
inline bool same(const SmstEntry& a, const SmstEntry& b) {
  return a.state == b.state && a.owner_valid == b.owner_valid && a.owner == b.owner && a.next_valid == b.next_valid &&
         a.next == b.next && a.threads == b.threads && a.warps == b.warps && a.regs == b.regs && a.shmem == b.shmem &&
         a.ctas == b.ctas;
}

}  // namespace gs::bench
