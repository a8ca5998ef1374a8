// gs_policy_npq: non-preemptive priority queues (Tanasic Sec. 4.2, "NPQ").
// Contract and timing: docs/rtl/gs_policy_npq.md
//
// The SM driver issues the highest-priority kernel that fits (ties: oldest first); lower
// priorities take what is left over. Running CTAs are never preempted, so a high-priority
// kernel waits for resources to free up. With cfg_i.sm_exclusive an SM serves one kernel at a
// time (gs_excl_elig), as on Tanasic's Kepler. Purely combinational; PPQ uses the same order.
// Policy contract: docs/adding-a-policy.md.
module gs_policy_npq (
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
  gs_order_keys u_keys (.prio_en_i(1'b1), .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .key_o(key));

  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
  end
endmodule
