// gsched: Yosys front-end probe (docs/area-timing.md). A dynamic index plus a member select in
// one expression, read and written: ksrt[idx_i].kernel. ok_o is 1 for every input when the
// tool gets it right.
module probe_dyn_member (
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] flat_i,
  input  gs_pkg::slot_t                              idx_i,
  input  gs_pkg::kernel_id_t                         wr_kernel_i,
  output gs_pkg::kernel_id_t                         kernel_o,
  output logic                                       ok_o
);
  gs_pkg::ksrt_entry_t [gs_pkg::MaxKernels-1:0] ksrt;
  gs_pkg::ksrt_entry_t [gs_pkg::MaxKernels-1:0] wr;
  logic ok_wr;
  assign ksrt     = flat_i;
  assign kernel_o = ksrt[idx_i].kernel;
  always_comb begin
    wr = ksrt;
    wr[idx_i].kernel = wr_kernel_i;
  end
  always_comb begin
    ok_wr = 1'b1;
    for (int i = 0; i < gs_pkg::MaxKernels; i++) begin
      if (32'(i) == 32'(idx_i)) ok_wr &= wr[i].kernel == wr_kernel_i;
      else                  ok_wr &= wr[i] == ksrt[i];
    end
  end
  assign ok_o = ok_wr
      && (kernel_o == flat_i[32'(idx_i)*gs_pkg::KsrtW + gs_pkg::KsrtW - 2 -: gs_pkg::KernelIdW]);
endmodule
