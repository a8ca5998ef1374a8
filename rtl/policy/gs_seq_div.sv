// gs_seq_div: unsigned sequential division, one quotient bit per cycle (restoring).
// Contract and timing: docs/rtl/gs_policy_warped_slicer.md
//
// quo_o = floor(num_i / den_i) for quotients below 2**DivQW; a quotient that would not fit
// (num_i >= den_i * 2**DivQW, or den_i = 0) gives all ones at once -- the caller's saturation,
// never a wrapped value. The warped-slicer policy time-shares one instance for phi_mem
// (memory-stall cycles * 2**WfPhiFracW / scheduler cycles) and CTA_avg (CTA quotas *
// 2**WfAvgFracW / SMs): a 40 b / 39 b division in a combinational divider would be the
// slowest path of the scheduler, and both are needed once per SM per profiling round only.
// Timing: start_i at edge t loads the operands (any running division is abandoned);
// busy_o is high from t+1 for DivQW cycles (0 cycles when saturated), and quo_o is final in
// the first cycle busy_o is low again: the latency is DivQW + 1 cycles from the start cycle.
// quo_o holds until the next start.
// Storage: busy 1 + one-hot bit DivQW + remainder DivNW + shifted divisor DivDW+DivQW-1 +
// quotient DivQW = 1 + 10 + 40 + 48 + 10 = 109 b (defaults).
module gs_seq_div (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,
  input  logic [gs_pkg::DivNW-1:0] num_i,
  input  logic [gs_pkg::DivDW-1:0] den_i,
  output logic busy_o,
  output logic [gs_pkg::DivQW-1:0] quo_o,
  output gs_pkg::div_state_t state_o   // the registers (lockstep state check of its policy)
);
  localparam int QW = gs_pkg::DivQW;
  localparam int NW = gs_pkg::DivNW;
  localparam int SW = gs_pkg::DivDW + gs_pkg::DivQW - 1;   // the divisor at the top quotient bit
  localparam int CW = gs_pkg::DivDW + gs_pkg::DivQW;       // the saturation compare

  gs_pkg::div_state_t q, d;

  always_comb begin
    d = q;
    if (start_i) begin
      d.quo = '0;
      d.rem = num_i;
      d.dsh = SW'(den_i) << (QW - 1);
      d.b = QW'(1) << (QW - 1);
      d.busy = 1'b1;
      if (den_i == '0 || CW'(num_i) >= (CW'(den_i) << QW)) begin
        d.quo = '1;
        d.busy = 1'b0;
      end
    end else if (q.busy) begin
      if (SW'(q.rem) >= q.dsh) begin
        d.rem = q.rem - NW'(q.dsh);
        d.quo = q.quo | q.b;
      end
      d.dsh = q.dsh >> 1;
      d.b = q.b >> 1;
      d.busy = !q.b[0];
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end

  assign busy_o = q.busy;
  assign quo_o = q.quo;
  assign state_o = q;
endmodule
