// gs_sbm_ctrl: SBM's profiling flow (Bitalebi et al., Sec. 3.2), ending in SBM_REG (Table 4).
// Contract and timing: docs/rtl/gs_sbm_ctrl.md
//
// Algorithm 1 (cache friendliness) and Algorithm 2 (Compute Unit utilization) as a sequence of
// profiling phases, at most nine: Base, B1_L12, B2_L12, B1_L2, B2_L2 (Algorithm 1), then up to
// four tuning phases (Algorithm 2, occ_th = 0..3); the page has each phase's configuration and
// every choice the prose of Sec. 3.2 leaves open.
// The policy (gs_policy_sbm) runs each phase's configuration (cfg_o) for one profiling window
// and hands back the instructions both tasks issued in it (res_valid_i, res1_i, res2_i; every
// window is as long, so instructions compare as IPC does). start_i (re)starts at phase 0 (a new
// task pair); occ1_i/occ2_i are the tasks' occupancies of one SM, read while tuning. Integer
// comparisons only; the twin is gs_sbm_ctrl.hpp.
// A result is taken into registers (res1_i, res2_i) and summed and compared in chunks of
// ArithChunkW bits, carries and compare flags registered (no carry chain wider than
// ArithChunkW per cycle); res_valid_i is ignored meanwhile. The policy holds its result until
// res_ack_o.
// Storage: sbm_ctrl_state_t, 320 bits (SbmIpcW = 41, SbmChunks = 3).
// Latency: a result taken at edge t is decided at edge t + 2 x SbmChunks + 1 = t+7 (res_ack_o
// in the cycle before it): the next phase's cfg_o from cycle t+8 (or, after the last phase,
// busy_o low and the final SBM_REG on cfg_o from t+8).
module gs_sbm_ctrl (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          start_i,
  input  gs_pkg::cta_cnt_t              occ1_i,
  input  gs_pkg::cta_cnt_t              occ2_i,
  input  logic                          res_valid_i,
  input  logic [gs_pkg::SbmInstW-1:0]   res1_i,
  input  logic [gs_pkg::SbmInstW-1:0]   res2_i,
  output gs_pkg::sbm_reg_t              cfg_o,
  output logic                          busy_o,
  output logic                          res_ack_o,   // the result's decision registers at this edge
  output gs_pkg::sbm_ctrl_state_t       state_o
);
  localparam int IW = gs_pkg::SbmIpcW;
  localparam int CW = gs_pkg::CtaCntW;

  gs_pkg::sbm_ctrl_state_t q, d;

  // ------------------------------------------------------------------ the phase's configuration
  gs_pkg::sbm_reg_t phase_cfg;
  logic [1:0] t_now;               // tuning phase t (phase - 5)
  always_comb begin
    t_now = 2'(q.phase - gs_pkg::PH_TUNE0);
    phase_cfg = '0;
    unique case (q.phase)
      gs_pkg::PH_BASE: phase_cfg.arch = gs_pkg::SBM_BASE;
      gs_pkg::PH_B1_L12: begin phase_cfg.arch = gs_pkg::SBM_B_L12; phase_cfg.fcache = 1'b1; end
      gs_pkg::PH_B2_L12: begin phase_cfg.arch = gs_pkg::SBM_B_L12; phase_cfg.fcache = 1'b0; end
      gs_pkg::PH_B1_L2: begin phase_cfg.arch = gs_pkg::SBM_B_L2; phase_cfg.fcache = 1'b1; end
      gs_pkg::PH_B2_L2: begin phase_cfg.arch = gs_pkg::SBM_B_L2; phase_cfg.fcache = 1'b0; end
      default: begin
        phase_cfg.arch = (q.alg1.arch == gs_pkg::SBM_BASE) ? gs_pkg::SBM_MWG : gs_pkg::SBM_MWGB;
        phase_cfg.fcache = q.alg1.fcache;
        phase_cfg.ci = q.ci;
        phase_cfg.occ_th = t_now;
      end
    endcase
    cfg_o = q.busy ? phase_cfg : q.sbm_reg;
    busy_o = q.busy;
  end

  // ------------------------------------------------------------------ a result, in chunks
  // A result taken at an edge (res1_i into acc, res2_i into r2) is worked on over the next
  // 2 x NC + 1 cycles, step k (q.k), every carry chain at most CH bits:
  //   k = 0 .. NC-1   sum chunk k into acc (carry cy), ci_gt: res2 > res1 (LSB first)
  //   k = 1 .. NC     compare A, chunk k-1: p > the phase's reference (ga); at k = NC the
  //                   phase's registers (p_base, p12/b12, p2/b2, p_tune/t_best) take p
  //   k = NC+1 .. 2NC compare B, chunk k-NC-1: p12 > p2 or p_tune > p_alg1 (gb), p2 > p_base (gc)
  //   k = 2 NC        the decision: the next phase, Algorithm 1's choice or SBM_REG (res_ack_o)
  // An LSB-first compare: a chunk that differs decides, an equal one keeps the lower chunks' flag.
  localparam int NC = gs_pkg::SbmChunks;
  localparam int CH = gs_pkg::ArithChunkW;
  localparam int SW = gs_pkg::SbmStepW;
  localparam logic [SW-1:0] KCmpA = SW'(NC), KLast = SW'(2 * NC);

  logic [NC*CH-1:0] acc_x, r2_x, refa_x, b1l_x, b1r_x, b2l_x, b2r_x;
  logic [CH-1:0] s_a, s_b, a_l, a_r, b1_l, b1_r, b2_l, b2_r;   // this step's chunks
  logic [CH:0] s_sum;
  logic [SW-1:0] ka, kb;           // compare A's and compare B's chunk
  logic ga_nx, gb_nx, gc_nx, ci_gt_nx;
  logic improved, can_step, ci_fin;
  logic [2:0] t_step;              // the next tuning phase's occ_th
  gs_pkg::cta_cnt_t occ_ci, occ_other;
  always_comb begin
    acc_x = (NC*CH)'(q.acc);
    r2_x = (NC*CH)'(q.r2);
    // compare A's reference: the better L12 / L2 phase so far, or the best tuning phase
    unique case (q.phase)
      gs_pkg::PH_B2_L12: refa_x = (NC*CH)'(q.p12);
      gs_pkg::PH_B2_L2: refa_x = (NC*CH)'(q.p2);
      default: refa_x = (NC*CH)'(q.p_tune);
    endcase
    // compare B: Algorithm 1 (p12 > p2, p2 > p_base) or the end of tuning (p_tune > p_alg1)
    b1l_x = (q.phase == gs_pkg::PH_B2_L2) ? (NC*CH)'(q.p12) : (NC*CH)'(q.p_tune);
`ifdef GS_MUT_SBM_L12_VS_BASE
    b1r_x = (q.phase == gs_pkg::PH_B2_L2) ? (NC*CH)'(q.p_base) : (NC*CH)'(q.p_alg1);   // BUG: B_L12 is weighed against Base, not against B_L2
`else
    b1r_x = (q.phase == gs_pkg::PH_B2_L2) ? (NC*CH)'(q.p2) : (NC*CH)'(q.p_alg1);
`endif
    b2l_x = (NC*CH)'(q.p2);
    b2r_x = (NC*CH)'(q.p_base);
    ka = q.k - SW'(1);
    kb = q.k - SW'(NC + 1);
    s_a = '0;
    s_b = '0;
    a_l = '0;
    a_r = '0;
    b1_l = '0;
    b1_r = '0;
    b2_l = '0;
    b2_r = '0;
    for (int c = 0; c < NC; c++) begin
      if (q.k == SW'(c)) begin
        s_a = acc_x[c*CH +: CH];
        s_b = r2_x[c*CH +: CH];
      end
      if (ka == SW'(c)) begin
        a_l = acc_x[c*CH +: CH];
        a_r = refa_x[c*CH +: CH];
      end
      if (kb == SW'(c)) begin
        b1_l = b1l_x[c*CH +: CH];
        b1_r = b1r_x[c*CH +: CH];
        b2_l = b2l_x[c*CH +: CH];
        b2_r = b2r_x[c*CH +: CH];
      end
    end
    s_sum = (CH + 1)'(s_a) + (CH + 1)'(s_b) + (CH + 1)'(q.cy);
    ci_gt_nx = (s_b > s_a) || (s_b == s_a && q.ci_gt);
    ga_nx = (a_l > a_r) || (a_l == a_r && q.ga);
    gb_nx = (b1_l > b1_r) || (b1_l == b1_r && q.gb);
    gc_nx = (b2_l > b2_r) || (b2_l == b2_r && q.gc);
    // tuning: phase 0 sets the reference; a later phase counts only if the IPC improved
`ifdef GS_MUT_SBM_TUNE_NO_STOP
    improved = q.phase == gs_pkg::PH_TUNE0 || 1'b1;   // BUG: a tuning phase that lost IPC is kept and tuning goes on
`else
    improved = q.phase == gs_pkg::PH_TUNE0 || ga_nx;
`endif
    // the decision (k = 2 NC): ga holds whether the tuning phase counted
    ci_fin = (q.phase == gs_pkg::PH_TUNE0) ? q.ci_gt : q.ci;
    occ_ci = ci_fin ? occ2_i : occ1_i;
    occ_other = ci_fin ? occ1_i : occ2_i;
    t_step = 3'(t_now) + 3'd1;
    can_step = q.ga && q.phase != gs_pkg::PH_TUNE3 && ((CW + 1)'(occ_other) >> 1) > (CW + 1)'(t_step) &&
               ((CW + 1)'(occ_ci) >> 1) + (CW + 1)'(t_step) <= (CW + 1)'(occ_ci);
    res_ack_o = q.calc && q.k == KLast;
  end

  // ------------------------------------------------------------------ next state
  always_comb begin
    d = q;
    if (start_i) begin
      d.busy = 1'b1;
      d.phase = gs_pkg::PH_BASE;
      d.done = 1'b0;
      d.calc = 1'b0;
      d.k = '0;
    end else if (res_valid_i && q.busy && !q.calc) begin   // take the result
      d.calc = 1'b1;
      d.k = '0;
      d.acc = IW'(res1_i);
      d.r2 = res2_i;
      d.cy = 1'b0;
      d.ci_gt = 1'b0;
      d.ga = 1'b0;
      d.gb = 1'b0;
      d.gc = 1'b0;
    end else if (q.calc) begin
      d.k = q.k + SW'(1);
      if (q.k < SW'(NC)) begin   // sum chunk k
        for (int c = 0; c < NC; c++)
          for (int b = 0; b < CH; b++)
            if (q.k == SW'(c) && c * CH + b < IW) d.acc[c*CH+b] = s_sum[b];
        d.cy = s_sum[CH];
        d.ci_gt = ci_gt_nx;
      end
      if (q.k >= SW'(1) && q.k <= KCmpA) d.ga = ga_nx;   // compare A, chunk k - 1
      if (q.k > KCmpA) begin                            // compare B, chunk k - NC - 1
        d.gb = gb_nx;
        d.gc = gc_nx;
      end
      if (q.k == KCmpA) begin   // p is complete and compared: the phase's registers take it
        unique case (q.phase)
          gs_pkg::PH_BASE: d.p_base = q.acc;
          gs_pkg::PH_B1_L12: begin d.p12 = q.acc; d.b12 = 1'b0; end
          gs_pkg::PH_B2_L12: if (ga_nx) begin d.p12 = q.acc; d.b12 = 1'b1; end
          gs_pkg::PH_B1_L2: begin d.p2 = q.acc; d.b2 = 1'b0; end
          gs_pkg::PH_B2_L2: if (ga_nx) begin d.p2 = q.acc; d.b2 = 1'b1; end
          default: begin   // Algorithm 2: tuning phase t_now
            d.ga = improved;
            if (improved) begin
              d.p_tune = q.acc;
              d.t_best = t_now;
            end
          end
        endcase
      end
      if (q.k == KLast) begin   // the decision
        d.calc = 1'b0;
        d.k = '0;
        unique case (q.phase)
          gs_pkg::PH_BASE: d.phase = gs_pkg::PH_B1_L12;
          gs_pkg::PH_B1_L12: d.phase = gs_pkg::PH_B2_L12;
          gs_pkg::PH_B2_L12: d.phase = gs_pkg::PH_B1_L2;
          gs_pkg::PH_B1_L2: d.phase = gs_pkg::PH_B2_L2;
          gs_pkg::PH_B2_L2: begin   // Algorithm 1, lines 2-4
            d.alg1 = '0;
            if (gb_nx) begin   // p12 > p2
              d.alg1.arch = gs_pkg::SBM_B_L12;
              d.alg1.fcache = !q.b12;
              d.p_alg1 = q.p12;
            end else if (gc_nx) begin   // p2 > p_base
              d.alg1.arch = gs_pkg::SBM_B_L2;
              d.alg1.fcache = !q.b2;
              d.p_alg1 = q.p2;
            end else begin
              d.alg1.arch = gs_pkg::SBM_BASE;
              d.p_alg1 = q.p_base;
            end
            d.phase = gs_pkg::PH_TUNE0;
          end
          default: begin   // Algorithm 2: tuning phase t_now
            d.ci = ci_fin;
            if (can_step) begin   // the next tuning phase (can_step is low in PH_TUNE3)
              d.phase = (q.phase == gs_pkg::PH_TUNE0) ? gs_pkg::PH_TUNE1
                      : (q.phase == gs_pkg::PH_TUNE1) ? gs_pkg::PH_TUNE2 : gs_pkg::PH_TUNE3;
            end else begin   // the end: SBM_REG
              d.busy = 1'b0;
              d.done = 1'b1;
              if (gb_nx) begin   // p_tune > p_alg1
                d.sbm_reg.arch = (q.alg1.arch == gs_pkg::SBM_BASE) ? gs_pkg::SBM_MWG : gs_pkg::SBM_MWGB;
                d.sbm_reg.fcache = q.alg1.fcache;
                d.sbm_reg.ci = ci_fin;
                d.sbm_reg.occ_th = q.t_best;
              end else begin
                d.sbm_reg = q.alg1;
              end
            end
          end
        endcase
      end
    end
  end

  assign state_o = q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
endmodule
