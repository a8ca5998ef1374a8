// gsched rtl_sched: the Verilated gs_policy_dss behind gs::DssUnit (see unit_dss_rtl.hpp).
//
// Each eval() packs the golden tables into the unit's flat input ports in gs_pkg's packed
// order (the first field of a record is its MSB; entry i of a table is [i*W +: W]) with the
// pack()/unpack() generated from rtl/spec/gs_spec.toml, the source of gs_pkg itself.
#include "rtl_sched/unit_dss_rtl.hpp"

#include <type_traits>

#include "Vgs_policy_dss.h"
#include "Vgs_policy_dss___024root.h"
#include "gs_rtl_params.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "rtl_sched/verilated_block.hpp"

namespace gs::rtl {

using golden::KsrtEntry;
using golden::OwnerWr;
using golden::PreemptReq;
using golden::SmstEntry;
using golden::TokenUpd;

namespace {

constexpr uint32_t kStIdle = uint32_t(DssSt::kIdle);  // gs_dss_unit st_q (gs_pkg::dss_st_e)

template <std::size_t N>
void clear(VlWide<N>& p) {
  for (std::size_t w = 0; w < N; ++w) p[w] = 0;
}

// Record layouts: the generated pack()/unpack() of rtl/spec/gs_spec.toml (rtl_bits.hpp).
template <class Port>
void pack_ksrt(Port& port, uint32_t k, const KsrtEntry& e) {
  put_rec(port, e, k * KsrtW);
}
template <class Port>
void pack_smst(Port& port, uint32_t s, const SmstEntry& m) {
  put_rec(port, m, s * SmstW);
}

class RtlDssUnit final : public DssUnit {
 public:
  // Verilator tears scopes down through the thread's current context: make ours current (as
  // GsTopDriver does), or the teardown touches a context another unit has already freed.

  void reset() override {
    Vgs_policy_dss& d = blk_.dut();
    d.en_i = 1;
    d.cfg_num_sms_i = 0;
    d.trigger_i = 0;
    d.accept_i = 0;
    d.pending_i = 0;
    d.rank_i = 0;
    clear(d.ksrt_i);
    clear(d.smst_i);
    clear(d.resident_i);
    d.rst_ni = 0;
    for (int i = 0; i < 2; ++i) clock();
    d.rst_ni = 1;
  }

  DssUnitDecision eval(const DssUnitInputs& in) override {
    Vgs_policy_dss& d = blk_.dut();
    d.cfg_num_sms_i = static_cast<uint8_t>(in.num_sms);
    d.trigger_i = in.trigger;
    d.pending_i = static_cast<uint8_t>(in.pending);
    d.accept_i = 0;  // the request must not depend on it; tokens() drives it
    drive_tables(in);
    settle();
    DssUnitDecision o;
    o.owner_wr = get_rec<OwnerWr>(d.owner_wr_o);
    o.req = get_rec<PreemptReq>(d.req_o);
    return o;
  }

  TokenUpd tokens(bool accepted) override {
    blk_.dut().accept_i = accepted;
    settle();
    return get_rec<TokenUpd>(blk_.dut().tok_o);
  }

  void clock() override { blk_.clock(); }

  bool busy() const override { return blk_.dut().rootp->gs_dss_unit__DOT__st_q != kStIdle; }

 private:
  void settle() { blk_.settle(); }

  /// ksrt_i, rank_i, smst_i, resident_i from the golden tables; entries beyond them are 0.
  void drive_tables(const DssUnitInputs& in) {
    Vgs_policy_dss& d = blk_.dut();
    const golden::Ksrt& ksrt = *in.ksrt;
    const golden::Smst& smst = *in.smst;
    clear(d.ksrt_i);
    clear(d.smst_i);
    clear(d.resident_i);
    d.rank_i = 0;
    for (uint32_t k = 0; k < ksrt.slots() && k < MaxKernels; ++k) {
      pack_ksrt(d.ksrt_i, k, ksrt.entry(k));
      set_bits(d.rank_i, k * SlotW, SlotW, in.aq->q.rank[k]);
    }
    for (uint32_t s = 0; s < in.num_sms; ++s) {
      pack_smst(d.smst_i, s, smst.entry(s));
      for (uint32_t k = 0; k < ksrt.slots() && k < MaxKernels; ++k)
        set_bits(d.resident_i, (s * MaxKernels + k) * CtaCntW, CtaCntW, smst.resident(s, k));
    }
  }

  VerilatedBlock<Vgs_policy_dss> blk_{"dss"};
};

}  // namespace

std::unique_ptr<DssUnit> make_rtl_dss_unit() { return std::make_unique<RtlDssUnit>(); }

nlohmann::json run_rtl_unit(const std::string& block, const nlohmann::json& input) {
  if (block != "dss") return nullptr;
  const std::unique_ptr<DssUnit> unit = make_rtl_dss_unit();
  return run_dss_unit(*unit, input, "gsim unit dss (rtl)");
}

}  // namespace gs::rtl
