// gs_repartition_scan: the "repartition when the kernel set changes" sequencer.
// Contract and timing: docs/rtl/gs_repartition_scan.md
//
// Shared by gs_policy_even and gs_policy_spatial.
// A scan starts when the set of kernels with CTAs to issue (pending_i) differs from the set
// the last completed scan was for (done), and is not the set a running scan is already for
// (target). It then steps through SMs 0..cfg_num_sms_i-1, Inner steps per SM (inner_o =
// 0..Inner-1 within the SM), one step per cycle; a further change restarts it from SM 0.
// When the last step of the last SM is taken, done := target. With en_i low it idles. While
// hold_i is high a running scan waits (no step, no advance); a start is not held.
//   start_o -- this cycle (re)starts the scan: target := pending_i, nk := |pending_i|;
//   step_o  -- this cycle takes the step (sm_o, inner_o) of a running scan (not restarting,
//              not held);
//   nk_o    -- number of kernels in the target set (the policy's K).
// Decisions come from registers only (start_o/step_o also read pending_i, which gs_top
// derives from registers). Storage: busy 1 + SM 8 + inner 3 + target 8 + done 8 + nk 4 bits
// (the inner counter stays 0 when Inner = 1, and synthesis removes it). Golden twin: cmodel/sched/golden/gs_repartition_scan.hpp.
module gs_repartition_scan #(
  parameter int Inner = 1   // steps per SM, 1..MaxKernels (inner_o counts kernel slots)
) (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  input  gs_pkg::slot_mask_t pending_i,
  input  logic hold_i,   // the user is not ready for the next step (gs_policy_even's quota unit)
  output logic start_o,
  output logic step_o,
  output gs_pkg::sm_id_t sm_o,
  output gs_pkg::slot_t inner_o,
  output gs_pkg::slot_mask_t target_o,
  output logic [gs_pkg::SlotW:0] nk_o,
  output gs_pkg::scan_state_t state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int K = gs_pkg::MaxKernels;
  localparam int KCW = gs_pkg::SlotW + 1;   // holds 0..MaxKernels

  logic busy_q, busy_d;
  gs_pkg::sm_id_t s_q, s_d;
  gs_pkg::slot_t i_q, i_d;
  gs_pkg::slot_mask_t target_q, target_d, done_q, done_d;
  logic [KCW-1:0] nk_q, nk_d, cnt;

  always_comb begin
    busy_d = busy_q;
    s_d = s_q;
    i_d = i_q;
    target_d = target_q;
    done_d = done_q;
    nk_d = nk_q;

    cnt = '0;
    for (int k = 0; k < K; k++) cnt = cnt + KCW'(pending_i[k]);
    start_o = en_i && (pending_i != done_q) && (!busy_q || pending_i != target_q);
    step_o = en_i && !start_o && busy_q && !hold_i;

    if (!en_i) begin
      busy_d = 1'b0;
    end else if (start_o) begin
      busy_d = 1'b1;
      s_d = '0;
      i_d = '0;
      target_d = pending_i;
      nk_d = cnt;
    end else if (step_o) begin
      i_d = i_q + 1'b1;
      if (i_q == gs_pkg::SlotW'(Inner - 1)) begin
        i_d = '0;
        s_d = s_q + 1'b1;
        if ({1'b0, s_q} + 1'b1 >= cfg_num_sms_i) begin
          busy_d = 1'b0;
          done_d = target_q;
        end
      end
    end
  end

  assign sm_o = s_q;
  assign inner_o = i_q;
  assign target_o = target_q;
  assign nk_o = nk_q;
  always_comb begin
    state_o = '0;
    state_o.busy = busy_q;
    state_o.s = s_q;
    state_o.inner = i_q;
    state_o.target = target_q;
    state_o.done = done_q;
    state_o.nk = nk_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      s_q <= '0;
      i_q <= '0;
      target_q <= '0;
      done_q <= '0;
      nk_q <= '0;
    end else begin
      busy_q <= busy_d;
      s_q <= s_d;
      i_q <= i_d;
      target_q <= target_d;
      done_q <= done_d;
      nk_q <= nk_d;
    end
  end
endmodule
