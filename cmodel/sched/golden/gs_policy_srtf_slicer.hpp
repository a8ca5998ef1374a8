// gsched golden twin of rtl/policy/gs_policy_srtf_slicer.sv (SRTF inside Warped-Slicer): the
// twins of its two parents, as the module holds their modules. out = Warped-Slicer's, with the
// key of the SRTF twin run as SRTF/Adaptive (the SRTF order); its state record is the parents'
// (srtf_slicer_state_t), its reports Warped-Slicer's partitions. docs/rtl/gs_policy_srtf_slicer.md.
#pragma once
#include "sched/golden/gs_policy.hpp"
#include "sched/golden/gs_policy_srtf.hpp"
#include "sched/golden/gs_policy_warped_slicer.hpp"

namespace gs::golden {

class PolicySrtfSlicer final : public PolicyTwin {
 public:
  PolicyWarpedSlicer ws;  // u_ws
  PolicySrtf srtf;        // u_srtf

  void reset(const PolicyCfg& cfg) override {
    ws.reset(cfg);
    srtf_cfg_ = cfg;  // static after reset (gs_top registers cfg_i)
    srtf_cfg_.policy = Policy::kSrtfAdaptive;
    srtf.reset(srtf_cfg_);
    ws_out_.size(cfg.num_sms, cfg.slots);
    srtf_out_.size(cfg.num_sms, cfg.slots);
  }

  void comb(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, PolicyOut& out) const override {
    ws_out_.clear();
    srtf_out_.clear();
    ws.comb(cfg, v, ev, ws_out_);
    srtf.comb(srtf_cfg_, v, ev, srtf_out_);
    out = ws_out_;  // the sizes match: no allocation
    out.key = srtf_out_.key;
  }

  void next(const PolicyCfg& cfg, const PolicyView& v, const PolicyEvent& ev, const PolicyOut&,
            bool accepted) override {
    ws.next(cfg, v, ev, ws_out_, accepted);
    srtf.next(srtf_cfg_, v, ev, srtf_out_, false);  // u_srtf's accept_i is 0
  }

  void commit() override {
    ws.commit();
    srtf.commit();
  }

  void state(PolicyState& st) const override {
    st.clear();
    spec::pack_srtf_slicer_state_t(st, 0, *this, NestedPolicyState<spec::WsStateW>{ws},
                                   NestedPolicyState<spec::SrtfStateW>{srtf});
  }

  /// Warped-Slicer's partitions (SRTF/Adaptive's sharing is not in force here).
  void report(PolicyRecordSink& sink) const override { ws.report(sink); }

 private:
  PolicyCfg srtf_cfg_;
  mutable PolicyOut ws_out_, srtf_out_;  // the parents' out_o of this cycle (comb), for next()
};

}  // namespace gs::golden
