// gs_policy_srtf_slicer: SRTF inside Warped-Slicer -- a combination of two papers' policies.
// Contract and timing: docs/rtl/gs_policy_srtf_slicer.md
//
// Warped-Slicer (Xu et al., ISCA 2016, Sec. IV) decides how the SMs are shared: its profile,
// water-filled partition (per-SM CTA quotas), spatial fallback and SM ownership, unchanged.
// SRTF (Pai et al., PACT 2014, Sec. 5.1.1) decides who goes first inside that partition: the SM
// driver's order is SRTF's order of the kernels by predicted remaining time (Simple Slicing,
// Sec. 4), so on an SM where two kernels are under their quotas the one nearer its end issues
// first. Built from the two parents' modules, unchanged: out_o is Warped-Slicer's with the key
// of a gs_policy_srtf that runs as SRTF/Adaptive (whose key is the SRTF order, ord, with the
// kernels still unpredicted after the predicted ones in arrival order). SRTF's own eligibility
// (every SM serves the shortest kernel; sampling on SM 0; the adaptive sharing) is not taken:
// Warped-Slicer's partition is the sharing.
// Storage: the parents' registers (srtf_slicer_state_t); latency: the parents' (the key follows
// gs_policy_srtf's order sweep, the quotas gs_policy_warped_slicer's states).
// Policy contract: docs/adding-a-policy.md. Golden twin: cmodel/sched/golden/gs_policy_srtf_slicer.hpp.
module gs_policy_srtf_slicer (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     en_i,
  input  gs_pkg::policy_e          policy_i,
  input  gs_pkg::policy_cfg_t      cfg_i,
  input  gs_pkg::policy_settings_t set_i,   // every section: its parents' (settings_of)
  input  gs_pkg::policy_view_t     view_i,
  input  gs_pkg::policy_event_t    event_i,
  input  logic                     accept_i,
  output gs_pkg::policy_out_t      out_o,
  output gs_pkg::srtf_slicer_state_t state_o,  // the parents' registers (lockstep state check)
  output gs_pkg::prof_ctl_t        prof_o,    // Warped-Slicer's profile on gs_policies' gs_prof_counters
  input  gs_pkg::prof_rd_t         prof_i
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_ss_slicer_order, "GS_MUT_SS_SLICER_ORDER")
  `GS_MUTANT(mut_ss_srtf_elig, "GS_MUT_SS_SRTF_ELIG")
  gs_pkg::policy_out_t out_ws, out_srtf;

  gs_policy_warped_slicer u_ws (
    .clk_i, .rst_ni, .en_i, .policy_i, .cfg_i, .set_i(set_i.warped_slicer), .view_i, .event_i, .accept_i,
    .out_o(out_ws), .state_o(state_o.ws), .prof_o, .prof_i
  );

  // SRTF/Adaptive's key is the SRTF order; it requests no preemption, so it takes no accept
  gs_policy_srtf u_srtf (
    .clk_i, .rst_ni, .en_i, .policy_i(gs_pkg::POL_SRTF_ADAPTIVE), .cfg_i, .set_i(set_i.srtf), .view_i, .event_i,
    .accept_i(1'b0), .out_o(out_srtf), .state_o(state_o.srtf)
  );

  always_comb begin
    out_o = out_ws;
    // mutants: Warped-Slicer's own order kept; SRTF's eligibility (one kernel per SM) ANDed in
    if (!mut_ss_slicer_order) out_o.key = out_srtf.key;
    if (mut_ss_srtf_elig) out_o.elig = out_ws.elig & out_srtf.elig;
  end
endmodule
