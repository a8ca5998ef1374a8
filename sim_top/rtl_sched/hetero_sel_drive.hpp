// gsched rtl_sched: drives a Verilated gs_hetero_sel (the model of `gsim unit hetero` or a
// block bench's, mutants included) from the golden twin's input record, field by field in the
// RTL's packed layout (kernel c at [c*W +: W]).
#pragma once
#include "rtl_sched/rtl_bits.hpp"
#include "sched/golden/gs_hetero_sel.hpp"

namespace gs::rtl {

template <class V>
void drive_hetero_sel(V& d, const golden::HeteroSelIn& in) {
  d.nk_i = in.nk;
  d.sms_big_i = in.sms_big;
  d.sms_small_i = in.sms_small;
  for (uint32_t c = 0; c < golden::kHcKernels; ++c) {
    set_bits(d.big_insts_i, c * spec::HcInstW, spec::HcInstW, in.big_insts[c]);
    set_bits(d.small_insts_i, c * spec::HcInstW, spec::HcInstW, in.small_insts[c]);
    set_bits(d.cta_big_i, c * spec::CtaCntW, spec::CtaCntW, in.cta_big[c]);
    set_bits(d.cta_small_i, c * spec::CtaCntW, spec::CtaCntW, in.cta_small[c]);
    set_bits(d.cta_base_i, c * spec::CtaCntW, spec::CtaCntW, in.cta_base[c]);
  }
}

}  // namespace gs::rtl
