// gs_macro_demo: the area flow's memory-macro test block -- one gs_ram_1r1w and one gs_ram_1rw
// (rtl/mem) between a little logic, so the report shows each as a macro apart from the cells and
// OpenSTA times paths into and out of them (constraints/CMakeLists.txt, area_flow_macros).
// Not part of the scheduler.
module gs_macro_demo (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,
  input  logic [5:0]  waddr_i,
  input  logic [15:0] wdata_i,
  input  logic [5:0]  raddr_i,
  input  logic        en_i,
  input  logic [4:0]  addr_i,
  output logic [15:0] sum_o
);
  logic [15:0] rd;
  logic [7:0]  rd1;
  logic [5:0]  raddr_q;

  // the read address through a register and an adder: a path into the macro
  always_ff @(posedge clk_i) begin
    if (!rst_ni) raddr_q <= '0;
    else raddr_q <= raddr_i + 6'd1;
  end

  gs_ram_1r1w #(.Depth(40), .Width(16)) u_table (
    .clk_i, .we_i, .waddr_i, .wdata_i, .re_i(1'b1), .raddr_i(raddr_q), .rdata_o(rd)
  );
  gs_ram_1rw #(.Depth(24), .Width(8)) u_small (
    .clk_i, .en_i, .we_i, .addr_i, .wdata_i(wdata_i[7:0]), .rdata_o(rd1)
  );

  // the read data through an adder into a register: a path out of the macro
  always_ff @(posedge clk_i) begin
    if (!rst_ni) sum_o <= '0;
    else sum_o <= rd + {8'd0, rd1};
  end
endmodule

// gs_macro_pair: a composite over two gs_macro_demo (composed bottom-up: their macros come with
// their figures) with a 100 x 32 gs_ram_1r1w of its own, read out on a port.
module gs_macro_pair (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        we_i,
  input  logic [5:0]  waddr_i,
  input  logic [15:0] wdata_i,
  input  logic [5:0]  raddr_i,
  input  logic        en_i,
  input  logic [4:0]  addr_i,
  output logic [15:0] x_o,
  output logic [31:0] y_o
);
  logic [15:0] a, b;
  gs_macro_demo u_a (.clk_i, .rst_ni, .we_i, .waddr_i, .wdata_i, .raddr_i, .en_i, .addr_i, .sum_o(a));
  gs_macro_demo u_b (.clk_i, .rst_ni, .we_i, .waddr_i, .wdata_i(~wdata_i), .raddr_i, .en_i, .addr_i, .sum_o(b));
  gs_ram_1r1w #(.Depth(100), .Width(32)) u_own (
    .clk_i, .we_i, .waddr_i({1'b0, waddr_i}), .wdata_i({a, b}), .re_i(1'b1), .raddr_i({1'b0, raddr_i}), .rdata_o(y_o)
  );
  always_ff @(posedge clk_i) x_o <= a ^ b;
endmodule
