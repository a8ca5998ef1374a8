// gs_owner_elig: eligibility of owned SMs, for the policies that assign SMs (spatial, DSS).
// Contract and timing: docs/rtl/gs_owner_elig.md
//
// KSRT slot k may issue on SM s only if the SMST names k as the SM's owner (elig bit
// s*MaxKernels + k). An SM without an owner takes no CTAs.
// Purely combinational, no storage.
module gs_owner_elig (
  input  logic [gs_pkg::MaxSms*gs_pkg::SmstW-1:0] smst_i,
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0] elig_o
);
  gs_pkg::smst_entry_t m;   // only the owner fields are read
  always_comb begin
    for (int s = 0; s < gs_pkg::MaxSms; s++) begin
      m = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
      for (int k = 0; k < gs_pkg::MaxKernels; k++) begin
        elig_o[s*gs_pkg::MaxKernels + k] = m.owner_valid && m.owner == gs_pkg::SlotW'(k);
      end
    end
  end
endmodule
