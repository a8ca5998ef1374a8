// gs_cta_fit: do one more CTA (or two) fit an SM: acc + cta (+ cta2) <= cap, per resource.
// Contract and timing: docs/rtl/policies.md
//
// Resources: threads, warps, registers, shared memory, CTA slots. The occupancy count of the
// policies that size a kernel on an SM one CTA per cycle (gs_policy_warped_slicer's N_k,
// gs_policy_sbm's task occupancies, gs_policy_hetero's CTA counts) and the SM driver's fit
// checks: acc is what the CTAs counted so far take, cta what one more takes (a CTA slot each),
// cap the SM's capacity; with TwoCtas, cta2 is one CTA more on top (the SM driver's issued SM:
// its row after the issued CTA, against every slot's demand; cta2_i is unread otherwise).
// sum_o is acc + cta (valid when fits_o). Purely combinational; one module so that every block
// counts occupancy the same way (docs/adding-a-policy.md rule 5).
// The fit does not wait for a sum: acc + cta (+ cta2) <= cap exactly when the operands plus cap
// complemented over W+2 bits stay below 2**(W+2), so carry-save rows reduce the operands to two
// and only the carry out of their sum is formed (one carry tree, not an adder and then a
// comparator in series).
// Golden twin: cta_fit() in cmodel/sched/golden/gs_cta_fit.hpp.
module gs_cta_fit #(
  parameter bit TwoCtas = 1'b0
) (
  input  gs_pkg::wf_res_t acc_i,
  input  gs_pkg::wf_res_t cta_i,
  input  gs_pkg::wf_res_t cta2_i,
  input  gs_pkg::wf_res_t cap_i,
  output gs_pkg::wf_res_t sum_o,
  output logic            fits_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_ws_occ_ignores_slots, "GS_MUT_WS_OCC_IGNORES_SLOTS")
  localparam int CW = gs_pkg::CtaCntW;

  localparam int XW = gs_pkg::ShmemW + 3;   // the widest resource, its sum of three and a sign

  // u + v + x <= c for W-bit u, v, x, c: with c complemented over W+2 bits (nc = 2**(W+2)-1-c),
  // the sum u + v + x + nc (below 2**(W+3)) has bit W+2 clear exactly then; two carry-save rows
  // and the carry out of the last sum
  function automatic logic le_sum(input logic [XW-1:0] u, input logic [XW-1:0] v, input logic [XW-1:0] x,
                                  input logic [XW-1:0] c, input int w);
    logic [XW-1:0] nc, s1, c1, s2, c2, tot;
    for (int i = 0; i < XW; i++) nc[i] = (i < w) ? !c[i] : (i < w + 2);
    s1 = u ^ v ^ nc;
    c1 = ((u & v) | (u & nc) | (v & nc)) << 1;
    s2 = s1 ^ c1 ^ x;
    c2 = ((s1 & c1) | (s1 & x) | (c1 & x)) << 1;
    tot = s2 + c2;
    le_sum = !tot[w + 2];
  endfunction

  logic [CW-1:0] slot_cap;
  always_comb begin
    sum_o.threads = acc_i.threads + cta_i.threads;
    sum_o.warps = acc_i.warps + cta_i.warps;
    sum_o.regs = acc_i.regs + cta_i.regs;
    sum_o.shmem = acc_i.shmem + cta_i.shmem;
    sum_o.slots = acc_i.slots + cta_i.slots;
    // (GS_MUT_WS_OCC_IGNORES_SLOTS: the SM's own CTA slots do not limit the count)
    slot_cap = mut_ws_occ_ignores_slots ? CW'(gs_pkg::MaxCtasPerSm) : cap_i.slots;
    fits_o = le_sum(XW'(acc_i.threads), XW'(cta_i.threads), TwoCtas ? XW'(cta2_i.threads) : '0, XW'(cap_i.threads), gs_pkg::ThreadW) &&
             le_sum(XW'(acc_i.warps), XW'(cta_i.warps), TwoCtas ? XW'(cta2_i.warps) : '0, XW'(cap_i.warps), gs_pkg::WarpW) &&
             le_sum(XW'(acc_i.regs), XW'(cta_i.regs), TwoCtas ? XW'(cta2_i.regs) : '0, XW'(cap_i.regs), gs_pkg::RegW) &&
             le_sum(XW'(acc_i.shmem), XW'(cta_i.shmem), TwoCtas ? XW'(cta2_i.shmem) : '0, XW'(cap_i.shmem), gs_pkg::ShmemW) &&
             le_sum(XW'(acc_i.slots), XW'(cta_i.slots), TwoCtas ? XW'(cta2_i.slots) : '0, XW'(slot_cap), CW);
  end
endmodule
