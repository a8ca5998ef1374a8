// gs_cta_fit: does one more CTA fit an SM: acc + cta <= cap, per resource.
// Contract and timing: docs/rtl/policies.md
//
// Resources: threads, warps, registers, shared memory, CTA slots. The occupancy count of the
// policies that size a kernel on an SM one CTA per cycle (gs_policy_warped_slicer's N_k,
// gs_policy_sbm's task occupancies, gs_policy_hetero's CTA counts): acc is what the CTAs
// counted so far take, cta what one more takes (a CTA slot each), cap the SM's capacity. sum_o
// is acc + cta (valid when fits_o). Purely combinational; one module so that the policies count
// occupancy the same way (docs/adding-a-policy.md rule 5).
// Golden twin: cta_fit() in cmodel/sched/golden/gs_cta_fit.hpp.
module gs_cta_fit (
  input  gs_pkg::wf_res_t acc_i,
  input  gs_pkg::wf_res_t cta_i,
  input  gs_pkg::wf_res_t cap_i,
  output gs_pkg::wf_res_t sum_o,
  output logic            fits_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_ws_occ_ignores_slots, "GS_MUT_WS_OCC_IGNORES_SLOTS")
  localparam int CW = gs_pkg::CtaCntW;
  logic [gs_pkg::ThreadW:0] t;
  logic [gs_pkg::WarpW:0] w;
  logic [gs_pkg::RegW:0] r;
  logic [gs_pkg::ShmemW:0] sh;
  logic [CW:0] c;
  always_comb begin
    t = (gs_pkg::ThreadW + 1)'(acc_i.threads) + (gs_pkg::ThreadW + 1)'(cta_i.threads);
    w = (gs_pkg::WarpW + 1)'(acc_i.warps) + (gs_pkg::WarpW + 1)'(cta_i.warps);
    r = (gs_pkg::RegW + 1)'(acc_i.regs) + (gs_pkg::RegW + 1)'(cta_i.regs);
    sh = (gs_pkg::ShmemW + 1)'(acc_i.shmem) + (gs_pkg::ShmemW + 1)'(cta_i.shmem);
    c = (CW + 1)'(acc_i.slots) + (CW + 1)'(cta_i.slots);
    sum_o.threads = t[gs_pkg::ThreadW-1:0];
    sum_o.warps = w[gs_pkg::WarpW-1:0];
    sum_o.regs = r[gs_pkg::RegW-1:0];
    sum_o.shmem = sh[gs_pkg::ShmemW-1:0];
    sum_o.slots = c[CW-1:0];
    fits_o = t <= (gs_pkg::ThreadW + 1)'(cap_i.threads) && w <= (gs_pkg::WarpW + 1)'(cap_i.warps) &&
             r <= (gs_pkg::RegW + 1)'(cap_i.regs) && sh <= (gs_pkg::ShmemW + 1)'(cap_i.shmem) &&
             // (GS_MUT_WS_OCC_IGNORES_SLOTS: the SM's own CTA slots do not limit the count)
             c <= (mut_ws_occ_ignores_slots ? (CW + 1)'(gs_pkg::MaxCtasPerSm) : (CW + 1)'(cap_i.slots));
  end
endmodule
