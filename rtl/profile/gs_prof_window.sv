// gsched: gs_prof_window -- a profiling phase's window on the observation stamps, and the next
// value of the window registers.
//
// The policies that profile (gs_policy_warped_slicer, gs_policy_sbm, gs_policy_hetero) time their
// phases on the observation channel's epoch stamps, not on a cycle counter of their own: a
// warm-up of warmup_i cycles from the first stamp seen (t0), then a window opened by the stamp
// that ended the warm-up (t1, when the profiling counters clear) and `sample_i` cycles long. The
// epoch that straddles the window's end is counted whole (the counters add whole epochs), so the
// window's last counted stamp (tl) may lie past t1 + sample_i; a later sample of that same epoch,
// from another SM, is counted too. The registers (prof_win_t: t0, t1, tl) are the policy's own
// five state fields (lockstep-checked); this block gives their next value, so every policy
// steps them the same way. Purely combinational. Per phase (phase_i, prof_phase_e), on a sample:
//   PW_WARM    the first stamp is t0; the sample warmup_i cycles after it clears the counters,
//              opens the window (t1, tl cleared) and ends the phase (done_o)
//   PW_TIMER   the same count without a window (Warped-Slicer's algorithm delay): done_o only
//   PW_OPEN    the sample opens the window at once (clear_o, t1) and ends the phase
//   PW_SAMPLE  a sample inside the window is counted (run_o; tl = its stamp); one of a later
//              epoch ends the phase (one stamped t1, the window's own epoch, does neither)
//   PW_IDLE    nothing: the registers hold
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
  gs_pkg::cycle_t t_warm, age;
  logic warm_done, in_window;
  always_comb begin
`ifdef GS_MUT_PWIN_WARM_FROM_NOW
    // MUTATION: the warm-up is measured from this sample's own stamp (t0 ignored): it never ends
    t_warm = obs_i.cycle;
`else
    t_warm = win_i.t0_valid ? win_i.t0 : obs_i.cycle;   // the first stamp starts the warm-up
`endif
    age = obs_i.cycle - win_i.t1;
    warm_done = (obs_i.cycle - t_warm) >= warmup_i;
    // the window's own epoch (stamped t1) was before the clear: not counted
    in_window = obs_i.cycle != win_i.t1 && (age <= sample_i || !win_i.tl_valid || obs_i.cycle == win_i.tl);

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
