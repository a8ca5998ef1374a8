// gs_policy_left_over: Left-Over / FIFO (Warped-Slicer Sec. III, Fig. 2b; the Hyper-Q default).
// Contract and timing: docs/rtl/gs_policy_left_over.md
//
// Kernels are ordered by arrival (Active Queue rank): the SM driver gives every SM to the
// oldest kernel whose CTA fits and a younger kernel only gets what older ones leave over.
// No reservation, no preemption, no quota (the framework's cta_limit still applies). With
// cfg_i.sm_exclusive (gsim --sm-sharing exclusive) an SM serves one kernel at a time
// (gs_excl_elig): FCFS as Tanasic runs it (Sec. 2.3), otherwise leftovers are shared.
// Purely combinational. Policy contract: docs/adding-a-policy.md.
module gs_policy_left_over (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o
);
  logic [gs_pkg::MaxKernels*gs_pkg::OrderKeyW-1:0] key;
  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0] elig;
  gs_excl_elig u_excl (.en_i(cfg_i.sm_exclusive), .resident_i(view_i.resident), .elig_o(elig));
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .key_o(key));

  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
  end
endmodule
