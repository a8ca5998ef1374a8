// gs_seq_mul: the policies' sequential multiplier, unsigned, one multiplier bit per cycle.
// Contract and timing: docs/rtl/gs_seq_mul.md
//
// prod_o = a_i * b_i, exact (AW + BW bits). Shift and add from the multiplier's low bit: the
// multiplier sits in the product's low BW bits and leaves them one bit per cycle, while a is
// added to the high part (AW + 1-bit sum) when the bit leaving is set. The adder is AW + 1
// bits wide, so a user passes the narrow operand as a (osu018 maps an adder bit by bit:
// docs/area-timing.md). Users: gs_policy_srtf (Eq. 2's dividend and divisor, and
// SRTF/Adaptive's threshold times a prediction) and gs_wf_scale (phi_mem * psi, then the factor
// times a profiling sample).
// Timing: start_i at edge t loads the operands (any running product is abandoned); busy_o is
// high from t+1 for BW cycles, and prod_o is final in the first cycle busy_o is low again: the
// latency is BW + 1 cycles from the start cycle. prod_o holds until the next start.
// Storage: busy 1 + step counter clog2(BW+1) + multiplicand AW + product AW + BW.
module gs_seq_mul #(
  parameter int AW = gs_pkg::SaThrW,     // the multiplicand, added whole (the narrow operand)
  parameter int BW = gs_pkg::SrtfPredW   // the multiplier, one bit per cycle (BW >= 1)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,
  input  logic [AW-1:0] a_i,
  input  logic [BW-1:0] b_i,
  output logic busy_o,
  output logic [AW+BW-1:0] prod_o,
  // the registers {busy, cnt, a, prod}, MSB first: the user's state record
  output logic [$clog2(BW + 1) + 2 * AW + BW:0] state_o
);
  localparam int CntW = $clog2(BW + 1);
  localparam int PW = AW + BW;

  logic busy_q, busy_d;
  logic [CntW-1:0] cnt_q, cnt_d;
  logic [AW-1:0] a_q, a_d;
  logic [PW-1:0] prod_q, prod_d;   // {partial product's high part, multiplier bits still to take}
  logic [AW:0] sum;

  always_comb begin
    busy_d = busy_q;
    cnt_d = cnt_q;
    a_d = a_q;
    prod_d = prod_q;
    sum = {1'b0, prod_q[PW-1:BW]} + (prod_q[0] ? {1'b0, a_q} : '0);
    if (start_i) begin
      a_d = a_i;
      prod_d = {{AW{1'b0}}, b_i};
      cnt_d = CntW'(BW);
      busy_d = 1'b1;
    end else if (busy_q) begin
`ifdef GS_MUT_SEQ_MUL_DROP_CARRY
      // MUTATION: the sum's carry out is lost (the high part is AW bits, not AW + 1)
      prod_d = PW'({1'b0, sum[AW-1:0], prod_q[BW-1:0]} >> 1);
`else
      prod_d = PW'({sum, prod_q[BW-1:0]} >> 1);
`endif
      cnt_d = cnt_q - 1'b1;
`ifdef GS_MUT_SEQ_MUL_SHORT
      // MUTATION: the multiplier's last bit is never taken (one step too few)
      busy_d = cnt_q > CntW'(2);
`else
      busy_d = cnt_q != CntW'(1);
`endif
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      cnt_q <= '0;
      a_q <= '0;
      prod_q <= '0;
    end else begin
      busy_q <= busy_d;
      cnt_q <= cnt_d;
      a_q <= a_d;
      prod_q <= prod_d;
    end
  end

  assign busy_o = busy_q;
  assign prod_o = prod_q;
  assign state_o = {busy_q, cnt_q, a_q, prod_q};
endmodule
