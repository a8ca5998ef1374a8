// gs_ram_1rw: a table in memory -- one shared read/write port, registered read.
// Contract and timing: docs/rtl/gs_ram.md
//
// Depth words of Width bits, no reset. Per edge the port does one thing: en_i && we_i writes
// wdata_i at addr_i; en_i && !we_i reads addr_i, the word on rdata_o from the edge until the
// next read; otherwise nothing. A write does not read: rdata_o holds through it (the single-
// port SRAM it stands for reads or writes, and the model gives no write-through). Addresses
// >= Depth are the user's error (assertion in simulation). Under SYNTHESIS a black box with its
// parameters: one macro instance for the area flow (constraints/sram_model.json).
`ifdef SYNTHESIS
(* blackbox *)
`endif
module gs_ram_1rw #(
  parameter int Depth = 16,
  parameter int Width = 8,
  localparam int AddrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  logic             clk_i,
  input  logic             en_i,
  input  logic             we_i,
  input  logic [AddrW-1:0] addr_i,
  input  logic [Width-1:0] wdata_i,
  output logic [Width-1:0] rdata_o
);
`ifndef SYNTHESIS
  logic [Width-1:0] mem_q [Depth];
  logic [Width-1:0] rdata_q;

  always_ff @(posedge clk_i) begin
    if (en_i && we_i && 32'(addr_i) < Depth) mem_q[addr_i] <= wdata_i;
  end

`ifdef GS_MUT_RAM_1RW_WRITE_THROUGH
  // MUTATION: a write also loads the read register with the written word (write-through)
  always_ff @(posedge clk_i) begin
    if (en_i) rdata_q <= we_i ? wdata_i : mem_q[addr_i];
  end
`else
  always_ff @(posedge clk_i) begin
    if (en_i && !we_i) rdata_q <= (32'(addr_i) < Depth) ? mem_q[addr_i] : '0;
  end
`endif
  assign rdata_o = rdata_q;

  always_ff @(posedge clk_i) begin
    if (en_i) assert (32'(addr_i) < Depth) else $error("gs_ram_1rw: address %0d >= Depth %0d", addr_i, Depth);
  end
`endif
endmodule
