// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation").
// A packed array of a packed struct and of a field typedef, read with a constant index and a
// member select. ok_o is 1 for every input if the tool keeps the array dimension; a tool that
// drops it (Yosys 0.23, rtl/gs_pkg.sv header) gives a 145-bit ksrt and wrong bits.
module probe_packed_array (
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0]     flat_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KernelIdW-1:0] ids_flat_i,
  output logic [31:0]                   bits_o,    // $bits(ksrt): 8 * 145 = 1160
  output logic [gs_pkg::MaxKernels-1:0] valid_o,   // ksrt[i].valid
  output logic                          ok_o
);
  gs_pkg::ksrt_entry_t [gs_pkg::MaxKernels-1:0] ksrt;
  gs_pkg::kernel_id_t  [gs_pkg::MaxKernels-1:0] ids;
  logic [gs_pkg::MaxKernels-1:0] valid_ref;
  logic [gs_pkg::MaxKernels-1:0] ok_kernel;
  logic [gs_pkg::MaxKernels-1:0] ok_id;

  assign ksrt   = flat_i;
  assign ids    = ids_flat_i;
  assign bits_o = $bits(ksrt);
  for (genvar i = 0; i < gs_pkg::MaxKernels; i++) begin : g_e
    assign valid_o[i]   = ksrt[i].valid;
    assign valid_ref[i] = flat_i[i*gs_pkg::KsrtW + gs_pkg::KsrtW - 1];
    assign ok_kernel[i] = ksrt[i].kernel == flat_i[i*gs_pkg::KsrtW + gs_pkg::KsrtW - 2 -: gs_pkg::KernelIdW];
    assign ok_id[i]     = ids[i] == ids_flat_i[i*gs_pkg::KernelIdW +: gs_pkg::KernelIdW];
  end
  assign ok_o = (bits_o == 32'(gs_pkg::MaxKernels * gs_pkg::KsrtW)) && (valid_o == valid_ref)
                && (&ok_kernel) && (&ok_id);
endmodule
