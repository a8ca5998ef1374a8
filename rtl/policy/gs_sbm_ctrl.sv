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
// Storage: sbm_ctrl_state_t, 230 bits (SbmIpcW = 41).
// Latency: a result at edge t gives the next phase's cfg_o from cycle t+1 (or, after the last
// phase, busy_o low and the final SBM_REG on cfg_o from t+1).
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
  output gs_pkg::sbm_ctrl_state_t       state_o
);
  localparam int IW = gs_pkg::SbmIpcW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam logic [3:0] PhBase = 4'd0, PhB1L12 = 4'd1, PhB2L12 = 4'd2, PhB1L2 = 4'd3, PhB2L2 = 4'd4,
                         PhTune0 = 4'd5, PhTune3 = 4'd8;

  gs_pkg::sbm_ctrl_state_t q, d;

  // ------------------------------------------------------------------ the phase's configuration
  gs_pkg::sbm_reg_t phase_cfg;
  logic [1:0] t_now;               // tuning phase t (phase - 5)
  always_comb begin
    t_now = 2'(q.phase - PhTune0);
    phase_cfg = '0;
    unique case (q.phase)
      PhBase: phase_cfg.arch = gs_pkg::SBM_BASE;
      PhB1L12: begin phase_cfg.arch = gs_pkg::SBM_B_L12; phase_cfg.fcache = 1'b1; end
      PhB2L12: begin phase_cfg.arch = gs_pkg::SBM_B_L12; phase_cfg.fcache = 1'b0; end
      PhB1L2: begin phase_cfg.arch = gs_pkg::SBM_B_L2; phase_cfg.fcache = 1'b1; end
      PhB2L2: begin phase_cfg.arch = gs_pkg::SBM_B_L2; phase_cfg.fcache = 1'b0; end
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

  // ------------------------------------------------------------------ a result
  logic [IW-1:0] p;                // both tasks' instructions in the window
  logic ci_nx;                     // the CI task after this result
  logic [IW-1:0] p12_nx, p2_nx, p_tune_nx;
  logic b12_nx, b2_nx;
  logic [1:0] t_best_nx;
  logic improved, can_step;
  logic [2:0] t_step;              // the next tuning phase's occ_th
  gs_pkg::cta_cnt_t occ_ci, occ_other;
  always_comb begin
    p = IW'(res1_i) + IW'(res2_i);
    ci_nx = (q.phase == PhTune0) ? (res2_i > res1_i) : q.ci;
    p12_nx = q.p12;
    b12_nx = q.b12;
    p2_nx = q.p2;
    b2_nx = q.b2;
    if (q.phase == PhB1L12 || (q.phase == PhB2L12 && p > q.p12)) begin
      p12_nx = p;
      b12_nx = q.phase == PhB2L12;
    end
    if (q.phase == PhB1L2 || (q.phase == PhB2L2 && p > q.p2)) begin
      p2_nx = p;
      b2_nx = q.phase == PhB2L2;
    end
    // tuning: phase 0 sets the reference; a later phase counts only if the IPC improved
`ifdef GS_MUT_SBM_TUNE_NO_STOP
    improved = q.phase == PhTune0 || 1'b1;   // BUG: a tuning phase that lost IPC is kept and tuning goes on
`else
    improved = q.phase == PhTune0 || p > q.p_tune;
`endif
    p_tune_nx = improved ? p : q.p_tune;
    t_best_nx = improved ? t_now : q.t_best;
    occ_ci = ci_nx ? occ2_i : occ1_i;
    occ_other = ci_nx ? occ1_i : occ2_i;
    t_step = 3'(t_now) + 3'd1;
    can_step = improved && q.phase != PhTune3 && ((CW + 1)'(occ_other) >> 1) > (CW + 1)'(t_step) &&
               ((CW + 1)'(occ_ci) >> 1) + (CW + 1)'(t_step) <= (CW + 1)'(occ_ci);
  end

  // ------------------------------------------------------------------ next state
  always_comb begin
    d = q;
    if (start_i) begin
      d.busy = 1'b1;
      d.phase = PhBase;
      d.done = 1'b0;
    end else if (res_valid_i && q.busy) begin
      d.p12 = p12_nx;
      d.b12 = b12_nx;
      d.p2 = p2_nx;
      d.b2 = b2_nx;
      unique case (q.phase)
        PhBase: begin d.p_base = p; d.phase = PhB1L12; end
        PhB1L12, PhB2L12, PhB1L2: d.phase = q.phase + 4'd1;
        PhB2L2: begin   // Algorithm 1, lines 2-4
          d.alg1 = '0;
`ifdef GS_MUT_SBM_L12_VS_BASE
          if (p12_nx > q.p_base) begin   // BUG: B_L12 is weighed against Base, not against B_L2
`else
          if (p12_nx > p2_nx) begin
`endif
            d.alg1.arch = gs_pkg::SBM_B_L12;
            d.alg1.fcache = !b12_nx;
            d.p_alg1 = p12_nx;
          end else if (p2_nx > q.p_base) begin
            d.alg1.arch = gs_pkg::SBM_B_L2;
            d.alg1.fcache = !b2_nx;
            d.p_alg1 = p2_nx;
          end else begin
            d.alg1.arch = gs_pkg::SBM_BASE;
            d.p_alg1 = q.p_base;
          end
          d.phase = PhTune0;
        end
        default: begin   // Algorithm 2: tuning phase t_now
          d.ci = ci_nx;
          d.p_tune = p_tune_nx;
          d.t_best = t_best_nx;
          if (can_step) begin
            d.phase = q.phase + 4'd1;
          end else begin   // the end: SBM_REG
            d.busy = 1'b0;
            d.done = 1'b1;
            if (p_tune_nx > q.p_alg1) begin
              d.sbm_reg.arch = (q.alg1.arch == gs_pkg::SBM_BASE) ? gs_pkg::SBM_MWG : gs_pkg::SBM_MWGB;
              d.sbm_reg.fcache = q.alg1.fcache;
              d.sbm_reg.ci = ci_nx;
              d.sbm_reg.occ_th = t_best_nx;
            end else begin
              d.sbm_reg = q.alg1;
            end
          end
        end
      endcase
    end
  end

  assign state_o = q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
endmodule
