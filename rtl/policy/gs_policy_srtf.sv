// gs_policy_srtf: Shortest Remaining Time First and SRTF/Adaptive (Pai et al., PACT 2014).
// Contract and timing: docs/rtl/gs_policy_srtf.md
//
// Pai, Govindarajan, Thazhuthaveetil, "Preemptive Thread Block Scheduling with Online
// Structural Runtime Prediction for Concurrent GPGPU Kernels", PACT 2014, Sec. 5.1.1 (SRTF) and
// 5.1.2 (SRTF/Adaptive, policy_i == POL_SRTF_ADAPTIVE), with a kernel-level Simple Slicing
// prediction of each kernel's remaining time (Sec. 4, Eq. 1/2). The page has the reading of the
// paper and what differs from it.
// Decision (combinational, from registers and the framework tables): every SM serves best, the
// predicted kernel with the least remaining time (ties: the older), but SM 0 samples the oldest
// kernel without a prediction while there is one (with no prediction at all, every SM serves
// those in arrival order); in SRTF/Adaptive's sharing mode (the estimated slowdowns differ by
// more than set_i.adaptive_threshold) every SM may also issue the other predicted kernels and best
// is held to set_i.adaptive_residency CTAs per SM. Nothing is preempted and no quota is set.
// Prediction: at a block end, rem = (grid - done) * t / (res * num_sms), saturated at
// 2**SrtfPredW - 1, by the policies' one divider (gs_seq_div, one of SrtfPredW quotient bits
// per cycle) shared by the slots in round robin; the operands are registered the cycle before
// the division starts (the two products stay out of the divider's paths). Latency: a block end
// in cycle c is in rem from c + SrtfPredW + 4 with the divider free, at most
// (MaxKernels + 1) * (SrtfPredW + 3) cycles later (constraints/latency.json).
// Storage: SrtfStateW (gs_spec.toml; docs/rtl/gs_policy_srtf.md has the count).
// Policy contract: docs/adding-a-policy.md.
// Golden twin: cmodel/sched/golden/gs_policy_srtf.hpp.
module gs_policy_srtf (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::srtf_cfg_t set_i,   // its settings (the registry's section srtf)
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::srtf_state_t   state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CycleW;
  localparam int RW = gs_pkg::CtaCntW;
  localparam int BW = gs_pkg::CtaIdW;
  localparam int PW = gs_pkg::SrtfPredW;
  localparam int D = gs_pkg::SrtfDivW;
  localparam int DW = gs_pkg::SrtfDenW;
  localparam int SampleSm = 0;

  // flat local copies: indexed reads never go through a struct member (Yosys 0.23)
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [K*SW-1:0] rank;
  logic [N*K*RW-1:0] resident;
  gs_pkg::slot_mask_t pending;
  assign ksrt = view_i.ksrt;
  assign rank = view_i.rank;
  assign resident = view_i.resident;
  assign pending = view_i.pending;

  logic [K-1:0] pred_ok_q, pred_ok_d, reslice_q, reslice_d, pend_q, pend_d;
  logic [K*CW-1:0] t_q, t_d;
  logic [K*RW-1:0] res_q, res_d;
  logic [K*PW-1:0] rem_q, rem_d;
  logic [SW-1:0] rr_q, rr_d, div_k_q, div_k_d;
  logic op_valid_q, op_valid_d, div_run_q, div_run_d;
  logic [D-1:0] op_num_q, op_num_d;
  logic [DW-1:0] op_den_q, op_den_d;

  // the divider: started from the registered operands, read in the first cycle it is not busy
  logic div_busy;
  logic [PW-1:0] div_quo;
  gs_pkg::srtf_div_state_t div_state;
  gs_seq_div #(.NumW(D), .DenW(DW), .QuoW(PW)) u_div (
    .clk_i, .rst_ni, .start_i(op_valid_q),   // op_valid_q is set only while en_i
    .num_i(op_num_q), .den_i(op_den_q), .busy_o(div_busy), .quo_o(div_quo), .state_o(div_state)
  );

  // ---- the choice: best among the predicted kernels with work, samp among the others ----
  logic has_best, has_samp;
  logic [SW-1:0] best, samp, best_rank, samp_rank;
  logic [PW-1:0] best_rem;
  always_comb begin
    has_best = 1'b0;
    has_samp = 1'b0;
    best = '0;
    samp = '0;
    best_rank = '0;
    samp_rank = '0;
    best_rem = '0;
    for (int k = 0; k < K; k++) begin
      if (pending[k]) begin
        if (pred_ok_q[k]) begin
          if (!has_best || rem_q[k*PW +: PW] < best_rem ||
              (rem_q[k*PW +: PW] == best_rem && rank[k*SW +: SW] < best_rank)) begin
            has_best = 1'b1;
            best = SW'(k);
            best_rem = rem_q[k*PW +: PW];
            best_rank = rank[k*SW +: SW];
          end
        end else if (!has_samp || rank[k*SW +: SW] < samp_rank) begin
          has_samp = 1'b1;
          samp = SW'(k);
          samp_rank = rank[k*SW +: SW];
        end
      end
    end
  end

  // ---- SRTF/Adaptive: the SRTF order's positions and slowdown gap (evaluated only when selected) ----
  localparam int SumW = PW + SW;   // a sum of up to MaxKernels predictions
  localparam int TW = gs_pkg::SaThrW;
  localparam int FW = gs_pkg::SaThrFracW;
  localparam int MW = TW + PW > SumW + FW ? TW + PW : SumW + FW;   // both sides of the gap test
  logic adaptive, share_q, share_d, unfair;
  logic [K*SW-1:0] pos;            // kernel k's place in the SRTF order of P (0 = best); K-1 outside P
  logic [SumW-1:0] sum_before;     // S_i - rem_i: the predictions of P ahead of kernel i
  logic ahead;
  assign adaptive = policy_i == gs_pkg::POL_SRTF_ADAPTIVE;
  always_comb begin
    unfair = 1'b0;
    pos = '1;
    sum_before = '0;
    ahead = 1'b0;
    if (adaptive) begin
      for (int i = 0; i < K; i++) begin
        if (pending[i] && pred_ok_q[i]) begin
          pos[i*SW +: SW] = '0;
          sum_before = '0;
          for (int j = 0; j < K; j++) begin
            ahead = j != i && pending[j] && pred_ok_q[j] &&
                     (rem_q[j*PW +: PW] < rem_q[i*PW +: PW] ||
                      (rem_q[j*PW +: PW] == rem_q[i*PW +: PW] && rank[j*SW +: SW] < rank[i*SW +: SW]));
            if (ahead) begin
              pos[i*SW +: SW] = pos[i*SW +: SW] + 1'b1;
              sum_before = sum_before + SumW'(rem_q[j*PW +: PW]);
            end
          end
`ifdef GS_MUT_SA_GAP_NO_SCALE
          // MUTATION: the threshold's fraction bits are ignored (0.5 reads as 128)
          if (MW'(sum_before) > MW'(set_i.adaptive_threshold) * MW'(rem_q[i*PW +: PW])) unfair = 1'b1;
`else
          if ((MW'(sum_before) << FW) > MW'(set_i.adaptive_threshold) * MW'(rem_q[i*PW +: PW])) unfair = 1'b1;
`endif
        end
      end
    end
  end
  assign share_d = adaptive && unfair;

  // ---- eligibility: SM 0 samples, the others serve best (SRTF) or P with best held (sharing) ----
  logic [K-1:0] others, shared, sample_sm;
  logic [N*K-1:0] elig;
  always_comb begin
    others = has_best ? (K'(1) << best) : (pending & ~pred_ok_q);
    shared = pending & pred_ok_q;
    sample_sm = (has_best && has_samp) ? (K'(1) << samp) : others;
`ifdef GS_MUT_SRTF_NO_SAMPLE
    // MUTATION: SM 0 keeps serving the shortest kernel; a newcomer is never sampled
    sample_sm = others;
`endif
    for (int s = 0; s < N; s++) begin
      elig[s*K +: K] = (s == SampleSm) ? sample_sm : others;
      if (share_q && has_best && !(s == SampleSm && has_samp)) begin
        elig[s*K +: K] = shared;
        for (int k = 0; k < K; k++)
          if (best == SW'(k) && resident[(s*K + k)*RW +: RW] >= set_i.adaptive_residency) elig[s*K + k] = 1'b0;
`ifdef GS_MUT_SA_NO_LIMIT
        // MUTATION: best is not held to adaptive_residency while sharing
        elig[s*K +: K] = shared;
`endif
      end
    end
  end

  // order: arrival (srtf); the SRTF order, then arrival (srtf-adaptive, so that best fills its
  // adaptive_residency CTAs first and the rest goes to the next shortest)
  logic [K*gs_pkg::OrderKeyW-1:0] key, fifo_key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .key_o(fifo_key));
  always_comb begin
    key = fifo_key;
    if (adaptive)
      for (int k = 0; k < K; k++)
        key[k*gs_pkg::OrderKeyW +: gs_pkg::OrderKeyW] = {gs_pkg::PrioW'(pos[k*SW +: SW]), rank[k*SW +: SW]};
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
  end

  // ---- next state: the divider, then this cycle's events ----
  logic found;
  int rr_idx;
  logic [SW-1:0] pick;
  gs_pkg::ksrt_entry_t e, ek;   // grid and done (e), valid (ek) are read
  logic [BW-1:0] left_blocks;
  logic [CW-1:0] pick_t;
  logic [RW-1:0] pick_res;
  logic ev_fin;
  logic [K-1:0] running, cleared;

  // the ending block's SM's row of resident counts, one AND-OR over the SMs: read at the
  // computed index (ev_sm * K + k) * RW it was one shifter over all N*K*RW bits per slot in
  // Yosys (8 x 6,336 bits at 132 SMs), which did not map in 1,800 s (docs/area-timing.md)
  logic [K*RW-1:0] ev_row;
  always_comb begin
    ev_row = '0;
    for (int s = 0; s < N; s++) begin
      if (event_i.ev_sm == gs_pkg::SmIdW'(s)) ev_row = resident[s*K*RW +: K*RW];
    end
  end

  always_comb begin
    pred_ok_d = pred_ok_q;
    reslice_d = reslice_q;
    pend_d = pend_q;
    t_d = t_q;
    res_d = res_q;
    rem_d = rem_q;
    rr_d = rr_q;
    div_k_d = div_k_q;
    op_valid_d = 1'b0;   // the divider takes the operands in the cycle they are valid
    div_run_d = div_run_q || op_valid_q;
    op_num_d = op_num_q;
    op_den_d = op_den_q;

    // the next pending slot after rr_q and its operands
    found = 1'b0;
    pick = '0;
    for (int j = K - 1; j >= 0; j--) begin   // the lowest j, i.e. the first slot after rr_q, wins
      rr_idx = 32'(rr_q) + 1 + j;
      if (rr_idx >= K) rr_idx = rr_idx - K;
      if (pend_q[rr_idx]) begin
        found = 1'b1;
        pick = SW'(rr_idx);
      end
    end
    e = '0;
    pick_t = '0;
    pick_res = '0;
    for (int k = 0; k < K; k++) begin
      if (pick == SW'(k)) begin
        e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
        pick_t = t_q[k*CW +: CW];
        pick_res = res_q[k*RW +: RW];
      end
    end
    left_blocks = e.grid > e.done ? e.grid - e.done : '0;

    if (!op_valid_q && !div_run_q) begin   // idle: register the next division's operands
      if (found) begin
        op_valid_d = 1'b1;
        div_k_d = pick;
        rr_d = pick;
        pend_d[pick] = 1'b0;
        op_num_d = D'(left_blocks) * D'(pick_t);
        op_den_d = DW'(pick_res) * DW'(cfg_i.num_sms);
      end
    end else if (div_run_q && !div_busy) begin   // the quotient is final (saturated by gs_seq_div)
      div_run_d = 1'b0;
      for (int k = 0; k < K; k++) begin
        if (div_k_q == SW'(k)) begin
          rem_d[k*PW +: PW] = div_quo;
          pred_ok_d[k] = 1'b1;
        end
      end
    end

    // a block end (after the divider, so that it wins over the divider's write)
    ev_fin = event_i.ev_valid && event_i.ev_type == gs_pkg::EV_CTA_FINISHED;
    for (int k = 0; k < K; k++) begin
      if (ev_fin && event_i.ev_slot == SW'(k)) begin
        if (reslice_q[k]) begin   // the first block to end in the slice gives t
          t_d[k*CW +: CW] = event_i.ev_end_cycle - event_i.ev_start_cycle;
`ifndef GS_MUT_SRTF_T_EVERY_END
          reslice_d[k] = 1'b0;
`endif
        end
        // registered SMST count: the ending block still counts
        res_d[k*RW +: RW] = ev_row[k*RW +: RW];
        pend_d[k] = 1'b1;
      end
    end

    // a launch or a kernel end: a new slice for every running kernel; the slot starts afresh
    for (int k = 0; k < K; k++) begin
      ek = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      running[k] = ek.valid;
    end
    cleared = event_i.slot_free;
    if (event_i.alloc_valid) begin
      cleared[event_i.alloc_slot] = 1'b1;
      reslice_d = reslice_d | running | (K'(1) << event_i.alloc_slot);
    end
    if (event_i.slot_free != '0) reslice_d = reslice_d | (running & ~event_i.slot_free);
    for (int k = 0; k < K; k++) begin
      if (cleared[k]) begin
        pred_ok_d[k] = 1'b0;
        pend_d[k] = 1'b0;
        t_d[k*CW +: CW] = '0;
        res_d[k*RW +: RW] = '0;
        rem_d[k*PW +: PW] = '0;
        if (!(event_i.alloc_valid && event_i.alloc_slot == SW'(k))) reslice_d[k] = 1'b0;
        if (div_k_d == SW'(k)) begin   // its division is dropped (a running one is left to finish)
          op_valid_d = 1'b0;
          div_run_d = 1'b0;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pred_ok_q <= '0;
      reslice_q <= '0;
      pend_q <= '0;
      t_q <= '0;
      res_q <= '0;
      rem_q <= '0;
      rr_q <= SW'(K - 1);   // the first pick scans from slot 0
      share_q <= 1'b0;
      div_k_q <= '0;
      op_valid_q <= 1'b0;
      div_run_q <= 1'b0;
      op_num_q <= '0;
      op_den_q <= '0;
    end else if (en_i) begin
      pred_ok_q <= pred_ok_d;
      reslice_q <= reslice_d;
      pend_q <= pend_d;
      t_q <= t_d;
      res_q <= res_d;
      rem_q <= rem_d;
      rr_q <= rr_d;
      share_q <= share_d;
      div_k_q <= div_k_d;
      op_valid_q <= op_valid_d;
      div_run_q <= div_run_d;
      op_num_q <= op_num_d;
      op_den_q <= op_den_d;
    end
  end

  always_comb begin
    state_o = '0;
    state_o.pred_ok = pred_ok_q;
    state_o.reslice = reslice_q;
    state_o.pend = pend_q;
    state_o.share = share_q;
    state_o.t = t_q;
    state_o.res = res_q;
    state_o.rem = rem_q;
    state_o.rr = rr_q;
    state_o.div_k = div_k_q;
    state_o.op_valid = op_valid_q;
    state_o.div_run = div_run_q;
    state_o.op_num = op_num_q;
    state_o.op_den = op_den_q;
    state_o.div = div_state;
  end
endmodule
