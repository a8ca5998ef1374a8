// gs_policy_fewest_left: fewest CTAs left first, a structural stand-in for shortest-job-first.
// Contract and timing: docs/rtl/gs_policy_fewest_left.md
//
// The kernel with the fewest CTAs still to issue (fresh + preempted) goes first (Pai et al.
// Sec. 6 compare against SJF with known runtimes; this needs no prediction). Ties by arrival.
// Every SM eligible, no quota, no preemption. It is also the template of
// docs/adding-a-policy.md: a policy is this module, its twin, its spec entry and its page.
//
// key[k] = {pos_k, rank_k}, pos_k = number of kernels j with CTAs to issue that come before k:
// left_j < left_k, or left_j == left_k and rank_j < rank_k (left = grid - next_cta + PTBQ).
// Combinational (MaxKernels^2 comparisons of CtaIdW+1-bit counts), no storage.
module gs_policy_fewest_left (
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
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int LW = gs_pkg::CtaIdW + 1;   // grid - next_cta + PTBQ count < 2**(CtaIdW+1)

  // flat local copies: indexed reads and writes never go through a struct member (Yosys 0.23)
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [K*gs_pkg::PtbqCntW-1:0] ptbq_count;
  logic [K*SW-1:0] rank;
  gs_pkg::slot_mask_t pending;
  assign ksrt = view_i.ksrt;
  assign ptbq_count = view_i.ptbq_count;
  assign rank = view_i.rank;
  assign pending = view_i.pending;

  logic [K*LW-1:0] left;
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  logic [gs_pkg::PrioW-1:0] pos;
  gs_pkg::ksrt_entry_t e;   // grid and next_cta are read

  always_comb begin
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      left[k*LW +: LW] = LW'(e.grid - e.next_cta) + LW'(ptbq_count[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW]);
    end
    for (int k = 0; k < K; k++) begin
      pos = '0;
      for (int j = 0; j < K; j++) begin
        if (pending[j] && (left[j*LW +: LW] < left[k*LW +: LW] ||
            (left[j*LW +: LW] == left[k*LW +: LW] && rank[j*SW +: SW] < rank[k*SW +: SW]))) begin
          pos = pos + 1'b1;
        end
      end
      key[k*gs_pkg::OrderKeyW +: gs_pkg::OrderKeyW] = {pos, rank[k*SW +: SW]};
    end
  end

  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = '1;
  end

`ifndef SYNTHESIS
  // the position (0..MaxKernels-1) must fit the priority field of the order key
  initial if ((1 << gs_pkg::PrioW) < K) $fatal(1, "gs_policy_fewest_left: PrioW too narrow for MaxKernels");
`endif
endmodule
