// gsched: gs_prof_window -- where an observation sample falls in a profiling phase's window.
//
// The policies that profile (gs_policy_warped_slicer, gs_policy_sbm) time their phases on the
// observation channel's epoch stamps, not on a cycle counter of their own: a warm-up of
// warmup_i cycles from the first stamp seen (t0), then a window opened by the stamp that ended
// the warm-up (t1, when the profiling counters clear) and `sample_i` cycles long. The epoch that
// straddles the window's end is counted whole (the counters add whole epochs), so the window's
// last counted stamp (tl) may lie past t1 + sample_i; a later sample of that same epoch, from
// another SM, is counted too. The registers (t0, t1, tl) are the policy's own: they are part of
// its lockstep-checked state record. Purely combinational.
//   warm_done_o  obs_i ends the warm-up: clear the counters, open the window at obs_i.cycle
//   count_o      obs_i belongs to the open window: add it (the counters' run_i)
// Stamps are modulo 2**CycleW: differences wrap, as the counters of a long run do.
// Golden twin: cmodel/sched/golden/gs_prof_window.hpp.
module gs_prof_window (
  /* verilator lint_off UNUSEDSIGNAL */
  input  gs_pkg::obs_sample_t obs_i,        // valid and cycle are read
  input  logic                t0_valid_i,   // a warm-up stamp was seen ...
  input  gs_pkg::cycle_t      t0_i,         // ... this one, the first (unused by a mutant)
  /* verilator lint_on UNUSEDSIGNAL */
  input  gs_pkg::cycle_t      t1_i,         // the stamp that opened the window
  input  logic                tl_valid_i,   // a stamp was counted ...
  input  gs_pkg::cycle_t      tl_i,         // ... this one, the last
  input  gs_pkg::cycle_t      warmup_i,
  input  gs_pkg::cycle_t      sample_i,
  output logic                warm_done_o,
  output logic                count_o
);
  gs_pkg::cycle_t t_warm, age;
  always_comb begin
`ifdef GS_MUT_PWIN_WARM_FROM_NOW
    // MUTATION: the warm-up is measured from this sample's own stamp (t0 ignored): it never ends
    t_warm = obs_i.cycle;
`else
    t_warm = t0_valid_i ? t0_i : obs_i.cycle;   // the first stamp starts the warm-up
`endif
    age = obs_i.cycle - t1_i;
    warm_done_o = obs_i.valid && (obs_i.cycle - t_warm) >= warmup_i;
    // the window's own epoch (stamped t1) was before the clear: not counted
    count_o = obs_i.valid && obs_i.cycle != t1_i && (age <= sample_i || !tl_valid_i || obs_i.cycle == tl_i);
  end
endmodule
