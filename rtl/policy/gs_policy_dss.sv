// gs_policy_dss: Dynamic Spatial Sharing (Tanasic Sec. 3.4, Algorithm 1) on the policy contract.
// Contract and timing: docs/rtl/dss.md
//
// Policy contract: docs/adding-a-policy.md.
// The decisions are gs_dss_unit's (token-based SM assignment, preemption of an SM of the
// kernel with the fewest tokens); this module wires it to the contract: the unit is woken by
// any event (a kernel admitted or finished, any SM event), an SM issues only CTAs of its owner
// (gs_owner_elig), kernels are ordered by arrival. The token move of a preemption is output
// unmasked: gs_top applies it only if gs_preempt_ctrl accepts the request (the contract keeps
// out_o independent of accept_i). Storage: gs_dss_unit's.
module gs_policy_dss (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::dss_state_t   state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;

  logic trigger;
  assign trigger = event_i.ev_valid || event_i.alloc_valid || (event_i.slot_free != '0);

  gs_pkg::owner_wr_t owner_wr;
  gs_pkg::token_upd_t tok_accepted;   // the unit's own masking; gs_top applies the contract's
  gs_pkg::token_upd_t tok;
  gs_pkg::preempt_req_t req;
  gs_dss_unit u_unit (
    .clk_i, .rst_ni, .en_i, .cfg_num_sms_i(cfg_i.num_sms),
    .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .pending_i(view_i.pending), .smst_i(view_i.smst),
    .resident_i(view_i.resident), .trigger_i(trigger), .accept_i,
    .owner_wr_o(owner_wr), .tok_o(tok_accepted), .tok_req_o(tok), .req_o(req), .state_o
  );

  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .key_o(key));
  logic [N*K-1:0] elig;
  gs_owner_elig u_elig (.smst_i(view_i.smst), .elig_o(elig));

  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
    out_o.owner_wr = owner_wr;
    out_o.tok = tok;
    out_o.req = req;
  end
endmodule
