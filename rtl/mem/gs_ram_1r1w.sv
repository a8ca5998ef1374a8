// gs_ram_1r1w: a table in memory -- one write port, one read port, registered read.
// Contract and timing: docs/rtl/gs_ram.md
//
// Depth words of Width bits, no reset (an SRAM macro has none: a word reads as written only
// after its first write). Read: raddr_i with re_i at edge t, the word on rdata_o from t until
// the next read; without re_i rdata_o holds. ReadCycles 2: a macro whose access time is longer
// than a clock period -- the word is on rdata_o from edge t+1 (the area flow times it from the
// read edge over two periods), and the port takes no read at edge t+1 (assertion). Read during a write of the same address at the
// same edge: the old word (the array as it was before the edge). Addresses >= Depth are the
// user's error (assertion in simulation). Under SYNTHESIS the module is a black box with its
// parameters, so the area flow sees one macro instance (constraints/sram_model.json) instead of
// Depth x Width flip-flops and a Depth:1 read multiplexer; Verilator simulates the body.
`ifdef SYNTHESIS
(* blackbox *)
`endif
module gs_ram_1r1w #(
  parameter int Depth = 16,
  parameter int Width = 8,
  parameter int ReadCycles = 1,   // 1 or 2: edges from the read to its word on rdata_o
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] waddr_i,
  input  logic [Width-1:0] wdata_i,
  input  logic             re_i,
  input  logic [AddrW-1:0] raddr_i,
  output logic [Width-1:0] rdata_o
);
`ifndef SYNTHESIS
  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;
  logic             rd_en;

`ifdef GS_MUT_RAM_READ_ALWAYS
  // MUTATION: the read register loads every cycle, so rdata_o does not hold without re_i
  assign rd_en = 1'b1;
`else
  assign rd_en = re_i;
`endif

  always_ff @(posedge clk_i) begin
    if (we_i && 32'(waddr_i) < Depth) mem_q[waddr_i] <= wdata_i;
  end

`ifdef GS_MUT_RAM_RDW_NEW
  // MUTATION: a read during a write of the same address returns the new word (write-first)
  always_ff @(posedge clk_i) begin
    if (rd_en) rdata_q <= (we_i && waddr_i == raddr_i) ? wdata_i : mem_q[raddr_i];
  end
`else
  // nonblocking: the read takes mem_q as it was before this edge's write (read-first)
  always_ff @(posedge clk_i) begin
    if (rd_en) rdata_q <= (32'(raddr_i) < Depth) ? mem_q[raddr_i] : '0;
  end
`endif

`ifdef GS_MUT_RAM_COMB_READ
  // MUTATION: the read is combinational: the word of the address presented now, a cycle early
  assign rdata_o = mem_q[raddr_i];
`else
  if (ReadCycles == 2) begin : g_two
    // the word leaves the array a cycle after its read edge (a read takes two periods)
    logic [Width-1:0] out_q;
    logic             pend_q;   // a read at the last edge: its word moves to the port now
    always_ff @(posedge clk_i) begin
      pend_q <= rd_en;
      if (pend_q) out_q <= rdata_q;
    end
    assign rdata_o = out_q;
    always_ff @(posedge clk_i) begin
      if (re_i) assert (!pend_q) else $error("gs_ram_1r1w: a read at two edges running (ReadCycles 2)");
    end
  end else begin : g_one
    assign rdata_o = rdata_q;
  end
`endif

  initial assert (ReadCycles == 1 || ReadCycles == 2) else $fatal(1, "gs_ram_1r1w: ReadCycles %0d (1 or 2)", ReadCycles);
  always_ff @(posedge clk_i) begin
    if (we_i) assert (32'(waddr_i) < Depth) else $error("gs_ram_1r1w: write address %0d >= Depth %0d", waddr_i, Depth);
    if (re_i) assert (32'(raddr_i) < Depth) else $error("gs_ram_1r1w: read address %0d >= Depth %0d", raddr_i, Depth);
  end
`endif
endmodule
