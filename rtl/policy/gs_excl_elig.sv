// gs_excl_elig: one kernel per SM (gsim --sm-sharing exclusive), as an eligibility mask.
// Contract and timing: docs/rtl/gs_excl_elig.md
//
// Shared by the policies whose registry entry has sm_sharing (left-over, npq, ppq): with en_i,
// KSRT slot k may issue on SM s only while no other slot has CTAs resident there. This is the
// static partitioning of Kepler that Tanasic's FCFS and NPQ baselines run under ("only thread
// blocks from the same kernel can be scheduled to concurrently run on the same SM", Sec. 2.3):
// a younger kernel gets an SM once the older kernel's CTAs have left it. Without en_i every bit
// is set (the SM's leftover resources are shared).
// Sound with one dispatch per cycle: the SM driver's issue updates the SMST resident counts at
// the edge that registers it, so the next cycle's view already holds the new CTA.
// Purely combinational, no storage.
module gs_excl_elig (
  input  logic                                                   en_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_i,
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0]             elig_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_excl_self_blocks, "GS_MUT_EXCL_SELF_BLOCKS")
  `GS_MUTANT(mut_excl_ignore_younger, "GS_MUT_EXCL_IGNORE_YOUNGER")
  localparam int K = gs_pkg::MaxKernels;
  localparam int W = gs_pkg::CtaCntW;
  logic [K-1:0] occupied;   // per SM: slots with CTAs resident

  always_comb begin
    for (int s = 0; s < gs_pkg::MaxSms; s++) begin
      for (int k = 0; k < K; k++) occupied[k] = resident_i[(s*K + k)*W +: W] != '0;
      for (int k = 0; k < K; k++) begin
        if (mut_excl_self_blocks)           // (a kernel's own CTAs keep it off the SM)
          elig_o[s*K + k] = !en_i || occupied == '0;
        else if (mut_excl_ignore_younger)   // (only lower-numbered slots block)
          elig_o[s*K + k] = !en_i || (occupied & ((K'(1) << k) - K'(1))) == '0;
        else
          elig_o[s*K + k] = !en_i || (occupied & ~(K'(1) << k)) == '0;
      end
    end
  end
endmodule
