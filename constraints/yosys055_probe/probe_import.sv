// gsched: Yosys front-end probe (docs/area-timing.md). `import gs_pkg::*;` in the module header
// and unqualified package items. ok_o = 1 when the tool accepts it.
module probe_import
  import gs_pkg::*;
(
  input  ksrt_entry_t e_i,
  output ksrt_entry_t e_o,
  output kernel_id_t  kernel_o,
  output logic        ok_o
);
  assign e_o      = e_i;
  assign kernel_o = e_i.kernel;
  assign ok_o = (KsrtW == 145) && ($bits(e_i) == KsrtW) && (kernel_o == e_i[KsrtW-2 -: KernelIdW]);
endmodule
