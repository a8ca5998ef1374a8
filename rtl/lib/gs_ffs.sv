// gs_ffs: find first set -- the lowest set bit of req_i, as a log-depth tree.
// Contract and timing: docs/rtl/gs_ffs.md
//
// Combinational. valid_o: some bit is set; idx_o: the lowest set bit's index (0 when none);
// data_o: that request's word of data_i (request i's at [i*DataW +: DataW]; 0 when none).
// A binary tree of (valid, index, data) triples: each node takes its high child only when that
// one alone is valid, so the depth is clog2(Width) 2:1 muxes, not a chain of Width `found`
// stages. The data travel the tree beside the index, so a user that wants the found request's
// word gets it from the same muxes instead of decoding idx_o and reading a Width-way select
// after the search. DataW 0 (the default): no data, data_i (1 bit) unread and data_o 0, so a
// search without data is the index tree alone, also where a composite reuses this block's own
// mapping (constraints/area_flow.py).
module gs_ffs #(
  parameter int Width = 8,
  parameter int DataW = 0,
  localparam int IdxW = (Width > 1) ? $clog2(Width) : 1,
  localparam int DW = (DataW > 0) ? DataW : 1   // the data ports' width
) (
  input  logic [Width-1:0]    req_i,
  input  logic [Width*DW-1:0] data_i,
  output logic                valid_o,
  output logic [IdxW-1:0]     idx_o,
  output logic [DW-1:0]       data_o
);
  localparam int Leaves = 1 << IdxW;   // Width rounded up to a power of two

  // node n of the heap (1 = root, 2n and 2n+1 its children, leaves at Leaves .. 2*Leaves-1);
  // split_var: Verilator orders the nodes bit by bit (one vector is no combinational loop)
  logic [2*Leaves-1:1] node_valid /* verilator split_var */;
  logic [2*Leaves*IdxW-1:IdxW] node_idx /* verilator split_var */;
  logic [Leaves-1:1] take_high;   // node n takes its high child

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
    assign take_high[n] = node_valid[2*n + 1];
`else
    // the high child only when it alone is valid: with no request the index is 0
    assign take_high[n] = !node_valid[2*n] && node_valid[2*n + 1];
`endif
    assign node_idx[n*IdxW +: IdxW] = take_high[n] ? node_idx[(2*n + 1)*IdxW +: IdxW] : node_idx[2*n*IdxW +: IdxW];
  end

  assign valid_o = node_valid[1];
  assign idx_o = node_idx[IdxW +: IdxW];

  // the data words, through the same muxes as the index
  if (DataW > 0) begin : g_data
    logic [2*Leaves*DW-1:DW] node_data /* verilator split_var */;
    for (genvar i = 0; i < Leaves; i++) begin : g_leaf
      if (i < Width) begin : g_req
        assign node_data[(Leaves + i)*DW +: DW] = data_i[i*DW +: DW];
      end else begin : g_pad
        assign node_data[(Leaves + i)*DW +: DW] = '0;
      end
    end
    for (genvar n = Leaves - 1; n >= 1; n--) begin : g_node
      assign node_data[n*DW +: DW] = take_high[n] ? node_data[(2*n + 1)*DW +: DW] : node_data[2*n*DW +: DW];
    end
    assign data_o = node_valid[1] ? node_data[DW +: DW] : '0;
  end else begin : g_no_data
    assign data_o = '0;
  end
endmodule
