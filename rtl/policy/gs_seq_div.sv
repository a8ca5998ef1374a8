// gs_seq_div: the policies' one divider, unsigned, one quotient bit per cycle (restoring).
// Contract and timing: docs/rtl/gs_seq_div.md
//
// quo_o = floor(num_i / den_i) for quotients below 2**QuoW; a quotient that would not fit
// (num_i >= den_i * 2**QuoW, or den_i = 0) gives all ones at once -- the caller's saturation,
// never a wrapped value. Users: gs_policy_warped_slicer (phi_mem, CTA_avg and gs_wf_scale's
// CTA_i / CTA_avg, the default widths DivNW / DivDW / DivQW) and gs_policy_srtf (Eq. 2's
// remaining time, SrtfDivW / SrtfDenW / SrtfPredW).
// Since the quotient fits QuoW bits, num_i >> QuoW < den_i: the partial remainder starts as
// those high bits and takes one low dividend bit per cycle (long division), so the remainder
// and the trial subtraction are DenW + 1 bits wide, not NumW.
// Timing: start_i at edge t loads the operands (any running division is abandoned);
// busy_o is high from t+1 for QuoW cycles (0 cycles when saturated), and quo_o is final in
// the first cycle busy_o is low again: the latency is QuoW + 1 cycles from the start cycle.
// quo_o holds until the next start.
// Storage: busy 1 + step counter clog2(QuoW+1) + remainder DenW + divisor DenW + dividend /
// quotient QuoW (1 + 5 + 39 + 39 + 18 = 102 b at the default widths).
module gs_seq_div #(
  parameter int NumW = gs_pkg::DivNW,
  parameter int DenW = gs_pkg::DivDW,
  parameter int QuoW = gs_pkg::DivQW
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,
  input  logic [NumW-1:0] num_i,
  input  logic [DenW-1:0] den_i,
  output logic busy_o,
  output logic [QuoW-1:0] quo_o,
  // the registers {busy, cnt, rem, den, quo}, MSB first: the user's state record
  // (div_state_t, or srtf_state_t's div_*) for the lockstep state check
  output logic [$clog2(QuoW + 1) + 2 * DenW + QuoW:0] state_o
);
  localparam int CntW = $clog2(QuoW + 1);
  localparam int HW = NumW > QuoW + DenW ? NumW - QuoW : DenW;   // the dividend's high part

  logic busy_q, busy_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [DenW-1:0] rem_q, rem_d, den_q, den_d;
  logic [QuoW-1:0] quo_q, quo_d;   // dividend bits shifting out at the top, quotient bits in

  logic [HW-1:0] num_hi;
  logic [DenW:0] trial;   // {remainder, next dividend bit}: < 2 * divisor

  always_comb begin
    busy_d = busy_q;
    cnt_d = cnt_q;
    rem_d = rem_q;
    den_d = den_q;
    quo_d = quo_q;
    num_hi = HW'(NumW'(num_i >> QuoW));   // HW may exceed NumW (gs_policy_even)
    trial = {rem_q, quo_q[QuoW-1]};
    if (start_i) begin
      den_d = den_i;
      cnt_d = CntW'(QuoW);
`ifdef GS_MUT_SEQ_DIV_SAT_EDGE
      if (den_i == '0 || num_hi > HW'(den_i)) begin
`else
      if (den_i == '0 || num_hi >= HW'(den_i)) begin
`endif
        quo_d = '1;
        rem_d = '0;
        busy_d = 1'b0;
      end else begin
        quo_d = num_i[QuoW-1:0];
        rem_d = DenW'(num_hi);
        busy_d = 1'b1;
      end
    end else if (busy_q) begin
      quo_d = {quo_q[QuoW-2:0], 1'b0};
      rem_d = trial[DenW-1:0];
`ifdef GS_MUT_SEQ_DIV_STEP_STRICT
      if (trial > {1'b0, den_q}) begin
`else
      if (trial >= {1'b0, den_q}) begin
`endif
        rem_d = DenW'(trial - {1'b0, den_q});
        quo_d[0] = 1'b1;
      end
      cnt_d = cnt_q - 1'b1;
      busy_d = cnt_q != CntW'(1);
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cnt_q <= '0;
      rem_q <= '0;
      den_q <= '0;
      quo_q <= '0;
    end else begin
      busy_q <= busy_d;
      cnt_q <= cnt_d;
      rem_q <= rem_d;
      den_q <= den_d;
      quo_q <= quo_d;
    end
  end

  assign busy_o = busy_q;
  assign quo_o = quo_q;
  assign state_o = {busy_q, cnt_q, rem_q, den_q, quo_q};
endmodule
