// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation"). A type cast
// to a package typedef, gs_pkg::kernel_id_t'(x). ok_o is 1 for every input when it is read right.
module probe_cast (
  input  logic [7:0] a_i,
  output logic       ok_o
);
  gs_pkg::kernel_id_t k;
  assign k    = gs_pkg::kernel_id_t'(a_i);
  assign ok_o = k == a_i;
endmodule
