// gs_wf_scale: Warped-Slicer's bandwidth scaling factor (Xu et al., ISCA 2016, Sec. IV-A).
// Contract and timing: docs/rtl/gs_waterfill.md
//
// Eq. 3 simplified by Eq. 4, fixed point, sequential: two products on one gs_seq_mul.
//   psi    = CTA_i / CTA_avg - 1                       (Eq. 4)
//   factor = 1 + phi_mem * psi                         (Eq. 3)
//   P      = IPC_sampled * factor                      (Eq. 3: IPC_scaled)
// Formats (gs_spec.toml): phi_i UQ1.WfPhiFracW (values above 1.0 count as 1.0); q_i = CTA_i /
// CTA_avg in UQ.WfFactorFracW, divided by the caller (gs_policy_warped_slicer on its gs_seq_div:
// q = floor(cta * 2^(Ff+Fa) / avg), 2^Ff when avg = 0); factor_o UQ.WfFactorFracW; perf_i /
// perf_o WfPerfW-bit integers. Every rounding is a floor:
//   factor = 2^Ff + floor(phi * (q - 2^Ff) / 2^Fphi)   (as unsigned: the ceiling when q < 2^Ff)
//   perf_o = min(floor(perf * factor / 2^Ff), 2^WfPerfW - 1)
// factor >= 0 since phi <= 1 and psi >= -1; factor <= q < 2^WfFactorW.
// PSI: phi * |q - 2^Ff| on the multiplier (a = phi, b = |q - 2^Ff|), then the factor from it;
// PERF: factor * perf (a = factor, b = perf). The multiplier's adder is WfFactorW + 1 bits; the
// other carry chains (|q - 2^Ff|, the rounding, 2^Ff -/+) are at most WfFactorW bits; the
// saturation is an OR of the product's high bits.
// Timing: start_i at edge t loads the operands (a running scaling is abandoned); busy_o is high
// from t+1 for 2 * WfPerfW + 2 cycles, and factor_o / perf_o are final in the first cycle busy_o
// is low again: 2 * WfPerfW + 3 = 43 cycles from the start cycle. They hold until the next start.
// Storage: st 2 + neg 1 + perf WfPerfW + factor WfFactorW + gs_seq_mul (62 b): 103 b (wfs_state_t).
module gs_wf_scale (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,
  input  logic [gs_pkg::WfPerfW-1:0] perf_i,    // IPC_sampled (instructions in the window)
  input  logic [gs_pkg::WfPhiW-1:0] phi_i,      // phi_mem, UQ1.WfPhiFracW
  input  logic [gs_pkg::WfFactorW-1:0] q_i,     // CTA_i / CTA_avg, UQ.WfFactorFracW
  output logic busy_o,
  output logic [gs_pkg::WfFactorW-1:0] factor_o,
  output logic [gs_pkg::WfPerfW-1:0] perf_o,    // IPC_scaled, saturated
  output gs_pkg::wfs_state_t state_o            // the registers (block bench, lockstep state check)
);
  localparam int FF = gs_pkg::WfFactorFracW;
  localparam int FP = gs_pkg::WfPhiFracW;
  localparam int QW = gs_pkg::WfFactorW;
  localparam int PW = gs_pkg::WfPerfW;
  localparam int MW = gs_pkg::WfsProdW;                 // the multiplier's product, QW + PW
  localparam logic [QW-1:0] One = QW'(1) << FF;
  localparam logic [gs_pkg::WfPhiW-1:0] PhiOne = gs_pkg::WfPhiW'(1) << FP;

  gs_pkg::wfs_state_t q, d;   // q.mul is gs_seq_mul's (state_o); unused here

  logic mul_start, mul_busy;
  logic [QW-1:0] mul_a;
  logic [PW-1:0] mul_b;
  logic [MW-1:0] prod;
  gs_pkg::wfs_mul_state_t mul_state;
  gs_seq_mul #(.AW(QW), .BW(PW)) u_mul (
    .clk_i, .rst_ni, .start_i(mul_start), .a_i(mul_a), .b_i(mul_b), .busy_o(mul_busy), .prod_o(prod),
    .state_o(mul_state)
  );

  logic [gs_pkg::WfPhiW-1:0] phi;
  logic [QW-1:0] dpsi;   // |q - 2^Ff|
  logic [QW-1:0] m;      // PSI's product / 2^Fphi, rounded: <= |q - 2^Ff| since phi <= 1
  logic [QW-1:0] factor;

  always_comb begin
    d = q;
    mul_start = 1'b0;
    mul_a = '0;
    mul_b = '0;
`ifdef GS_MUT_WFS_PHI_UNCLAMPED
    phi = phi_i;   // MUTATION: phi_mem above 1.0 is taken as it is
`else
    phi = phi_i > PhiOne ? PhiOne : phi_i;
`endif
    dpsi = q_i >= One ? q_i - One : One - q_i;
    // the factor from PSI's product (read in PSI once the multiplier is done)
`ifdef GS_MUT_WFS_NEG_FLOOR
    m = QW'(prod >> FP);   // MUTATION: psi < 0 rounds phi * |psi| down, not up
`else
    m = QW'(prod >> FP) + QW'(q.neg && prod[FP-1:0] != '0);   // psi < 0: the ceiling
`endif
    factor = q.neg ? One - m : One + m;
    if (start_i) begin
      mul_start = 1'b1;
      mul_a = QW'(phi);
      mul_b = PW'(dpsi);
      d.neg = q_i < One;
      d.perf = perf_i;
      d.st = gs_pkg::WFS_PSI;
    end else if (q.st == gs_pkg::WFS_PSI && !mul_busy) begin
      mul_start = 1'b1;
      mul_a = factor;
`ifdef GS_MUT_WFS_PERF_UNHELD
      mul_b = perf_i;   // MUTATION: the sample is read from the port, not from the register
`else
      mul_b = q.perf;
`endif
      d.factor = factor;
      d.st = gs_pkg::WFS_PERF;
    end else if (q.st == gs_pkg::WFS_PERF && !mul_busy) begin
      d.st = gs_pkg::WFS_IDLE;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end

  assign busy_o = q.st != gs_pkg::WFS_IDLE;
  assign factor_o = q.factor;
  // perf * factor / 2^Ff, saturated: the product's bits above PW + Ff say it does not fit
  assign perf_o = prod[MW-1:PW+FF] != '0 ? {PW{1'b1}} : prod[PW+FF-1:FF];
  always_comb begin
    state_o = q;
    state_o.mul = mul_state;
  end
endmodule
