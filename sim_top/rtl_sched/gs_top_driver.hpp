// gsched rtl_sched: GsTopDriver<VModel, kTraced>, the one place that touches gs_top's ports.
//
// Include only from a .cpp that also includes the Verilated headers of VModel: <P>.h,
// <P>___024root.h (the fixed-point skip needs the root's size) and verilated_fst_c.h when
// kTraced. Every Verilated variant of gs_top (fast, traced, mutants)
// has the same ports, so one template drives them all. Per step: write the inputs, eval at
// clk=0, eval at clk=1 (the rising edge), read the outputs -- no allocation, narrow ports.
// Each driver owns its VerilatedContext, so several models can live in one process
// (lockstep replay, mutation tests). Verilator routes $error counting and scope teardown
// through the thread's current context (Verilated::threadContextp()), so the driver makes its
// own context current before every reset/step and before destroying the model -- otherwise
// errors land on another model's context, or teardown touches a context already freed.
// Assertion failures do not abort: fatalOnError(false), and the caller polls assertion_errors().
// tables() reads gs_top's tables (not ports: the simulation-only public access of
// gs_top_state.vlt) for the lockstep state check.
// Waveform time: one core cycle is 1 ns on the waveform's time axis (GTKWave reads cycles
// directly): the FST's time unit is 100 ps, cycle c is dumped at 10*c (clk low, c ns) and
// 10*c+5 (rising edge, c.5 ns); closing the file dumps the next cycle's start so the last
// cycle has its full width.
#pragma once
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

#include "gs_rtl_params.hpp"
#include "gs_rtl_ports.hpp"
#include "gs_top_port.hpp"
#include "rtl_sched/rtl_bits.hpp"
#include "rtl_sched/rtl_model.hpp"
#include "verilated.h"

namespace gs::rtl {

/// Writes `width` bits of `value` at bit `lsb` of a wide (VlWide) port.
template <std::size_t N>
inline void put_bits(VlWide<N>& port, unsigned lsb, unsigned width, uint64_t value) {
  for (unsigned b = 0; b < width; ++b) {
    const unsigned bit = lsb + b;
    const uint32_t mask = 1u << (bit % 32);
    if ((value >> b) & 1u) port[bit / 32] |= mask;
    else port[bit / 32] &= ~mask;
  }
}
/// Same for a port of at most 64 bits (plain integer).
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
inline void put_bits(T& port, unsigned lsb, unsigned width, uint64_t value) {
  const uint64_t mask = (width >= 64 ? ~0ull : ((1ull << width) - 1)) << lsb;
  port = static_cast<T>((uint64_t(port) & ~mask) | ((value << lsb) & mask));
}

template <class VModel, bool kTraced = false, class VTrace = void>
class GsTopDriver final : public RtlModel {
 public:
  /// `plusarg`: a "+NAME" the model's $test$plusargs sees (the lockstep mutant switches), or "".
  explicit GsTopDriver(const char* name, const std::string& plusarg = "")
      : name_(name), ctx_(std::make_unique<VerilatedContext>()) {
    ctx_->fatalOnError(false);
    // Always set: a model built with GS_MUTANTS calls $test$plusargs, which Verilator refuses
    // before commandArgs.
    const char* argv[] = {name, plusarg.c_str()};
    ctx_->commandArgs(plusarg.empty() ? 1 : 2, argv);
    if constexpr (kTraced) ctx_->traceEverOn(true);
    model_ = std::make_unique<VModel>(ctx_.get(), "TOP");  // waveform paths: TOP.gs_top.<signal>
  }
  ~GsTopDriver() override {
    Verilated::threadContextp(ctx_.get());
    close_wave();
    model_->final();
    model_.reset();
    Verilated::threadContextp(nullptr);
  }

  void reset(const PortConfig& cfg) override {
    Verilated::threadContextp(ctx_.get());
    close_wave();
    VModel& m = *model_;
    constexpr unsigned kSms = MaxSms;
    m.cfg_num_sms_i = cfg.num_sms;
    m.cfg_policy_i = cfg.policy;
    m.cfg_preempt_mode_i = cfg.preempt_mode;
    m.cfg_cta_limit_i = cfg.cta_limit;
    m.cfg_sm_exclusive_i = cfg.sm_exclusive;
    m.cfg_warp_scheds_i = cfg.warp_scheds;
    m.cfg_base_sm_i = cfg.base_sm;
    {
      unsigned at = spec::PolicySettingsW;  // policy_settings_t, MSB first
      spec::pack_settings(cfg.settings, "", [&](uint64_t bits, unsigned w) {
        at -= w;
        put_bits(m.cfg_settings_i, at, w, bits);
      });
    }
    constexpr unsigned kTypes = MaxSmTypes;
    put_array(m.cfg_type_threads_i, kTypes, port_width::cfg_type_threads_i / kTypes, cfg.type_threads);
    put_array(m.cfg_type_warps_i, kTypes, port_width::cfg_type_warps_i / kTypes, cfg.type_warps);
    put_array(m.cfg_type_regs_i, kTypes, port_width::cfg_type_regs_i / kTypes, cfg.type_regs);
    put_array(m.cfg_type_shmem_i, kTypes, port_width::cfg_type_shmem_i / kTypes, cfg.type_shmem);
    put_array(m.cfg_type_ctas_i, kTypes, port_width::cfg_type_ctas_i / kTypes, cfg.type_ctas);
    put_array(m.cfg_type_big_i, kTypes, 1, cfg.type_big);
    put_array(m.cfg_sm_type_i, kSms, port_width::cfg_sm_type_i / kSms, cfg.sm_type);
    drive(SchedInputs{});
    m.rst_ni = 0;
    for (int i = 0; i < kResetCycles; ++i) {
      m.clk_i = 0;
      m.eval();
      m.clk_i = 1;
      m.eval();
    }
    m.clk_i = 0;
    m.eval();
    m.rst_ni = 1;
    m.eval();
    cycle_ = 0;
    skipped_ = 0;
    fixed_point_ = false;
    sample(pending_);
  }

  SchedOutputs step(const SchedInputs& in) override {
    SchedOutputs out = pending_;  // registered at the last edge: this cycle's decisions
    Verilated::threadContextp(ctx_.get());
    if (fixed_point_ && same_port_values(in, last_in_)) {
      // Fixed-point skip (see FixedPoint below): the model's complete memory before the last
      // evaluated cycle equalled its memory after it, and the inputs have not changed since,
      // so evaluating this cycle would reproduce exactly the memory it already holds.
      ++cycle_;
      ++skipped_;
      return out;
    }
    drive(in);
    last_in_ = in;
    VModel& m = *model_;
    if (skip_enabled_) std::memcpy(pre_state_.get(), root_bytes(), kRootBytes);
    m.clk_i = 0;
    m.eval();
    dump(cycle_ * 10);
    m.clk_i = 1;
    m.eval();
    dump(cycle_ * 10 + 5);
    ++cycle_;
    if (skip_enabled_) fixed_point_ = std::memcmp(pre_state_.get(), root_bytes(), kRootBytes) == 0;
    sample(pending_);
    out.launch_ready = pending_.launch_ready;  // sampled after the edge (port contract)
    return out;
  }

  void set_fixed_point_skip(bool on) override {
    skip_enabled_ = on && !kTraced;
    fixed_point_ = false;
    if (skip_enabled_ && !pre_state_) pre_state_ = std::make_unique<unsigned char[]>(kRootBytes);
  }
  uint64_t skipped_cycles() const override { return skipped_; }

  bool open_wave(const std::string& path) override {
    if constexpr (kTraced) {
      close_wave();
      Verilated::threadContextp(ctx_.get());
      trace_ = std::make_unique<VTrace>();
      model_->trace(trace_.get(), 99);
      trace_->set_time_resolution("100ps");  // 10 units per cycle: 1 cycle = 1 ns on the axis
      trace_->open(path.c_str());
      return trace_->isOpen();
    } else {
      (void)path;
      return false;
    }
  }
  void close_wave() override {
    if constexpr (kTraced) {
      if (trace_) {
        model_->clk_i = 0;  // the next cycle's start (step() drives clk low first anyway)
        model_->eval();
        trace_->dump(cycle_ * 10);
        trace_->close();
        trace_.reset();
      }
    }
  }

  const lockstep::SchedTables& tables() override {
    if (!tables_) tables_ = std::make_unique<TableMirror>();
    TableMirror& t = *tables_;
    const Root& r = *model_->rootp;
    constexpr unsigned kSlots = lockstep::SchedTables::kSlots;
    constexpr unsigned kSms = lockstep::SchedTables::kSms;
    if (t.changed(t.ksrt, r.gs_top__DOT__ksrt))
      for (unsigned k = 0; k < kSlots; ++k) t.rec.ksrt[k] = get_rec<KsrtEntry>(t.ksrt, k * KsrtW);
    if (t.changed(t.smst, r.gs_top__DOT__smst))
      for (unsigned s = 0; s < kSms; ++s) t.rec.smst[s] = get_rec<SmstEntry>(t.smst, s * SmstW);
    if (t.changed(t.smst_pend_alloc, r.gs_top__DOT__smst_pend_alloc))
      t.rec.smst_pend_alloc = get_rec<SmstReq>(t.smst_pend_alloc);
    if (t.changed(t.smst_pend_free, r.gs_top__DOT__smst_pend_free))
      t.rec.smst_pend_free = get_rec<SmstReq>(t.smst_pend_free);
    if (t.changed(t.resident, r.gs_top__DOT__resident))
      for (unsigned i = 0; i < kSms * kSlots; ++i)
        t.rec.resident[i] = uint32_t(get_bits(t.resident, i * CtaCntW, CtaCntW));
    if (t.changed(t.ptbq_count, r.gs_top__DOT__ptbq_count))
      for (unsigned k = 0; k < kSlots; ++k)
        t.rec.ptbq_count[k] = uint32_t(get_bits(t.ptbq_count, k * PtbqCntW, PtbqCntW));
    if (t.changed(t.ptbq_head, r.gs_top__DOT__ptbq_head))
      for (unsigned k = 0; k < kSlots; ++k) t.rec.ptbq_head[k] = uint32_t(get_bits(t.ptbq_head, k * CtaIdW, CtaIdW));
    if (t.changed(t.ptbq_ready, r.gs_top__DOT__ptbq_ready)) t.rec.ptbq_ready = uint32_t(t.ptbq_ready);
    if (t.changed(t.ptbq_fill, r.gs_top__DOT__ptbq_fill)) t.rec.ptbq_fill = uint32_t(t.ptbq_fill);
    if (t.changed(t.rank, r.gs_top__DOT__rank))
      for (unsigned k = 0; k < kSlots; ++k) t.rec.rank[k] = uint32_t(get_bits(t.rank, k * SlotW, SlotW));
    if (t.changed(t.quota, r.gs_top__DOT__quota))
      for (unsigned i = 0; i < kSms * kSlots; ++i) t.rec.quota[i] = uint32_t(get_bits(t.quota, i * CtaCntW, CtaCntW));
    if (t.changed(t.quota_pending, r.gs_top__DOT__quota_pending))
      t.rec.quota_pending = get_rec<QuotaWr>(t.quota_pending);
    if (t.changed(t.policy_state, r.gs_top__DOT__policy_state))
      for (unsigned lsb = 0; lsb < PolicyStateW; lsb += 64) {
        const unsigned width = PolicyStateW - lsb < 64 ? PolicyStateW - lsb : 64;
        t.rec.policy_state.put(lsb, width, get_bits(t.policy_state, lsb, width));
      }
    if (t.changed(t.smd_ready, r.gs_top__DOT__smd_ready))
      for (unsigned s = 0; s < kSms; ++s) t.rec.smd_ready[s] = uint32_t(get_bits(t.smd_ready, s * kSlots, kSlots));
    if (t.changed(t.smd_dirty, r.gs_top__DOT__smd_dirty))
      for (unsigned s = 0; s < kSms; ++s) t.rec.smd_dirty[s] = uint8_t(get_bits(t.smd_dirty, s, 1));
    if (t.changed(t.smd_qdirty, r.gs_top__DOT__smd_qdirty))
      for (unsigned s = 0; s < kSms; ++s) t.rec.smd_qdirty[s] = uint8_t(get_bits(t.smd_qdirty, s, 1));
    if (t.changed(t.smd_waits, r.gs_top__DOT__smd_waits)) t.rec.smd_waits = uint32_t(t.smd_waits);
    if (t.changed(t.smd_cand, r.gs_top__DOT__smd_cand))
      for (unsigned s = 0; s < kSms; ++s) t.rec.smd_cand[s] = uint8_t(get_bits(t.smd_cand, s, 1));
    if (t.changed(t.smd_cand_slot, r.gs_top__DOT__smd_cand_slot))
      for (unsigned s = 0; s < kSms; ++s) t.rec.smd_cand_slot[s] = uint8_t(get_bits(t.smd_cand_slot, s * SlotW, SlotW));
    if (t.decoded) ++t.rec.version;
    t.decoded = false;
    t.first = false;
    return t.rec;
  }

  int assertion_errors() const override { return ctx_->errorCount(); }
  uint64_t cycle() const override { return cycle_; }
  const char* model_name() const override { return name_; }

 private:
  static constexpr int kResetCycles = 4;
  // FixedPoint: Verilator keeps every signal, register, trigger and input port of the design
  // in one root object (modules are inlined; packages hold constants only). A step is a
  // deterministic function of that memory, so if the bytes before a step (inputs driven,
  // clk_i = 1) equal the bytes after it, the model sits at a fixed point: the next step with
  // the same inputs yields the same bytes and the same outputs, and can be skipped. Any state
  // that moves (a counter, a scan pointer, an FSM) makes the bytes differ and disables the
  // skip; a changed input re-enables evaluation. Traced models never skip (the trace
  // bookkeeping lives in the same memory and waveforms want every edge anyway).
  using Root = std::remove_pointer_t<decltype(std::declval<VModel&>().rootp)>;
  static constexpr std::size_t kRootBytes = sizeof(Root);
  const unsigned char* root_bytes() const { return reinterpret_cast<const unsigned char*>(model_->rootp); }

  template <class Port>
  static void put_array(Port& port, unsigned count, unsigned width, const std::vector<uint32_t>& values) {
    for (unsigned i = 0; i < count; ++i) put_bits(port, i * width, width, i < values.size() ? values[i] : 0);
  }

  // The port groups' drive/sample are generated from the spec (gs_top_port.hpp); each port's
  // width is checked against the Verilated model's here.
#define GS_CHECK_PORT_WIDTH(port, width) \
  static_assert(port_width::port == (width), "gs_top port " #port " differs from rtl/spec/gs_spec.toml");
  GS_PORT_FIELDS(GS_CHECK_PORT_WIDTH)
#undef GS_CHECK_PORT_WIDTH

  void drive(const SchedInputs& in) { port::drive_inputs(*model_, in); }

  /// Whether drive(a) and drive(b) write the same port values (the cycle number is not a port).
  static bool same_port_values(const SchedInputs& a, const SchedInputs& b) { return port::same_port_inputs(a, b); }

  void sample(SchedOutputs& o) const {
    port::sample_outputs(*model_, o);
    o.launch_ready = model_->launch_ready_o;
  }

  void dump(uint64_t time) {
    if constexpr (kTraced) {
      if (trace_) trace_->dump(time);
    } else {
      (void)time;
    }
  }

  // tables(): the last bits read from gs_top's table signals and their decoded records. Only a
  // table whose bits changed is decoded again: the compare is a memcmp of under 1 KiB, the
  // bit-by-bit unpack is the costly part. A cycle skipped at the fixed point (step()) changed
  // no bit, so it decodes nothing.
  struct TableMirror {
    decltype(Root::gs_top__DOT__ksrt) ksrt{};
    decltype(Root::gs_top__DOT__smst) smst{};
    decltype(Root::gs_top__DOT__smst_pend_alloc) smst_pend_alloc{};
    decltype(Root::gs_top__DOT__smst_pend_free) smst_pend_free{};
    decltype(Root::gs_top__DOT__resident) resident{};
    decltype(Root::gs_top__DOT__ptbq_count) ptbq_count{};
    decltype(Root::gs_top__DOT__ptbq_head) ptbq_head{};
    decltype(Root::gs_top__DOT__ptbq_ready) ptbq_ready{};
    decltype(Root::gs_top__DOT__ptbq_fill) ptbq_fill{};
    decltype(Root::gs_top__DOT__rank) rank{};
    decltype(Root::gs_top__DOT__quota) quota{};
    decltype(Root::gs_top__DOT__quota_pending) quota_pending{};
    decltype(Root::gs_top__DOT__policy_state) policy_state{};
    decltype(Root::gs_top__DOT__smd_ready) smd_ready{};
    decltype(Root::gs_top__DOT__smd_dirty) smd_dirty{};
    decltype(Root::gs_top__DOT__smd_qdirty) smd_qdirty{};
    decltype(Root::gs_top__DOT__smd_waits) smd_waits{};
    decltype(Root::gs_top__DOT__smd_cand) smd_cand{};
    decltype(Root::gs_top__DOT__smd_cand_slot) smd_cand_slot{};
    lockstep::SchedTables rec;
    bool first = true;     // nothing decoded yet
    bool decoded = false;  // a table was decoded in this read
    template <class Sig>
    bool changed(Sig& mine, const Sig& now) {
      if (!first && std::memcmp(&mine, &now, sizeof(Sig)) == 0) return false;
      std::memcpy(&mine, &now, sizeof(Sig));
      decoded = true;
      return true;
    }
  };
  std::unique_ptr<TableMirror> tables_;

  const char* name_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VModel> model_;
  std::unique_ptr<std::conditional_t<kTraced, VTrace, int>> trace_;
  uint64_t cycle_ = 0;
  SchedOutputs pending_;
  bool skip_enabled_ = false;
  bool fixed_point_ = false;
  uint64_t skipped_ = 0;
  SchedInputs last_in_;
  std::unique_ptr<unsigned char[]> pre_state_;
};

}  // namespace gs::rtl
