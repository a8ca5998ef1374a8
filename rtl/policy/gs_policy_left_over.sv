// gsched: gs_policy_left_over -- Left-Over / FIFO (Warped-Slicer Sec. III, Fig. 2b; the
// Hyper-Q default, issue 2 item 7).
//
// Kernels are ordered by arrival (Active Queue rank): the SM driver gives every SM to the
// oldest kernel whose CTA fits and a younger kernel only gets what older ones leave over.
// No reservation, no preemption. cfg_cta_limit_i != 0 caps the resident CTAs of every kernel
// on every SM (the Fig. 3a sweeps: one kernel alone with 1..max CTAs per SM).
// Purely combinational; the key is also the FIFO order of even and spatial.
module gs_policy_left_over (
  input  logic [gs_pkg::MaxKernels*gs_pkg::SlotW-1:0] rank_i,
  input  gs_pkg::cta_cnt_t cfg_cta_limit_i,
  output logic [gs_pkg::MaxKernels*gs_pkg::OrderKeyW-1:0] key_o,
  output logic quota_en_o,
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] quota_o
);
  always_comb begin
    for (int k = 0; k < gs_pkg::MaxKernels; k++) begin
      key_o[k*gs_pkg::OrderKeyW +: gs_pkg::OrderKeyW] =
          {{gs_pkg::PrioW{1'b0}}, rank_i[k*gs_pkg::SlotW +: gs_pkg::SlotW]};
    end
    quota_en_o = (cfg_cta_limit_i != '0);
    quota_o = {(gs_pkg::MaxSms*gs_pkg::MaxKernels){cfg_cta_limit_i}};
  end
endmodule
