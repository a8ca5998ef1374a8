// gsched rtl_sched: bit access on Verilated ports and the generated records on them.
//
// A Verilated port of at most 64 bits is an integer, a wider one a VlWide<N>. get_bits/set_bits
// read and write `width` bits at `lsb` of either; put_rec/get_rec place a record generated
// from rtl/spec/gs_spec.toml (gs_spec.hpp: pack() / unpack_<Rec>()) at bit `lsb`, first field
// = MSB as in a SystemVerilog packed struct. Nothing here knows a field or a width, so the
// benches, the DSS unit harness and GsTopDriver share one layout: the spec's.
// Include only where verilated.h is available (Verilated models' users).
#pragma once
#include <cstdint>
#include <type_traits>

#include "gs_spec.hpp"
#include "verilated.h"

namespace gs::rtl {

template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& p, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned b = 0; b < width; ++b) v |= uint64_t((p[(lsb + b) / 32] >> ((lsb + b) % 32)) & 1u) << b;
  return v;
}
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
inline uint64_t get_bits(T p, unsigned lsb, unsigned width) {
  return (uint64_t(p) >> lsb) & (width >= 64 ? ~0ull : (1ull << width) - 1);
}
template <std::size_t N>
inline void set_bits(VlWide<N>& p, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned b = 0; b < width; ++b) {
    const uint32_t m = 1u << ((lsb + b) % 32);
    if ((v >> b) & 1u) p[(lsb + b) / 32] |= m;
    else p[(lsb + b) / 32] &= ~m;
  }
}
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
inline void set_bits(T& p, unsigned lsb, unsigned width, uint64_t v) {
  const uint64_t m = (width >= 64 ? ~0ull : (1ull << width) - 1) << lsb;
  p = static_cast<T>((uint64_t(p) & ~m) | ((v << lsb) & m));
}

/// Writes record `r` at bit `lsb` of `port`.
template <class Port, class Rec>
inline void put_rec(Port& port, const Rec& r, unsigned lsb = 0) {
  unsigned at = lsb + Rec::kWidth;
  pack(r, [&](uint64_t v, unsigned w) {
    at -= w;
    set_bits(port, at, w, v);
  });
}

/// Reads a record from bit `lsb` of `port`: get_rec<KsrtEntry>(port, lsb).
template <class Rec, class Port>
inline Rec get_rec(const Port& port, unsigned lsb = 0) {
  unsigned at = lsb + Rec::kWidth;
  auto get = [&](unsigned w) {
    at -= w;
    return get_bits(port, at, w);
  };
  return unpack(static_cast<const Rec*>(nullptr), get);
}

/// Kernel id in RTL encoding: kNoKernel is all ones of KernelIdW.
inline uint64_t kernel_bits(KernelId k) { return k == kNoKernel ? spec::NoKernel : k; }

}  // namespace gs::rtl
