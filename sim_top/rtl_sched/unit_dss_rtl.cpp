// gsched rtl_sched: the Verilated gs_policy_dss behind gs::DssUnit (see unit_dss_rtl.hpp).
//
// Each eval() packs the golden tables into the unit's flat input ports in gs_pkg's packed
// order (the first field of a record is its MSB; entry i of a table is [i*W +: W]); the field
// widths come from gs_pkg.sv through gs_rtl_params.hpp and are checked against the record
// widths below, so a change of gs_pkg fails the build here rather than scrambling the ports.
#include "rtl_sched/unit_dss_rtl.hpp"

#include <initializer_list>
#include <type_traits>

#include "Vgs_policy_dss.h"
#include "Vgs_policy_dss___024root.h"
#include "gs_rtl_params.hpp"
#include "verilated.h"

namespace gs::rtl {

using golden::KsrtEntry;
using golden::OwnerWr;
using golden::PreemptReq;
using golden::SmstEntry;
using golden::TokenUpd;

namespace {

static_assert(1 + KernelIdW + CtxW + PrioW + TokenW + ThreadW + WarpW + RegW + ShmemW + 3 * CtaIdW == KsrtW,
              "gs_pkg::ksrt_entry_t changed: update pack_ksrt");
static_assert(2 + 1 + SlotW + 1 + SlotW + ThreadW + WarpW + RegW + ShmemW + CtaCntW == SmstW,
              "gs_pkg::smst_entry_t changed: update pack_smst");
constexpr unsigned kOwnerWrW = 1 + SmIdW + 1 + SlotW;                 // gs_pkg::owner_wr_t
constexpr unsigned kPreemptReqW = 1 + SmIdW + 1 + SlotW + 1 + SlotW + 1;  // gs_pkg::preempt_req_t
constexpr unsigned kTokenUpdW = 2 * (1 + SlotW);                      // gs_pkg::token_upd_t
constexpr uint32_t kStIdle = 0;                                       // gs_policy_dss StIdle

// ---- bit access on Verilator ports (integral up to 64 bits, VlWide above) ----
template <std::size_t N>
void set_bits(VlWide<N>& p, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned b = 0; b < width; ++b) {
    const uint32_t m = 1u << ((lsb + b) % 32);
    if ((v >> b) & 1u) p[(lsb + b) / 32] |= m;
    else p[(lsb + b) / 32] &= ~m;
  }
}
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
void set_bits(T& p, unsigned lsb, unsigned width, uint64_t v) {
  const uint64_t m = ((1ull << width) - 1) << lsb;
  p = static_cast<T>((uint64_t(p) & ~m) | ((v << lsb) & m));
}
template <std::size_t N>
void clear(VlWide<N>& p) {
  for (std::size_t w = 0; w < N; ++w) p[w] = 0;
}

struct Field {
  uint64_t value;
  unsigned width;
};

/// Writes a packed record whose LSB is at `lsb`: fields in declaration order (first = MSBs).
template <class Port>
void pack(Port& port, unsigned lsb, std::initializer_list<Field> fields) {
  unsigned at = lsb;
  for (const auto& f : fields) at += f.width;
  for (const auto& f : fields) {
    at -= f.width;
    set_bits(port, at, f.width, f.value);
  }
}

/// Reads a packed record (<= 64 bits) field by field in declaration order, from its MSB.
class Unpacker {
 public:
  Unpacker(uint64_t bits, unsigned width) : bits_(bits), at_(width) {}
  uint32_t next(unsigned width) {
    at_ -= width;
    return static_cast<uint32_t>((bits_ >> at_) & ((1ull << width) - 1));
  }

 private:
  uint64_t bits_;
  unsigned at_;
};

template <class Port>
void pack_ksrt(Port& port, uint32_t k, const KsrtEntry& e) {
  const uint32_t kernel = e.kernel == kNoKernel ? NoKernel : e.kernel;
  pack(port, k * KsrtW,
       {{e.valid, 1}, {kernel, KernelIdW}, {e.ctx, CtxW}, {e.prio, PrioW},
        {static_cast<uint16_t>(e.tokens), TokenW}, {e.threads, ThreadW}, {e.warps, WarpW}, {e.regs, RegW},
        {e.shmem, ShmemW}, {e.grid, CtaIdW}, {e.next_cta, CtaIdW}, {e.done, CtaIdW}});
}

template <class Port>
void pack_smst(Port& port, uint32_t s, const SmstEntry& m) {
  pack(port, s * SmstW,
       {{static_cast<uint32_t>(m.state), 2}, {m.owner_valid, 1}, {m.owner, SlotW}, {m.next_valid, 1},
        {m.next, SlotW}, {m.threads, ThreadW}, {m.warps, WarpW}, {m.regs, RegW}, {m.shmem, ShmemW},
        {m.ctas, CtaCntW}});
}

class RtlDssUnit final : public DssUnit {
 public:
  RtlDssUnit() : ctx_(std::make_unique<VerilatedContext>()), dut_(std::make_unique<Vgs_policy_dss>(ctx_.get(), "dss")) {}
  // Verilator tears scopes down through the thread's current context: make ours current (as
  // GsTopDriver does), or the teardown touches a context another unit has already freed.
  ~RtlDssUnit() override {
    Verilated::threadContextp(ctx_.get());
    dut_->final();
    dut_.reset();
    Verilated::threadContextp(nullptr);
  }

  void reset() override {
    Vgs_policy_dss& d = *dut_;
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
    Vgs_policy_dss& d = *dut_;
    d.cfg_num_sms_i = static_cast<uint8_t>(in.num_sms);
    d.trigger_i = in.trigger;
    d.pending_i = static_cast<uint8_t>(in.pending);
    d.accept_i = 0;  // the request must not depend on it; tokens() drives it
    drive_tables(in);
    settle();
    DssUnitDecision o;
    Unpacker w(d.owner_wr_o, kOwnerWrW);
    o.owner_wr.valid = w.next(1);
    o.owner_wr.sm = w.next(SmIdW);
    o.owner_wr.owner_valid = w.next(1);
    o.owner_wr.owner = w.next(SlotW);
    Unpacker r(d.req_o, kPreemptReqW);
    o.req.valid = r.next(1);
    o.req.sm = r.next(SmIdW);
    o.req.victim_all = r.next(1);
    o.req.victim = r.next(SlotW);
    o.req.next_valid = r.next(1);
    o.req.next = r.next(SlotW);
    o.req.assign_next = r.next(1);
    return o;
  }

  TokenUpd tokens(bool accepted) override {
    dut_->accept_i = accepted;
    settle();
    Unpacker t(dut_->tok_o, kTokenUpdW);
    TokenUpd u;
    u.inc_valid = t.next(1);
    u.inc = t.next(SlotW);
    u.dec_valid = t.next(1);
    u.dec = t.next(SlotW);
    return u;
  }

  void clock() override {
    settle();
    dut_->clk_i = 1;
    dut_->eval();
  }

  bool busy() const override { return dut_->rootp->gs_policy_dss__DOT__st_q != kStIdle; }

 private:
  void settle() {
    Verilated::threadContextp(ctx_.get());
    dut_->clk_i = 0;
    dut_->eval();
  }

  /// ksrt_i, rank_i, smst_i, resident_i from the golden tables; entries beyond them are 0.
  void drive_tables(const DssUnitInputs& in) {
    Vgs_policy_dss& d = *dut_;
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

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vgs_policy_dss> dut_;
};

}  // namespace

std::unique_ptr<DssUnit> make_rtl_dss_unit() { return std::make_unique<RtlDssUnit>(); }

nlohmann::json run_rtl_unit(const std::string& block, const nlohmann::json& input) {
  if (block != "dss") return nullptr;
  const std::unique_ptr<DssUnit> unit = make_rtl_dss_unit();
  return run_dss_unit(*unit, input, "gsim unit dss (rtl)");
}

}  // namespace gs::rtl
