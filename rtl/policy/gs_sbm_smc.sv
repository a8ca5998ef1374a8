// gs_sbm_smc: SBM's Selective Mapping Controller (Bitalebi et al., Sec. 4, Fig. 6).
// Contract and timing: docs/rtl/gs_policy_sbm.md
//
// The workgroup mapping and the per-task bypass level of two tasks under one SBM_REG.
// Mapping (elig_o, bit s*MaxKernels+k: slot k may issue on SM s), while on_i (the pair is in
// the KSRT and its occupancies are known); every slot everywhere otherwise:
//   Base, B_L2, B_L12  separate SMs (Sec. 6.2's BASE): task 1 on SMs 0 .. h-1, task 2 on
//                      h .. num_sms-1, h = (num_sms + 1) / 2; no limit within its half
//   MWG, MWGB          both tasks on every SM, each held to a quota of resident workgroups:
//                      an equal split, occ_k / 2 (occ_k: the task's workgroups that fit one SM
//                      alone), plus occ_th for CI and minus occ_th for the other task, at least
//                      one (Sec. 4: occ_th = 1 turns 4 + 4 into 5 + 3)
// The quota is checked against the SMST's registered resident count, exact because the SM
// driver issues at most one CTA per cycle.
// Registered (sbm_smc_state_t): what the mapping takes from its slowly changing inputs -- the
// half from num_sms_i, the quotas and the kind of mapping from reg_i, occ1_i, occ2_i -- a cycle
// after them, so that only the slots and the SMST's counts stand between a port and elig_o.
// So that no cycle maps with quotas older than on_i, the mapping applies (on_o) once on_i has
// been high two cycles running; a pair's first cycle issues nothing (its policy holds elig at
// zero until on_o). A new SBM_REG while on_i holds reaches elig_o a cycle after it.
// Bypass (lvl1_o, lvl2_o): the task that is not $F bypasses the L2 (B_L2) or L1 and L2 (B_L12,
// MWGB); Base and MWG bypass nothing (Fig. 6b).
// Latency: one cycle (docs/rtl/gs_policy_sbm.md). Golden twin: gs_sbm_smc.hpp.
module gs_sbm_smc (
  input  logic                              clk_i,
  input  logic                              rst_ni,
  input  gs_pkg::sbm_reg_t                  reg_i,
  input  logic                              on_i,
  input  gs_pkg::slot_t                     slot1_i,
  input  gs_pkg::slot_t                     slot2_i,
  input  gs_pkg::cta_cnt_t                  occ1_i,
  input  gs_pkg::cta_cnt_t                  occ2_i,
  input  logic [gs_pkg::SmIdW:0]            num_sms_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_i,
  output logic                              on_o,     // the mapping applies to elig_o
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0] elig_o,
  output gs_pkg::bypass_level_e             lvl1_o,
  output gs_pkg::bypass_level_e             lvl2_o,
  output gs_pkg::sbm_smc_state_t            state_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_sbm_half_off_by_one, "GS_MUT_SBM_HALF_OFF_BY_ONE")
  `GS_MUTANT(mut_sbm_map_on_early, "GS_MUT_SBM_MAP_ON_EARLY")
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;

  gs_pkg::sbm_smc_state_t q, d;
  assign state_o = q;
  logic [CW:0] base1, base2, q1, q2;
  always_comb begin
    base1 = ((CW + 1)'(occ1_i) >> 1);
    base2 = ((CW + 1)'(occ2_i) >> 1);
    // CI gains occ_th workgroups, the other task gives them up, each keeping at least one
    q1 = !reg_i.ci ? base1 + (CW + 1)'(reg_i.occ_th)
                   : (base1 > (CW + 1)'(reg_i.occ_th) ? base1 - (CW + 1)'(reg_i.occ_th) : '0);
    q2 = reg_i.ci ? base2 + (CW + 1)'(reg_i.occ_th)
                  : (base2 > (CW + 1)'(reg_i.occ_th) ? base2 - (CW + 1)'(reg_i.occ_th) : '0);
    if (q1 == '0) q1 = (CW + 1)'(1);
    if (q2 == '0) q2 = (CW + 1)'(1);
    d.on = on_i;
    d.shared = reg_i.arch == gs_pkg::SBM_MWG || reg_i.arch == gs_pkg::SBM_MWGB;
    d.half = (num_sms_i + 1'b1) >> 1;
    d.q1 = q1;
    d.q2 = q2;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end

  // Every bit written at a constant index, the slot compared per bit: an assignment at a computed
  // index (elig_o[s*K + slot1_i]) is a shift of the whole MaxSms*MaxKernels vector per SM in Yosys,
  // which abc could not map at 132 SMs in half an hour. Task 2 wins a bit that both slots name.
  // (GS_MUT_SBM_MAP_ON_EARLY: the mapping applies from on_i's first cycle, on quotas a cycle old)
  assign on_o = on_i && (q.on || mut_sbm_map_on_early);
  always_comb begin
    elig_o = '1;
    if (on_o) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < K; k++) begin
          if (k == 32'(slot2_i)) begin
            elig_o[s*K + k] = q.shared ? (CW + 1)'(resident_i[(s*K + k)*CW +: CW]) < q.q2
                                       : (gs_pkg::SmIdW + 1)'(s) >= q.half;
          end else if (k == 32'(slot1_i)) begin
            elig_o[s*K + k] = q.shared ? (CW + 1)'(resident_i[(s*K + k)*CW +: CW]) < q.q1
                                       // (GS_MUT_SBM_HALF_OFF_BY_ONE: task 1 also gets SM half)
                                       : (gs_pkg::SmIdW + 1)'(s) < q.half || (mut_sbm_half_off_by_one && (gs_pkg::SmIdW + 1)'(s) == q.half);
          end
        end
      end
    end
  end

  // the level of each task: the one that is not $F (fcache) bypasses; written out per task
  // rather than as a function of the record, which Yosys 0.23 cannot size
  gs_pkg::bypass_level_e lvl_byp;
  always_comb begin
    lvl_byp = gs_pkg::BYPASS_NONE;
    if (reg_i.arch == gs_pkg::SBM_B_L2) lvl_byp = gs_pkg::BYPASS_L2;
    else if (reg_i.arch == gs_pkg::SBM_B_L12 || reg_i.arch == gs_pkg::SBM_MWGB) lvl_byp = gs_pkg::BYPASS_L1L2;
    lvl1_o = reg_i.fcache ? lvl_byp : gs_pkg::BYPASS_NONE;    // $F = task 2: task 1 bypasses
    lvl2_o = !reg_i.fcache ? lvl_byp : gs_pkg::BYPASS_NONE;
  end
endmodule
