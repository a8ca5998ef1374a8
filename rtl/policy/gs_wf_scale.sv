// gs_wf_scale: Warped-Slicer's bandwidth scaling factor (Xu et al., ISCA 2016, Sec. IV-A).
// Contract and timing: docs/rtl/gs_waterfill.md
//
// Eq. 3 simplified by Eq. 4, fixed point, combinational.
//   psi    = CTA_i / CTA_avg - 1                       (Eq. 4)
//   factor = 1 + phi_mem * psi                         (Eq. 3)
//   P      = IPC_sampled * factor                      (Eq. 3: IPC_scaled)
// Formats (gs_spec.toml): phi_i UQ1.WfPhiFracW (values above 1.0 count as 1.0); cta_i an
// integer CTA count; avg_i UQ(WfStepW).WfAvgFracW; factor_o UQ.WfFactorFracW; perf_i / perf_o
// WfPerfW-bit integers. Every rounding is a floor:
//   q      = floor(cta * 2^(Ff+Fa) / avg)              (CTA_i / CTA_avg in UQ.Ff; avg = 0: q = 2^Ff)
//   factor = 2^Ff + floor(phi * (q - 2^Ff) / 2^Fphi)   (as unsigned: the ceiling when q < 2^Ff)
//   perf_o = min(floor(perf * factor / 2^Ff), 2^WfPerfW - 1)
// factor >= 0 since phi <= 1 and psi >= -1; factor <= q < 2^WfFactorW.
// It scales one profiling sample as it is written into the performance table of gs_waterfill
// (one sample per SM and kernel at the end of the sampling window), so it sits outside the
// water-filling loop and needs no registers. No storage; latency 0 (combinational).
module gs_wf_scale (
  input  logic [gs_pkg::WfPerfW-1:0] perf_i,    // IPC_sampled (instructions in the window)
  input  logic [gs_pkg::WfPhiW-1:0] phi_i,      // phi_mem, UQ1.WfPhiFracW
  input  logic [gs_pkg::WfStepW-1:0] cta_i,     // CTA_i, the CTAs the sampled SM ran
  input  logic [gs_pkg::WfAvgW-1:0] avg_i,      // CTA_avg, UQ(WfStepW).WfAvgFracW
  output logic [gs_pkg::WfFactorW-1:0] factor_o,
  output logic [gs_pkg::WfPerfW-1:0] perf_o     // IPC_scaled, saturated
);
  localparam int FF = gs_pkg::WfFactorFracW;
  localparam int FA = gs_pkg::WfAvgFracW;
  localparam int FP = gs_pkg::WfPhiFracW;
  localparam int QW = gs_pkg::WfFactorW;                // q = CTA_i / CTA_avg in UQ.FF
  localparam int MW = QW + gs_pkg::WfPhiW;              // phi * |psi|
  localparam int PW = gs_pkg::WfPerfW;
  localparam int SW = PW + QW;                          // perf * factor
  localparam logic [QW-1:0] One = QW'(1) << FF;
  localparam logic [gs_pkg::WfPhiW-1:0] PhiOne = gs_pkg::WfPhiW'(1) << FP;

  logic [QW-1:0] q, dpsi;
  logic [gs_pkg::WfPhiW-1:0] phi;
  logic [MW-1:0] m;   // phi * |psi| / 2^FP <= |psi| (phi <= 1): the top bits stay 0
  logic [SW-1:0] scaled;

  always_comb begin
    q = One;
    if (avg_i != '0) q = {cta_i, {(FF + FA){1'b0}}} / {{(QW - gs_pkg::WfAvgW){1'b0}}, avg_i};
    phi = phi_i > PhiOne ? PhiOne : phi_i;
    if (q >= One) begin
      dpsi = q - One;                                   // psi >= 0: floor
      m = ({{gs_pkg::WfPhiW{1'b0}}, dpsi} * {{QW{1'b0}}, phi}) >> FP;
      factor_o = One + QW'(m);
    end else begin
      dpsi = One - q;                                   // psi < 0: floor of the negative = minus the ceiling
      m = ({{gs_pkg::WfPhiW{1'b0}}, dpsi} * {{QW{1'b0}}, phi} + MW'((1 << FP) - 1)) >> FP;
      factor_o = One - QW'(m);
    end
    scaled = ({{QW{1'b0}}, perf_i} * {{PW{1'b0}}, factor_o}) >> FF;
    perf_o = scaled > SW'({PW{1'b1}}) ? {PW{1'b1}} : scaled[PW-1:0];
  end
endmodule
