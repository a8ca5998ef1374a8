// gs_ffs: find first set -- the lowest set bit of req_i, as a log-depth tree.
// Contract and timing: docs/rtl/gs_ffs.md
//
// Combinational. valid_o: some bit is set; idx_o: the lowest set bit's index (0 when none).
// A binary tree of (valid, index) pairs: each node takes its high child only when that one
// alone is valid, so the depth is clog2(Width) 2:1 muxes, not a chain of Width `found` stages.
module gs_ffs #(
  parameter int Width = 8,
  localparam int IdxW = (Width > 1) ? $clog2(Width) : 1
) (
  input  logic [Width-1:0] req_i,
  output logic             valid_o,
  output logic [IdxW-1:0]  idx_o
);
  localparam int Leaves = 1 << IdxW;   // Width rounded up to a power of two

  // node n of the heap (1 = root, 2n and 2n+1 its children, leaves at Leaves .. 2*Leaves-1);
  // split_var: Verilator orders the nodes bit by bit (one vector is no combinational loop)
  logic [2*Leaves-1:1] node_valid /* verilator split_var */;
  logic [2*Leaves*IdxW-1:IdxW] node_idx /* verilator split_var */;

  for (genvar i = 0; i < Leaves; i++) begin : g_leaf
    if (i < Width) begin : g_req
      assign node_valid[Leaves + i] = req_i[i];
    end else begin : g_pad
      assign node_valid[Leaves + i] = 1'b0;
    end
    assign node_idx[(Leaves + i)*IdxW +: IdxW] = IdxW'(i);
  end
  for (genvar n = Leaves - 1; n >= 1; n--) begin : g_node
    assign node_valid[n] = node_valid[2*n] | node_valid[2*n + 1];
`ifdef GS_MUT_FFS_HIGH_FIRST
    // MUTATION: a node prefers its high child, so a set bit is found but not the lowest one
    assign node_idx[n*IdxW +: IdxW] = node_valid[2*n + 1] ? node_idx[(2*n + 1)*IdxW +: IdxW]
                                                          : node_idx[2*n*IdxW +: IdxW];
`else
    // the high child only when it alone is valid: with no request the index is 0
    assign node_idx[n*IdxW +: IdxW] = (node_valid[2*n] || !node_valid[2*n + 1]) ? node_idx[2*n*IdxW +: IdxW]
                                                                                : node_idx[(2*n + 1)*IdxW +: IdxW];
`endif
  end

  assign valid_o = node_valid[1];
  assign idx_o = node_idx[IdxW +: IdxW];
endmodule
