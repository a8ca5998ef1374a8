// gs_srtf_predict: the Simple Slicing runtime predictor of one SM (Pai et al., PACT 2014, Sec. 4).
// Contract and timing: docs/rtl/gs_srtf_predict.md
//
// Pai et al., "Preemptive Thread Block Scheduling with Online Structural Runtime Prediction
// for Concurrent GPGPU Kernels", PACT 2014, Sec. 4: Table 1, Algorithm 1, Eq. 2, for the
// kernels of up to MaxKernels KSRT slots. The SRTF policy asks it how long each kernel will
// run; one instance per SM (Sec. 3.4.2: "we implement per-SM predictors").
// Table 1's state per slot (Active_Kernel_Cycles, Done_Blocks, Total_Blocks, Resident_Blocks,
// t, Pred_Cycles, Reslice) and one Block_Start stamp per block slot of the SM (one block holds
// a slot at a time, whatever its kernel: MaxCtasPerSm stamps, not MaxKernels x MaxCtasPerSm).
// Events, at most one per cycle, each with its cycle stamp ev_cycle_i (Algorithm 1's clock()):
// ONLAUNCH, ONKERNELEND, ONBLOCKSTART, ONBLOCKEND (ev_kind_i); every block end makes a
// prediction. The readings of Algorithm 1 and Eq. 2 pinned here are listed on the page; one
// says why: Active_Kernel_Cycles is counted from the stamps, so no counter moves every cycle
// (docs/adding-a-policy.md rule 6).
// Eq. 2's quotient comes from a restoring divider, one of SrtfDivW quotient bits per cycle,
// shared by the slots in round robin. Latency: a block end in cycle c leaves its prediction in
// pred_o from cycle c + SrtfDivW + 2 when the divider is free, at most c + (MaxKernels + 1) *
// (SrtfDivW + 1) (every other slot's division first); a later end of the same slot before its
// division starts is merged (the prediction is of the latest end). busy_o low: every
// prediction is current.
// Storage (defaults, MaxKernels 8, MaxCtasPerSm 32): 2,877 bits (SrtfPredStateW), of which
// Block_Start 1,024 b, per-slot state 1,728 b, divider 125 b.
// Golden twin: cmodel/sched/golden/gs_srtf_predict.hpp.
module gs_srtf_predict (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic ev_valid_i,
  input  gs_pkg::srtf_ev_e ev_kind_i,
  input  gs_pkg::slot_t ev_slot_i,                          // KSRT slot of the kernel
  input  logic [gs_pkg::SrtfBlkW-1:0] ev_blk_i,             // block slot l (start and end)
  input  gs_pkg::cycle_t ev_cycle_i,                        // clock() of the event
  input  gs_pkg::cta_id_t ev_total_i,                       // Total_Blocks (launch)
  output logic busy_o,                                      // a prediction is pending or in the divider
  output logic [gs_pkg::MaxKernels-1:0] pred_valid_o,       // slot k has a prediction since its launch
  output logic [gs_pkg::MaxKernels*gs_pkg::SrtfPredW-1:0] pred_o,   // Pred_Cycles, slot k at [k*SrtfPredW +: SrtfPredW]
  output gs_pkg::srtf_pred_state_t state_o                  // the registers (block bench)
);
  localparam int K = gs_pkg::MaxKernels;
  localparam int B = gs_pkg::MaxCtasPerSm;
  localparam int CW = gs_pkg::CycleW;
  localparam int PW = gs_pkg::SrtfPredW;
  localparam int BW = gs_pkg::CtaIdW;
  localparam int RW = gs_pkg::CtaCntW;
  localparam int D = gs_pkg::SrtfDivW;
  localparam int NW = gs_pkg::SrtfDivCntW;
  localparam int SW = gs_pkg::SlotW;
  localparam int SumW = (D > PW ? D : PW) + 1;

  logic [K-1:0] valid_q, valid_d, reslice_q, reslice_d, pending_q, pending_d, has_pred_q, has_pred_d;
  logic [K*PW-1:0] active_q, active_d, pred_q, pred_d;
  logic [K*CW-1:0] last_q, last_d, t_q, t_d;
  logic [K*BW-1:0] done_q, done_d, total_q, total_d;
  logic [K*RW-1:0] resident_q, resident_d, den_q, den_d;
  logic [B*CW-1:0] bstart_q, bstart_d;
  logic [SW-1:0] rr_q, rr_d, div_k_q, div_k_d;
  logic div_busy_q, div_busy_d;
  logic [NW-1:0] div_cnt_q, div_cnt_d;
  logic [RW-1:0] div_rem_q, div_rem_d, div_den_q, div_den_d;
  logic [D-1:0] div_quo_q, div_quo_d;
  logic [PW-1:0] div_add_q, div_add_d;

  // divider: the pick, its operands, one step
  logic found;
  int rr_idx;
  logic [SW-1:0] pick;
  logic [BW-1:0] pick_total, pick_done, left_blocks;
  logic [CW-1:0] pick_t;
  logic [D-1:0] dividend;
  logic [RW:0] trial_rem;                     // {remainder, next dividend bit}: < 2 * divisor
  logic [D-1:0] step_quo;
  logic [RW-1:0] step_rem;
  logic [D-1:0] quotient;
  logic [SumW-1:0] pred_sum;
  logic [PW-1:0] pred_new;
  // the event's slot and block slot
  logic ev_run, blk_ok, kill;
  logic [PW-1:0] ev_active;
  logic [CW-1:0] ev_last, ev_bstart;
  logic [BW-1:0] ev_done;
  logic [RW-1:0] ev_res;
  logic [PW:0] active_sum;
  logic [CW-1:0] interval;

  always_comb begin
    valid_d = valid_q;
    reslice_d = reslice_q;
    pending_d = pending_q;
    has_pred_d = has_pred_q;
    active_d = active_q;
    pred_d = pred_q;
    last_d = last_q;
    t_d = t_q;
    done_d = done_q;
    total_d = total_q;
    resident_d = resident_q;
    den_d = den_q;
    bstart_d = bstart_q;
    rr_d = rr_q;
    div_k_d = div_k_q;
    div_busy_d = div_busy_q;
    div_cnt_d = div_cnt_q;
    div_rem_d = div_rem_q;
    div_den_d = div_den_q;
    div_quo_d = div_quo_q;
    div_add_d = div_add_q;

    // ---- the divider: start on the next pending slot after rr_q, or one quotient bit ----
    found = 1'b0;
    pick = '0;
    for (int j = K - 1; j >= 0; j--) begin   // the lowest j, i.e. the first slot after rr_q, wins
      rr_idx = 32'(rr_q) + 1 + j;
      if (rr_idx >= K) rr_idx = rr_idx - K;
      if (pending_q[rr_idx]) begin
        found = 1'b1;
        pick = SW'(rr_idx);
      end
    end
    pick_total = '0;
    pick_done = '0;
    pick_t = '0;
    for (int k = 0; k < K; k++) begin
      if (pick == SW'(k)) begin
        pick_total = total_q[k*BW +: BW];
        pick_done = done_q[k*BW +: BW];
        pick_t = t_q[k*CW +: CW];
      end
    end
    left_blocks = pick_total > pick_done ? pick_total - pick_done : '0;
    dividend = D'(left_blocks) * D'(pick_t);

    trial_rem = {div_rem_q, div_quo_q[D-1]};
    step_quo = {div_quo_q[D-2:0], 1'b0};
    step_rem = trial_rem[RW-1:0];
    if (trial_rem >= {1'b0, div_den_q}) begin
      step_rem = RW'(trial_rem - {1'b0, div_den_q});
      step_quo[0] = 1'b1;
    end
`ifdef GS_MUT_SRTF_DIV_CEIL
    // MUTATION: Eq. 2's quotient rounds up instead of down
    quotient = step_quo + D'(step_rem != '0);
`else
    quotient = step_quo;
`endif
    pred_sum = SumW'(div_add_q) + SumW'(quotient);
    pred_new = pred_sum > SumW'({PW{1'b1}}) ? {PW{1'b1}} : PW'(pred_sum);

    if (!div_busy_q) begin
      if (found) begin
        div_busy_d = 1'b1;
        div_k_d = pick;
        rr_d = pick;
        pending_d[pick] = 1'b0;
        div_cnt_d = NW'(D);
        div_rem_d = '0;
        div_quo_d = dividend;
        for (int k = 0; k < K; k++) begin
          if (pick == SW'(k)) begin
            div_den_d = den_q[k*RW +: RW];
            div_add_d = active_q[k*PW +: PW];
          end
        end
      end
    end else begin
      div_cnt_d = div_cnt_q - 1'b1;
      div_rem_d = step_rem;
      div_quo_d = step_quo;
      if (div_cnt_q == NW'(1)) begin
        div_busy_d = 1'b0;
        for (int k = 0; k < K; k++) begin
          if (div_k_q == SW'(k)) begin
            pred_d[k*PW +: PW] = pred_new;
            has_pred_d[k] = 1'b1;
          end
        end
      end
    end

    // ---- the event (Algorithm 1): after the divider, so it wins over a write to its slot ----
    ev_run = valid_q[ev_slot_i];
    blk_ok = 32'(ev_blk_i) < B;
    ev_active = '0;
    ev_last = '0;
    ev_done = '0;
    ev_res = '0;
    for (int k = 0; k < K; k++) begin
      if (ev_slot_i == SW'(k)) begin
        ev_active = active_q[k*PW +: PW];
        ev_last = last_q[k*CW +: CW];
        ev_done = done_q[k*BW +: BW];
        ev_res = resident_q[k*RW +: RW];
      end
    end
    ev_bstart = '0;
    for (int l = 0; l < B; l++) begin
      if (32'(ev_blk_i) == l) ev_bstart = bstart_q[l*CW +: CW];
    end
    interval = ev_cycle_i - ev_last;                         // modulo 2**CycleW: exact
    active_sum = {1'b0, ev_active} + (PW+1)'(interval);
    kill = 1'b0;

    if (ev_valid_i) begin
      unique case (ev_kind_i)
        gs_pkg::SRTF_LAUNCH: begin
          for (int k = 0; k < K; k++) begin
            if (ev_slot_i == SW'(k)) begin
              active_d[k*PW +: PW] = '0;
              pred_d[k*PW +: PW] = '0;
              last_d[k*CW +: CW] = ev_cycle_i;
              t_d[k*CW +: CW] = '0;
              done_d[k*BW +: BW] = '0;
              total_d[k*BW +: BW] = ev_total_i;
              resident_d[k*RW +: RW] = '0;
              den_d[k*RW +: RW] = '0;
            end
          end
          valid_d[ev_slot_i] = 1'b1;
`ifdef GS_MUT_SRTF_RESLICE_OWN
          // MUTATION: Algorithm 1 line 4 read alone -- a launch starts a slice for its own kernel only
          reslice_d[ev_slot_i] = 1'b1;
`else
          reslice_d = reslice_q | valid_d;                   // all running kernels, the new one too
`endif
          pending_d[ev_slot_i] = 1'b0;
          has_pred_d[ev_slot_i] = 1'b0;
          kill = 1'b1;
        end
        gs_pkg::SRTF_KERNEL_END: begin
          if (ev_run) begin
            valid_d[ev_slot_i] = 1'b0;
            reslice_d = reslice_q | valid_d;                 // every other running kernel
            reslice_d[ev_slot_i] = 1'b0;
            pending_d[ev_slot_i] = 1'b0;
            has_pred_d[ev_slot_i] = 1'b0;
            kill = 1'b1;
          end
        end
        gs_pkg::SRTF_BLOCK_START: begin
          if (ev_run && blk_ok) begin
            for (int l = 0; l < B; l++) begin
              if (32'(ev_blk_i) == l) bstart_d[l*CW +: CW] = ev_cycle_i;
            end
            for (int k = 0; k < K; k++) begin
              if (ev_slot_i == SW'(k)) begin
                if (ev_res == '0) last_d[k*CW +: CW] = ev_cycle_i;   // active again from here
                if (ev_res != '1) resident_d[k*RW +: RW] = ev_res + 1'b1;
              end
            end
          end
        end
        gs_pkg::SRTF_BLOCK_END: begin
          if (ev_run && blk_ok) begin
            for (int k = 0; k < K; k++) begin
              if (ev_slot_i == SW'(k)) begin
                if (ev_res != '0) active_d[k*PW +: PW] = active_sum[PW] ? {PW{1'b1}} : active_sum[PW-1:0];
                last_d[k*CW +: CW] = ev_cycle_i;
                if (ev_done != '1) done_d[k*BW +: BW] = ev_done + 1'b1;
                if (reslice_q[k]) t_d[k*CW +: CW] = ev_cycle_i - ev_bstart;   // line 13
                den_d[k*RW +: RW] = ev_res == '0 ? RW'(1) : ev_res;
`ifdef GS_MUT_SRTF_RESIDENT_END
                // MUTATION: the ending block stays counted as resident
`else
                if (ev_res != '0) resident_d[k*RW +: RW] = ev_res - 1'b1;
`endif
              end
            end
            reslice_d[ev_slot_i] = 1'b0;
            pending_d[ev_slot_i] = 1'b1;
          end
        end
        default: ;
      endcase
    end
    // a launch or kernel end of the slot under division drops that division
    if (kill && div_busy_d && div_k_d == ev_slot_i) div_busy_d = 1'b0;
  end

  assign busy_o = div_busy_q || pending_q != '0;
  assign pred_valid_o = has_pred_q;
  assign pred_o = pred_q;

  always_comb begin
    state_o = '0;
    state_o.valid = valid_q;
    state_o.reslice = reslice_q;
    state_o.pending = pending_q;
    state_o.has_pred = has_pred_q;
    state_o.active = active_q;
    state_o.last = last_q;
    state_o.done = done_q;
    state_o.total = total_q;
    state_o.resident = resident_q;
    state_o.den = den_q;
    state_o.t = t_q;
    state_o.pred = pred_q;
    state_o.block_start = bstart_q;
    state_o.rr = rr_q;
    state_o.div_busy = div_busy_q;
    state_o.div_k = div_k_q;
    state_o.div_cnt = div_cnt_q;
    state_o.div_rem = div_rem_q;
    state_o.div_quo = div_quo_q;
    state_o.div_den = div_den_q;
    state_o.div_add = div_add_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      valid_q <= '0;
      reslice_q <= '0;
      pending_q <= '0;
      has_pred_q <= '0;
      active_q <= '0;
      pred_q <= '0;
      last_q <= '0;
      t_q <= '0;
      done_q <= '0;
      total_q <= '0;
      resident_q <= '0;
      den_q <= '0;
      bstart_q <= '0;
      rr_q <= SW'(K - 1);         // the first pick scans from slot 0
      div_k_q <= '0;
      div_busy_q <= 1'b0;
      div_cnt_q <= '0;
      div_rem_q <= '0;
      div_den_q <= '0;
      div_quo_q <= '0;
      div_add_q <= '0;
    end else begin
      valid_q <= valid_d;
      reslice_q <= reslice_d;
      pending_q <= pending_d;
      has_pred_q <= has_pred_d;
      active_q <= active_d;
      pred_q <= pred_d;
      last_q <= last_d;
      t_q <= t_d;
      done_q <= done_d;
      total_q <= total_d;
      resident_q <= resident_d;
      den_q <= den_d;
      bstart_q <= bstart_d;
      rr_q <= rr_d;
      div_k_q <= div_k_d;
      div_busy_q <= div_busy_d;
      div_cnt_q <= div_cnt_d;
      div_rem_q <= div_rem_d;
      div_den_q <= div_den_d;
      div_quo_q <= div_quo_d;
      div_add_q <= div_add_d;
    end
  end

`ifndef SYNTHESIS
  // the divisor is a block count (>= 1), and only a running slot is divided for
  assert property (@(posedge clk_i) disable iff (!rst_ni) div_busy_q |-> div_den_q != '0)
    else $error("gs_srtf_predict: division by zero");
  assert property (@(posedge clk_i) disable iff (!rst_ni) (pending_q & ~valid_q) == '0)
    else $error("gs_srtf_predict: a prediction pending for a slot not running");
`endif
endmodule
