// gs_chunk_add: N running sums, added in chunks whose carries move up a cycle later.
// Contract and timing: docs/rtl/gs_chunk_add.md
//
// Each sum is W bits in SC chunks of CH bits: no carry chain is wider than CH.
// Each cycle, lane t adds add_i when sel_i[t] is set (at most one lane is meant to be, but
// each lane reads its own bit) and, into chunk i > 0, the carry out of its chunk i-1 of the
// cycle before (cy_i, which the caller registers from cy_o). A sum is exact SC - 1 cycles after
// its last addend (the callers' SUM_CARRY and MON_CARRY states wait that long); the top chunk's
// carry is dropped, so a sum wraps at W bits, as one full-width adder's would. Used by the
// window sums of gs_policy_warped_slicer (the phase monitor), gs_policy_sbm and gs_policy_hetero.
// Purely combinational. Golden twin: chunk_add() in cmodel/sched/golden/gs_chunk_add.hpp.
module gs_chunk_add #(
  parameter int W = 40,    // a sum's width
  parameter int N = 1,     // sums (lanes)
  parameter int CH = 16,   // chunk width (gs_pkg::ArithChunkW)
  parameter int SC = 3     // chunks: ceil(W / CH), at least 2
) (
  input  logic [N*W-1:0]      sums_i,   // the sums (registers)
  input  logic [W-1:0]        add_i,    // this cycle's addend ...
  input  logic [N-1:0]        sel_i,    // ... into these lanes
  input  logic [N*(SC-1)-1:0] cy_i,     // lane t, bit i: the carry out of chunk i, registered
  output logic [N*W-1:0]      sums_o,
  output logic [N*(SC-1)-1:0] cy_o
);
`ifdef GS_MUT_CADD_CARRY_LOST
  // MUTATION: the carries out of the chunks are not passed on
  localparam bit MutCarryLost = 1'b1;
`else
  localparam bit MutCarryLost = 1'b0;
`endif
`ifdef GS_MUT_CADD_SEL_IGNORED
  // MUTATION: the addend goes into every lane
  localparam bit MutSelIgnored = 1'b1;
`else
  localparam bit MutSelIgnored = 1'b0;
`endif
  logic [SC*CH-1:0] a, b, s;   // a lane's sum and addend, padded to whole chunks; its new sum
  logic [SC-1:0] cin, cout;
  logic [CH:0] c;
  always_comb begin
    sums_o = '0;
    cy_o = '0;
    a = '0;
    b = '0;
    s = '0;
    cin = '0;
    cout = '0;
    c = '0;
    for (int t = 0; t < N; t++) begin
      a = (SC*CH)'(sums_i[t*W +: W]);
      b = (sel_i[t] || MutSelIgnored) ? (SC*CH)'(add_i) : '0;
      cin = {cy_i[t*(SC-1) +: SC-1], 1'b0};
      for (int i = 0; i < SC; i++) begin
        c = {1'b0, a[i*CH +: CH]} + {1'b0, b[i*CH +: CH]} + (CH + 1)'(cin[i]);
        s[i*CH +: CH] = c[CH-1:0];
        cout[i] = c[CH] && !MutCarryLost;
      end
      sums_o[t*W +: W] = W'(s);
      cy_o[t*(SC-1) +: SC-1] = cout[SC-2:0];
    end
  end
endmodule
