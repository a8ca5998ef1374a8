// gs_prof_window: a profiling phase's window on the observation stamps (next window registers).
// Contract and timing: docs/rtl/gs_prof_counters.md
//
// The policies that profile (gs_policy_warped_slicer, gs_policy_sbm, gs_policy_hetero) time
// their phases on the observation channel's epoch stamps, not on a cycle counter of their own:
// a warm-up of warmup_i cycles from the first stamp seen (t0), then a window opened by the
// stamp that ended the warm-up (t1, when the profiling counters clear) and sample_i cycles
// long; epochs are counted whole. The registers (prof_win_t: t0, t1, tl) are the policy's own
// five state fields (lockstep-checked); this block gives their next value, so every policy
// steps them the same way. Purely combinational. Per phase (phase_i, prof_phase_e: PW_WARM,
// PW_TIMER, PW_OPEN, PW_SAMPLE, PW_IDLE) what a sample does is tabled in the page above.
// The caller enters PW_WARM and PW_TIMER with t0_valid cleared. Stamps are modulo 2**CycleW:
// differences wrap, as the counters of a long run do. Golden twin:
// cmodel/sched/golden/gs_prof_window.hpp.
module gs_prof_window (
  input  gs_pkg::obs_sample_t obs_i,      // valid and cycle are read
  input  gs_pkg::prof_phase_e phase_i,
  input  gs_pkg::prof_win_t   win_i,      // the window registers
  input  gs_pkg::cycle_t      warmup_i,   // PW_WARM, PW_TIMER: cycles from t0
  input  gs_pkg::cycle_t      sample_i,   // PW_SAMPLE: the window's length
  output gs_pkg::prof_win_t   win_o,      // their next value
  output logic                clear_o,    // the counters clear (the window opens at obs_i)
  output logic                run_o,      // the counters add obs_i
  output logic                done_o      // the phase ends at obs_i
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_pwin_warm_from_now, "GS_MUT_PWIN_WARM_FROM_NOW")
  localparam int W = gs_pkg::CycleW;

  // ((c - t) mod 2**W) + ~v + one >= 2**W, i.e. d >= v (one = 1) or d > v (one = 0) for the
  // wrapped difference d = (c - t) mod 2**W: one three-operand sum y = c + ~t + 1 + ~v + one
  // (a carry-save row and one carry chain) and c >= t beside it, instead of a subtraction
  // followed by a comparison. d = y - 2**W - [c >= t] * 2**W, so the test is
  // y >= 2**W * (1 + [c >= t]).
  function automatic logic diff_ge(input gs_pkg::cycle_t c, input gs_pkg::cycle_t t, input gs_pkg::cycle_t v,
                                   input logic one);
    logic [W+1:0] y;
    logic [W:0] x;
    x = {1'b0, c} + {1'b0, ~t} + (W + 1)'(1);   // x[W]: c >= t
    y = {2'b0, c} + {2'b0, ~t} + {2'b0, ~v} + (W + 2)'(one) + (W + 2)'(1);
    diff_ge = x[W] ? y[W+1] : (y[W+1] | y[W]);
  endfunction

  logic warm_done, in_window, age_gt;
  always_comb begin
    // the first stamp starts the warm-up: before it (t0 not valid) the age is 0
    // (GS_MUT_PWIN_WARM_FROM_NOW: measured from this sample's own stamp, t0 ignored: it never ends)
    warm_done = (win_i.t0_valid && !mut_pwin_warm_from_now) ? diff_ge(obs_i.cycle, win_i.t0, warmup_i, 1'b1)
                                                            : warmup_i == '0;
    age_gt = diff_ge(obs_i.cycle, win_i.t1, sample_i, 1'b0);   // cycle - t1 > sample
    // the window's own epoch (stamped t1) was before the clear: not counted
    in_window = obs_i.cycle != win_i.t1 && (!age_gt || !win_i.tl_valid || obs_i.cycle == win_i.tl);

    win_o = win_i;
    clear_o = 1'b0;
    run_o = 1'b0;
    done_o = 1'b0;
    if (obs_i.valid) begin
      unique case (phase_i)
        gs_pkg::PW_WARM, gs_pkg::PW_TIMER: begin
          if (warm_done) begin
            done_o = 1'b1;
            clear_o = phase_i == gs_pkg::PW_WARM;
          end else if (!win_i.t0_valid) begin
            win_o.t0 = obs_i.cycle;
            win_o.t0_valid = 1'b1;
          end
        end
        gs_pkg::PW_OPEN: begin
          done_o = 1'b1;
          clear_o = 1'b1;
        end
        gs_pkg::PW_SAMPLE: begin
          if (in_window) begin
            run_o = 1'b1;
            win_o.tl = obs_i.cycle;
            win_o.tl_valid = 1'b1;
          end else if (obs_i.cycle != win_i.t1) begin   // an epoch past the window
            done_o = 1'b1;
          end
        end
        default: ;
      endcase
      if (clear_o) begin
        win_o.t1 = obs_i.cycle;
        win_o.tl_valid = 1'b0;
      end
    end
  end
endmodule
