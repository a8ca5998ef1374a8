// gsched block benches: gs_pkg packed records <-> golden records. The layouts come from
// rtl/spec/gs_spec.toml through the generated pack()/unpack() (gs_spec.hpp) and
// rtl_sched/rtl_bits.hpp: nothing here knows a field or a width.
#pragma once
#include <string>

#include "bench_harness.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "sched/golden/golden_types.hpp"

namespace gs::bench {

using namespace ::gs;
using namespace gs::golden;
using gs::KernelId;
using gs::kNoKernel;
using gs::rtl::get_rec;
using gs::rtl::kernel_bits;
using gs::rtl::put_rec;

template <class Port>
Launch get_launch(const Port& p, unsigned lsb = 0) {
  return get_rec<Launch>(p, lsb);
}
template <class Port>
KsrtEntry get_ksrt(const Port& p, unsigned lsb = 0) {
  return get_rec<KsrtEntry>(p, lsb);
}
template <class Port>
SmstEntry get_smst(const Port& p, unsigned lsb = 0) {
  return get_rec<SmstEntry>(p, lsb);
}
template <class Port>
void put_launch(Port& p, const Launch& l, unsigned lsb = 0) {
  put_rec(p, l, lsb);
}
template <class Port>
void put_cta_res(Port& p, const CtaRes& r, unsigned lsb = 0) {
  put_rec(p, r, lsb);
}
template <class Port>
void put_smst(Port& p, const SmstEntry& e, unsigned lsb) {
  put_rec(p, e, lsb);
}
template <class Port>
void put_ksrt(Port& p, const KsrtEntry& e, unsigned lsb) {
  put_rec(p, e, lsb);
}

/// Records print as {field=value ...} and compare field by field (gs_spec.hpp).
template <class Rec>
std::string str(const Rec& r) {
  return record_str(r);
}
template <class Rec>
bool same(const Rec& a, const Rec& b) {
  return a == b;
}

}  // namespace gs::bench
