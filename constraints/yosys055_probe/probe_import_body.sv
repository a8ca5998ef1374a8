// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation"). `import
// gs_pkg::*;` inside the module body and unqualified package items. ok_o = 1 when it is accepted.
module probe_import_body (
  input  logic [7:0] a_i,
  output logic       ok_o
);
  import gs_pkg::*;
  kernel_id_t k;
  assign k    = a_i;
  assign ok_o = (k == a_i) && (KsrtW == 145);
endmodule
