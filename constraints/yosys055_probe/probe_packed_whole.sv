// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation"). A packed
// array of a packed struct read whole entry by whole entry (ksrt[i], no member select). ok_o is 1
// for every input if the tool keeps the array dimension. A tool that drops it reads ksrt as one
// 145-bit entry, ksrt[i] as one bit of it, and says nothing (no warning): the silent case.
module probe_packed_whole (
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] flat_i,
  output logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] flat_o,
  output logic                                        ok_o
);
  gs_pkg::ksrt_entry_t [gs_pkg::MaxKernels-1:0] ksrt;
  logic [gs_pkg::MaxKernels-1:0] ok_e;
  assign ksrt = flat_i;
  for (genvar i = 0; i < gs_pkg::MaxKernels; i++) begin : g_e
    assign flat_o[i*gs_pkg::KsrtW +: gs_pkg::KsrtW] = ksrt[i];
    assign ok_e[i] = ksrt[i] == flat_i[i*gs_pkg::KsrtW +: gs_pkg::KsrtW];
  end
  assign ok_o = &ok_e;
endmodule
