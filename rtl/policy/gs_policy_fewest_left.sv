// gs_policy_fewest_left: fewest CTAs left first, a structural stand-in for shortest-job-first.
// Contract and timing: docs/rtl/gs_policy_fewest_left.md
//
// The kernel with the fewest CTAs still to issue (fresh + preempted) goes first (Pai et al.
// Sec. 6 compare against SJF with known runtimes; this needs no prediction). Ties by arrival.
// Every SM eligible, no quota, no preemption. It is also the template of
// docs/adding-a-policy.md: a policy is this module, its twin, its spec entry and its page.
//
// key[k] = {pos_k, rank_k}, pos_k = number of kernels j with CTAs to issue that come before k:
// left_j < left_k, or left_j == left_k and rank_j < rank_k (left = grid - next_cta + PTBQ,
// FlLeftW bits). Four registered stages (closes 4 ns at 132 SMs; no adder or compare wider
// than FlLoW + 2 bits starts at an input, every output is a register):
//   1. per slot: the low FlLoW bits of grid + ~next_cta + 1 + PTBQ count and their carry
//      (0..2), the high bits of grid + ~next_cta; pending and ranks;
//   2. per slot: left = {high + carry, low};
//   3. the MaxKernels^2 "j comes before k" bits (FlLeftW-bit compares, split in halves);
//   4. key = {popcount of k's row, rank}, driven on out_o.key.
// Latency 4: out_o.key in cycle t is the order of the tables of cycle t-4.
// Storage (MaxKernels 8, CtaIdW 20): 8 x (11 + 2 + 10) + 8 + 24; 8 x 21 + 8 + 24; 64 + 24; 56
// = 560 b (fl_state_t).
module gs_policy_fewest_left (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::fl_state_t     state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int LW = gs_pkg::FlLeftW;    // grid - next_cta + PTBQ count, modulo 2**LW
  localparam int LO = gs_pkg::FlLoW;
  localparam int HI = gs_pkg::FlHiW;
  localparam int GH = gs_pkg::FlSumHiW;   // grid / next_cta bits above the low part
  localparam int KW = gs_pkg::OrderKeyW;
  localparam int PW = gs_pkg::PrioW;

  // flat local copies: indexed reads and writes never go through a struct member (Yosys 0.23)
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [K*gs_pkg::PtbqCntW-1:0] ptbq_count;
  logic [K*SW-1:0] rank;
  gs_pkg::slot_mask_t pending;
  assign ksrt = view_i.ksrt;
  assign ptbq_count = view_i.ptbq_count;
  assign rank = view_i.rank;
  assign pending = view_i.pending;

  logic [K*LO-1:0] lo_q, lo_d;
  logic [K*2-1:0] cy_q, cy_d;
  logic [K*HI-1:0] hi_q, hi_d;
  gs_pkg::slot_mask_t pend1_q, pend2_q;
  logic [K*SW-1:0] rank1_q, rank2_q, rank3_q;
  logic [K*LW-1:0] left_q, left_d;
  logic [K*K-1:0] ahead_q, ahead_d;
  logic [K*KW-1:0] key_q, key_d;

  gs_pkg::ksrt_entry_t e;   // grid and next_cta are read
  // the operands zero-extended by hand (no sized casts of expressions: the Yosys 0.23 subset)
  logic [LO+1:0] g_lo, nc_lo, cnt;   // grid, ~next_cta (low parts), PTBQ count
  logic [HI-1:0] g_hi, nc_hi;        // grid, ~next_cta (high parts, next_cta zero-extended)
  logic [LO+1:0] lo_sum;
  logic [HI-1:0] hi_sum;

  // stage 1: split sums, each at most FlLoW + 2 bits of carry chain after an input
  always_comb begin
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      // grid - next_cta + count = grid + ~next_cta + 1 + count, next_cta zero-extended to LW
      g_lo = '0;
      g_lo[LO-1:0] = e.grid[LO-1:0];
      nc_lo = '0;
      nc_lo[LO-1:0] = ~e.next_cta[LO-1:0];
      cnt = '0;
      cnt[gs_pkg::PtbqCntW-1:0] = ptbq_count[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW];
      g_hi = '0;
      g_hi[GH-1:0] = e.grid[gs_pkg::CtaIdW-1:LO];
      nc_hi = '1;
      nc_hi[GH-1:0] = ~e.next_cta[gs_pkg::CtaIdW-1:LO];
      lo_sum = g_lo + nc_lo + cnt + 1'b1;
      hi_sum = g_hi + nc_hi;
      lo_d[k*LO +: LO] = lo_sum[LO-1:0];
      cy_d[k*2 +: 2] = lo_sum[LO +: 2];
      hi_d[k*HI +: HI] = hi_sum;
    end
  end

  // stage 2: the high part takes the low part's carry
  logic [HI-1:0] cy;
  always_comb begin
    cy = '0;
    for (int k = 0; k < K; k++) begin
`ifdef GS_MUT_FL_CARRY_LOST
      // (MUTATION GS_MUT_FL_CARRY_LOST: the low part's carry never reaches the high part)
      left_d[k*LW +: LW] = {hi_q[k*HI +: HI], lo_q[k*LO +: LO]};
`else
      cy = '0;
      cy[1:0] = cy_q[k*2 +: 2];
      left_d[k*LW +: LW] = {hi_q[k*HI +: HI] + cy, lo_q[k*LO +: LO]};
`endif
    end
  end

  // stage 3: j before k -- fewer left, or as many and older; compared in two halves
  logic [HI-1:0] hj, hk;
  logic [LO-1:0] lj, lk;
  logic lt, eq;
  always_comb begin
    for (int k = 0; k < K; k++) begin
      for (int j = 0; j < K; j++) begin
        hj = left_q[j*LW + LO +: HI];
        hk = left_q[k*LW + LO +: HI];
        lj = left_q[j*LW +: LO];
        lk = left_q[k*LW +: LO];
        lt = (hj < hk) || (hj == hk && lj < lk);
        eq = (hj == hk) && (lj == lk);
`ifdef GS_MUT_FL_PENDING_IGNORED
        // (MUTATION GS_MUT_FL_PENDING_IGNORED: kernels without CTAs to issue count too)
        ahead_d[k*K + j] = (lt || (eq && rank2_q[j*SW +: SW] < rank2_q[k*SW +: SW]));
`else
        ahead_d[k*K + j] = pend2_q[j] && (lt || (eq && rank2_q[j*SW +: SW] < rank2_q[k*SW +: SW]));
`endif
      end
    end
  end

  // stage 4: the position is the number of kernels before
  logic [PW-1:0] pos;
  always_comb begin
    for (int k = 0; k < K; k++) begin
      pos = '0;
      for (int j = 0; j < K; j++) pos = pos + {{(PW-1){1'b0}}, ahead_q[k*K + j]};
      key_d[k*KW +: KW] = {pos, rank3_q[k*SW +: SW]};
    end
  end

  always_comb begin
    out_o = '0;
    out_o.key = key_q;
    out_o.elig = '1;
  end

  always_comb begin
    state_o = '0;
    state_o.lo = lo_q;
    state_o.cy = cy_q;
    state_o.hi = hi_q;
    state_o.pend1 = pend1_q;
    state_o.rank1 = rank1_q;
    state_o.left = left_q;
    state_o.pend2 = pend2_q;
    state_o.rank2 = rank2_q;
    state_o.ahead = ahead_q;
    state_o.rank3 = rank3_q;
    state_o.key = key_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      lo_q <= '0;
      cy_q <= '0;
      hi_q <= '0;
      pend1_q <= '0;
      rank1_q <= '0;
      left_q <= '0;
      pend2_q <= '0;
      rank2_q <= '0;
      ahead_q <= '0;
      rank3_q <= '0;
      key_q <= '0;
    end else begin
      lo_q <= lo_d;
      cy_q <= cy_d;
      hi_q <= hi_d;
      pend1_q <= pending;
      rank1_q <= rank;
      left_q <= left_d;
      pend2_q <= pend1_q;
      rank2_q <= rank1_q;
      ahead_q <= ahead_d;
      rank3_q <= rank2_q;
      key_q <= key_d;
    end
  end

`ifndef SYNTHESIS
  // the position (0..MaxKernels-1) must fit the priority field of the order key
  initial if ((1 << gs_pkg::PrioW) < K) $fatal(1, "gs_policy_fewest_left: PrioW too narrow for MaxKernels");
`endif
endmodule
