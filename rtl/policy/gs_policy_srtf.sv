// gs_policy_srtf: Shortest Remaining Time First and SRTF/Adaptive (Pai et al., PACT 2014).
// Contract and timing: docs/rtl/gs_policy_srtf.md
//
// Pai, Govindarajan, Thazhuthaveetil, "Preemptive Thread Block Scheduling with Online
// Structural Runtime Prediction for Concurrent GPGPU Kernels", PACT 2014, Sec. 5.1.1 (SRTF) and
// 5.1.2 (SRTF/Adaptive, policy_i == POL_SRTF_ADAPTIVE), with a kernel-level Simple Slicing
// prediction of each kernel's remaining time (Sec. 4, Eq. 1/2). The page has the reading of the
// paper and what differs from it.
// Decision (combinational from view_i.pending and registers; the pairwise orders of the
// kernels are registered): every SM serves best, the kernel with CTAs to issue that is first in
// the registered SRTF order (ord), but SM 0 samples the oldest kernel without a prediction
// while there is one (with no prediction at all, every SM serves those in arrival order); in
// SRTF/Adaptive's sharing mode (some kernel's slowdown gap exceeded set_i.adaptive_threshold at
// its last visit) every SM may also issue the other predicted kernels and best is held to
// set_i.adaptive_residency CTAs per SM. Nothing is preempted and no quota is set.
// Order sweep: one kernel per SrtfSweepLast + 1 cycles, all in turn after a change: its place
// in the order (kernels ahead, one read per cycle) and SRTF/Adaptive's gap test (their
// predictions summed, against threshold * rem from a gs_seq_mul), written at the end of the
// visit. Every add and compare is chunked to ArithChunkW bits per cycle.
// Prediction: at a block end, rem = (grid - done) * t / (res * num_sms), saturated at
// 2**SrtfPredW - 1: the dividend and divisor by two gs_seq_mul (CycleW cycles), the quotient
// by the policies' one divider (gs_seq_div, SrtfPredW cycles), shared by the slots in round
// robin. Latencies in constraints/latency.json and the page.
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
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_sa_gap_no_scale, "GS_MUT_SA_GAP_NO_SCALE")
  `GS_MUTANT(mut_sa_no_limit, "GS_MUT_SA_NO_LIMIT")
  `GS_MUTANT(mut_srtf_ahead_ignores_p, "GS_MUT_SRTF_AHEAD_IGNORES_P")
  `GS_MUTANT(mut_srtf_no_sample, "GS_MUT_SRTF_NO_SAMPLE")
  `GS_MUTANT(mut_srtf_t_every_end, "GS_MUT_SRTF_T_EVERY_END")
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CycleW;
  localparam int RW = gs_pkg::CtaCntW;
  localparam int BW = gs_pkg::CtaIdW;
  localparam int PW = gs_pkg::SrtfPredW;
  localparam int D = gs_pkg::SrtfDivW;
  localparam int DW = gs_pkg::SrtfDenW;
  localparam int CH = gs_pkg::ArithChunkW;   // the widest carry chain of one cycle
  localparam int HW = gs_pkg::SrtfTHiW;      // CW - CH: end - start's high part
  localparam int TW = gs_pkg::SaThrW;
  localparam int FW = gs_pkg::SaThrFracW;
  localparam int SumW = gs_pkg::SrtfSumW;
  localparam int XW = gs_pkg::SaProdW;
  localparam int NCmp = gs_pkg::SrtfCmpChunks;
  localparam int NSum = gs_pkg::SrtfSumChunks;
  localparam int NGap = gs_pkg::SaGapChunks;
  localparam int StW = gs_pkg::SrtfStepW;
  localparam int Last = gs_pkg::SrtfSweepLast;
  localparam int LeftW = gs_pkg::SrtfLeftW;
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
  logic [BW-1:0] op_grid_q, op_grid_d, op_done_q, op_done_d;   // the picked slot's KSRT counts
  logic pick_run_q, pick_run_d, mul_run_q, mul_run_d, div_run_q, div_run_d;
  logic tsub_valid_q, tsub_valid_d, tsub_sample_q, tsub_sample_d, tsub_borrow_q, tsub_borrow_d;
  logic [SW-1:0] tsub_k_q, tsub_k_d;
  logic [CH-1:0] tsub_lo_q, tsub_lo_d;
  logic [HW-1:0] tsub_end_hi_q, tsub_end_hi_d, tsub_start_hi_q, tsub_start_hi_d;

  // ---- the prediction's datapath: two multipliers, then the divider ----
  // Eq. 2's dividend (grid - done) * t and divisor res * num_sms, one multiplier bit per cycle
  // (the narrow operand added: grid - done, res); the divider starts from their products in the
  // first cycle both are idle
  logic mul_start, div_start, num_busy, den_busy, div_busy;
  logic [D-1:0] num_prod;
  logic [DW-1:0] den_prod;
  logic [PW-1:0] div_quo;
  logic [CW-1:0] op_t;
  logic [RW-1:0] op_res;
  logic [BW-1:0] op_left;
  gs_pkg::srtf_mul_num_state_t num_state;
  gs_pkg::srtf_mul_den_state_t den_state;
  gs_pkg::srtf_div_state_t div_state;
  assign mul_start = en_i && pick_run_q;
  gs_seq_mul #(.AW(BW), .BW(CW)) u_mul_num (
    .clk_i, .rst_ni, .start_i(mul_start), .a_i(op_left), .b_i(op_t),
    .busy_o(num_busy), .prod_o(num_prod), .state_o(num_state)
  );
  gs_seq_mul #(.AW(RW), .BW(gs_pkg::SmIdW)) u_mul_den (
    .clk_i, .rst_ni, .start_i(mul_start), .a_i(op_res), .b_i(gs_pkg::SmIdW'(cfg_i.num_sms)),   // num_sms <= MaxSms < 2**SmIdW
    .busy_o(den_busy), .prod_o(den_prod), .state_o(den_state)
  );
  assign div_start = en_i && mul_run_q && !num_busy && !den_busy;
  gs_seq_div #(.NumW(D), .DenW(DW), .QuoW(PW)) u_div (
    .clk_i, .rst_ni, .start_i(div_start), .num_i(num_prod), .den_i(den_prod),
    .busy_o(div_busy), .quo_o(div_quo), .state_o(div_state)
  );

  // the picked slot's operands: grid and done registered at the pick (op_grid, op_done), t
  // and res read the cycle after (div_k_q), when the multipliers start
  always_comb begin
    op_t = '0;
    op_res = '0;
    for (int k = 0; k < K; k++) begin
      if (div_k_q == SW'(k)) begin
        op_t = t_q[k*CW +: CW];
        op_res = res_q[k*RW +: RW];
      end
    end
    op_left = op_grid_q > op_done_q ? op_grid_q - op_done_q : '0;
  end

  // ---- the order sweep: one kernel i per visit of SrtfSweepLast + 1 cycles ----
  // It runs while sw_left_q > 0: a change of a prediction, of P or of the slots sets it to
  // K + 1 visits, so every kernel is visited in full after the last change (then the sweep and
  // its registers stand still). Steps of a visit (docs/rtl/gs_policy_srtf.md, The order sweep):
  // 0 loads rem_i and starts threshold * rem_i; 1..K read kernel j = step - 1 and compare it
  // with i in chunks; the step after adds it (count, chunked sum); Last - 1 compares the gap
  // test's sides in chunks; Last writes ord[i] and unfair[i] and moves to i + 1.
  logic [SW-1:0] sw_k_q, sw_k_d, cur_rank_q, cur_rank_d, acc_cnt_q, acc_cnt_d;
  logic [StW-1:0] sw_step_q, sw_step_d;
  logic [LeftW-1:0] sw_left_q, sw_left_d;
  logic [K-1:0] last_p_q;   // P as the sweep last saw it
  logic [PW-1:0] cur_rem_q, cur_rem_d, rd_rem_q, rd_rem_d;
  logic rd_in_q, rd_in_d, rd_rank_lt_q, rd_rank_lt_d;
  logic [NCmp-1:0] rd_lt_q, rd_lt_d, rd_eq_q, rd_eq_d;
  logic [SumW-1:0] acc_sum_q, acc_sum_d;
  logic [NSum-2:0] acc_cy_q, acc_cy_d;
  logic [NGap-1:0] gap_gt_q, gap_gt_d, gap_eq_q, gap_eq_d;
  logic [K*SW-1:0] ord_q, ord_d, ord_w;   // ord_w: ord_d after this cycle's launches and ends
  logic [K-1:0] unfair_q, unfair_d, in_p;
  logic sw_run, thr_start, thr_busy;
  logic [XW-1:0] thr_prod;
  gs_pkg::srtf_thr_mul_state_t thr_state;
  assign in_p = pending & pred_ok_q;
  assign sw_run = sw_left_q != '0;

  // the sweep's two reads, 8:1 AND-OR multiplexers: the visited kernel (step 0) and kernel j
  logic [SW-1:0] rd_j, visit_rank, rd_rank;
  logic [PW-1:0] visit_rem, rd_rem;
  always_comb begin
    rd_j = SW'(sw_step_q - 1'b1);
    visit_rem = '0;
    visit_rank = '0;
    rd_rem = '0;
    rd_rank = '0;
    for (int k = 0; k < K; k++) begin
      if (sw_k_q == SW'(k)) begin
        visit_rem = rem_q[k*PW +: PW];
        visit_rank = rank[k*SW +: SW];
      end
      if (rd_j == SW'(k)) begin
        rd_rem = rem_q[k*PW +: PW];
        rd_rank = rank[k*SW +: SW];
      end
    end
  end

  assign thr_start = en_i && sw_run && sw_step_q == '0;
  gs_seq_mul #(.AW(TW), .BW(PW)) u_mul_thr (
    .clk_i, .rst_ni, .start_i(thr_start), .a_i(set_i.adaptive_threshold), .b_i(visit_rem),
    .busy_o(thr_busy), .prod_o(thr_prod), .state_o(thr_state)
  );

  // chunked arithmetic: operands zero-extended to whole chunks
  logic [NCmp*CH-1:0] cmp_a, cmp_b;
  logic [NSum*CH-1:0] sum_x, sum_y;
  logic [NGap*CH-1:0] gap_l, gap_r;
  logic [CH:0] chunk_sum;
  logic rd_lt_all, gap_gt_all;
  always_comb begin
    sw_k_d = sw_k_q;
    sw_step_d = sw_step_q;
    sw_left_d = sw_left_q;
    cur_rem_d = cur_rem_q;
    cur_rank_d = cur_rank_q;
    rd_in_d = rd_in_q;
    rd_rank_lt_d = rd_rank_lt_q;
    rd_lt_d = rd_lt_q;
    rd_eq_d = rd_eq_q;
    rd_rem_d = rd_rem_q;
    acc_cnt_d = acc_cnt_q;
    acc_sum_d = acc_sum_q;
    acc_cy_d = acc_cy_q;
    gap_gt_d = gap_gt_q;
    gap_eq_d = gap_eq_q;
    ord_d = ord_q;
    unfair_d = unfair_q;
    cmp_a = '0;
    cmp_b = '0;
    sum_x = '0;
    sum_y = '0;
    gap_l = '0;
    gap_r = '0;
    chunk_sum = '0;
    // the kernel read in the step before: ahead of i by {rem, rank}, the top chunk deciding first
    rd_lt_all = rd_rank_lt_q;
    for (int c = 0; c < NCmp; c++) rd_lt_all = rd_lt_q[c] || (rd_eq_q[c] && rd_lt_all);
    // the gap test's sides, compared at Last - 1
    gap_gt_all = 1'b0;
    for (int c = 0; c < NGap; c++) gap_gt_all = gap_gt_q[c] || (gap_eq_q[c] && gap_gt_all);
    if (sw_run) begin
      sw_step_d = sw_step_q + 1'b1;
      // read kernel j (steps 1..K): chunk compares against cur_rem
      // (GS_MUT_SRTF_AHEAD_IGNORES_P: a kernel outside P -- no prediction, nothing to issue, an empty
      // slot -- is compared too)
      rd_in_d = sw_step_q >= StW'(1) && sw_step_q <= StW'(K) && rd_j != sw_k_q && (in_p[rd_j] || mut_srtf_ahead_ignores_p);
      rd_rank_lt_d = rd_rank < cur_rank_q;
      rd_rem_d = rd_rem;
      cmp_a = (NCmp*CH)'(rd_rem);
      cmp_b = (NCmp*CH)'(cur_rem_q);
      for (int c = 0; c < NCmp; c++) begin
        rd_lt_d[c] = cmp_a[c*CH +: CH] < cmp_b[c*CH +: CH];
        rd_eq_d[c] = cmp_a[c*CH +: CH] == cmp_b[c*CH +: CH];
      end
      // add the kernel read in the step before, one chunk per ArithChunkW bits, carries registered
      acc_cnt_d = acc_cnt_q + SW'(rd_in_q && rd_lt_all);
      sum_x = (NSum*CH)'(acc_sum_q);
      sum_y = (rd_in_q && rd_lt_all) ? (NSum*CH)'(rd_rem_q) : '0;
      for (int c = 0; c < NSum; c++) begin
        chunk_sum = {1'b0, sum_x[c*CH +: CH]} + {1'b0, sum_y[c*CH +: CH]} + ((c > 0) ? (CH + 1)'(acc_cy_q[c - 1]) : '0);
        sum_x[c*CH +: CH] = chunk_sum[CH-1:0];
        if (c < NSum - 1) acc_cy_d[c] = chunk_sum[CH];
      end
      acc_sum_d = SumW'(sum_x);
      if (sw_step_q == StW'(Last - 1)) begin   // the gap test's sides, chunk by chunk
        gap_l = (NGap*CH)'(acc_sum_q) << FW;   // < 2**SaGapW
        // (GS_MUT_SA_GAP_NO_SCALE: the threshold's fraction bits are ignored, 0.5 reads as 128)
        if (mut_sa_gap_no_scale) gap_l = (NGap*CH)'(acc_sum_q);
        gap_r = (NGap*CH)'(thr_prod);
        for (int c = 0; c < NGap; c++) begin
          gap_gt_d[c] = gap_l[c*CH +: CH] > gap_r[c*CH +: CH];
          gap_eq_d[c] = gap_l[c*CH +: CH] == gap_r[c*CH +: CH];
        end
      end
      if (sw_step_q == '0) begin   // load the visited kernel; thr_start begins its product
        cur_rem_d = visit_rem;
        cur_rank_d = visit_rank;
        acc_cnt_d = '0;
        acc_sum_d = '0;
        acc_cy_d = '0;
      end else if (sw_step_q == StW'(Last)) begin   // write its place and gap test, visit the next
        for (int k = 0; k < K; k++) begin
          if (sw_k_q == SW'(k)) begin
            ord_d[k*SW +: SW] = in_p[k] ? acc_cnt_q : SW'(K - 1);
            unfair_d[k] = in_p[k] && gap_gt_all;
          end
        end
        sw_k_d = sw_k_q == SW'(K - 1) ? '0 : sw_k_q + 1'b1;
        sw_step_d = '0;
        sw_left_d = sw_left_q - 1'b1;
      end
    end
  end

  // ---- the choice: best = the kernel of P first in the order {ord, rank, slot}, samp = the
  // oldest kernel of U ({rank, slot}). The pairwise orders are registered (with ord, from the
  // Active Queue ranks of the cycle before), so that only P and U (view_i.pending) reach the
  // outputs in this cycle: one AND-OR level per kernel and an AND tree ----
  logic [K*K-1:0] ahead_q, ahead_d, older_q, older_d;   // [k*K + j]: j comes before k
  logic [2*SW-1:0] key_k, key_j;
  always_comb begin
    key_k = '0;
    key_j = '0;
    ahead_d = '0;
    older_d = '0;
    for (int k = 0; k < K; k++) begin
      key_k = {ord_w[k*SW +: SW], rank[k*SW +: SW]};
      for (int j = 0; j < K; j++) begin
        key_j = {ord_w[j*SW +: SW], rank[j*SW +: SW]};
        ahead_d[k*K + j] = j != k && (key_j < key_k || (key_j == key_k && j < k));
        older_d[k*K + j] = j != k && (rank[j*SW +: SW] < rank[k*SW +: SW] ||
                                      (rank[j*SW +: SW] == rank[k*SW +: SW] && j < k));
      end
    end
  end
  logic [K-1:0] unpred, best_oh, samp_oh;
  logic has_best, has_samp;
  always_comb begin
    unpred = pending & ~pred_ok_q;
    for (int k = 0; k < K; k++) begin
      best_oh[k] = in_p[k] && (ahead_q[k*K +: K] & in_p) == '0;
      samp_oh[k] = unpred[k] && (older_q[k*K +: K] & unpred) == '0;
    end
    has_best = in_p != '0;
    has_samp = unpred != '0;
  end

  // ---- SRTF/Adaptive: sharing mode while a kernel of P failed its gap test at its last visit ----
  logic adaptive, share_q, share_d;
  assign adaptive = policy_i == gs_pkg::POL_SRTF_ADAPTIVE;
  assign share_d = adaptive && (unfair_q & in_p) != '0;

  // ---- eligibility: SM 0 samples, the others serve best (SRTF) or P with best held (sharing) ----
  logic [K-1:0] others, sample_sm;
  logic [N*K-1:0] elig;
  logic best_full;   // best already has adaptive_residency CTAs on the SM
  always_comb begin
    best_full = 1'b0;
    others = has_best ? best_oh : unpred;
    sample_sm = (has_best && has_samp) ? samp_oh : others;
    if (mut_srtf_no_sample) sample_sm = others;   // (GS_MUT_SRTF_NO_SAMPLE: a newcomer is never sampled)
    for (int s = 0; s < N; s++) begin
      elig[s*K +: K] = (s == SampleSm) ? sample_sm : others;
      if (share_q && has_best && !(s == SampleSm && has_samp)) begin
        best_full = 1'b0;
        for (int k = 0; k < K; k++)
          if (best_oh[k] && resident[(s*K + k)*RW +: RW] >= set_i.adaptive_residency) best_full = 1'b1;
        if (mut_sa_no_limit) best_full = 1'b0;   // (GS_MUT_SA_NO_LIMIT: best not held to adaptive_residency)
        elig[s*K +: K] = in_p & ~(best_full ? best_oh : '0);
      end
    end
  end

  // order: arrival (srtf); the registered SRTF order, then arrival (srtf-adaptive, so that best
  // fills its adaptive_residency CTAs first and the rest goes to the next shortest)
  logic [K*gs_pkg::OrderKeyW-1:0] key, fifo_key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .key_o(fifo_key));
  logic [SW-1:0] major;
  always_comb begin
    key = fifo_key;
    major = '0;
    if (adaptive) begin
      for (int k = 0; k < K; k++) begin
        major = in_p[k] ? ord_q[k*SW +: SW] : SW'(K - 1);
        key[k*gs_pkg::OrderKeyW +: gs_pkg::OrderKeyW] = {gs_pkg::PrioW'(major), rank[k*SW +: SW]};
      end
    end
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
  end

  // ---- next state: the datapath, then this cycle's events ----
  // the next pending slot after rr_q: rotate, find the first set bit (log depth), rotate back
  logic [K-1:0] pend_rot;
  logic found;
  logic [SW-1:0] found_off, pick;
  logic [SW:0] pick_sum;
  assign pend_rot = K'({pend_q, pend_q} >> (32'(rr_q) + 1));
  gs_ffs #(.Width(K)) u_next_pend (.req_i(pend_rot), .data_i('0), .valid_o(found), .idx_o(found_off), .data_o());
  always_comb begin
    pick_sum = (SW + 1)'(rr_q) + (SW + 1)'(found_off) + 1'b1;
    if (pick_sum >= (SW + 1)'(K)) pick_sum = pick_sum - (SW + 1)'(K);
    pick = SW'(pick_sum);
  end

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

  gs_pkg::ksrt_entry_t e, ek;   // grid and done (e), valid (ek) are read
  always_comb begin
    e = '0;
    for (int k = 0; k < K; k++)
      if (pick == SW'(k)) e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
  end
  logic ev_fin, idle, take;
  logic [K-1:0] running, cleared;
  logic [CH:0] lo_diff;   // end - start's low part, its borrow on top
  logic [HW-1:0] hi_diff;
  assign idle = !pick_run_q && !mul_run_q && !div_run_q;
  assign take = div_run_q && !div_busy;   // the quotient is final (saturated by gs_seq_div)
  always_comb begin
    // a launch or a kernel end: a new slice for every running kernel; the slot starts afresh
    for (int k = 0; k < K; k++) begin
      ek = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      running[k] = ek.valid;
    end
    cleared = event_i.slot_free;
    if (event_i.alloc_valid) cleared[event_i.alloc_slot] = 1'b1;
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
    op_grid_d = op_grid_q;
    op_done_d = op_done_q;
    pick_run_d = pick_run_q;
    mul_run_d = mul_run_q;
    div_run_d = div_run_q;
    tsub_valid_d = 1'b0;
    tsub_k_d = tsub_k_q;
    tsub_sample_d = tsub_sample_q;
    tsub_lo_d = tsub_lo_q;
    tsub_borrow_d = tsub_borrow_q;
    tsub_end_hi_d = tsub_end_hi_q;
    tsub_start_hi_d = tsub_start_hi_q;

    if (idle) begin   // pick the next pending slot and register its KSRT counts
      if (found) begin
        pick_run_d = 1'b1;
        div_k_d = pick;
        op_grid_d = e.grid;
        op_done_d = e.done;
        rr_d = pick;
        pend_d[pick] = 1'b0;
      end
    end else if (pick_run_q) begin   // mul_start: the multipliers take the operands
      pick_run_d = 1'b0;
      mul_run_d = 1'b1;
    end else if (div_start) begin   // the products are final: the divider takes them
      mul_run_d = 1'b0;
      div_run_d = 1'b1;
    end else if (take) begin
      div_run_d = 1'b0;
      for (int k = 0; k < K; k++) begin
        if (div_k_q == SW'(k)) begin
          rem_d[k*PW +: PW] = div_quo;
          pred_ok_d[k] = 1'b1;
        end
      end
    end

    // a block end, first stage: Reslice, res, and end - start's low ArithChunkW bits
    ev_fin = event_i.ev_valid && event_i.ev_type == gs_pkg::EV_CTA_FINISHED;
    lo_diff = {1'b0, event_i.ev_end_cycle[CH-1:0]} - {1'b0, event_i.ev_start_cycle[CH-1:0]};
    if (ev_fin) begin
      tsub_valid_d = !cleared[event_i.ev_slot];
      tsub_k_d = event_i.ev_slot;
      tsub_sample_d = reslice_q[event_i.ev_slot];   // the first block to end in the slice gives t
      tsub_lo_d = lo_diff[CH-1:0];
      tsub_borrow_d = lo_diff[CH];
      tsub_end_hi_d = event_i.ev_end_cycle[CW-1:CH];
      tsub_start_hi_d = event_i.ev_start_cycle[CW-1:CH];
      for (int k = 0; k < K; k++) begin
        if (event_i.ev_slot == SW'(k)) begin
          if (!mut_srtf_t_every_end) reslice_d[k] = 1'b0;   // (GS_MUT_SRTF_T_EVERY_END: t from every end)
          // registered SMST count: the ending block still counts
          res_d[k*RW +: RW] = ev_row[k*RW +: RW];
        end
      end
    end
    // its second stage (after the datapath, so that it wins over the pick): t's high part, pend
    hi_diff = tsub_end_hi_q - tsub_start_hi_q - HW'(tsub_borrow_q);
    if (tsub_valid_q) begin
      for (int k = 0; k < K; k++) begin
        if (tsub_k_q == SW'(k)) begin
          if (tsub_sample_q) t_d[k*CW +: CW] = {hi_diff, tsub_lo_q};
          pend_d[k] = 1'b1;
        end
      end
    end

    if (event_i.alloc_valid) reslice_d = reslice_d | running | (K'(1) << event_i.alloc_slot);
    if (event_i.slot_free != '0) reslice_d = reslice_d | (running & ~event_i.slot_free);
    for (int k = 0; k < K; k++) begin
      if (cleared[k]) begin
        pred_ok_d[k] = 1'b0;
        pend_d[k] = 1'b0;
        t_d[k*CW +: CW] = '0;
        res_d[k*RW +: RW] = '0;
        rem_d[k*PW +: PW] = '0;
        if (!(event_i.alloc_valid && event_i.alloc_slot == SW'(k))) reslice_d[k] = 1'b0;
        if (div_k_d == SW'(k)) begin   // its pick, products or division are dropped (left to finish)
          pick_run_d = 1'b0;
          mul_run_d = 1'b0;
          div_run_d = 1'b0;
        end
      end
    end
  end

  // the sweep after this cycle's changes: a cleared slot is last in the order with no gap; a new
  // prediction, a change of P or of the slots restarts the sweep for K + 1 visits
  logic [K-1:0] unfair_w;
  logic [LeftW-1:0] sw_left_w;
  always_comb begin
    ord_w = ord_d;
    unfair_w = unfair_d;
    for (int k = 0; k < K; k++) begin
      if (cleared[k]) begin
        ord_w[k*SW +: SW] = SW'(K - 1);
        unfair_w[k] = 1'b0;
      end
    end
    sw_left_w = (take || cleared != '0 || in_p != last_p_q) ? LeftW'(K + 1) : sw_left_d;
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
      op_grid_q <= '0;
      op_done_q <= '0;
      pick_run_q <= 1'b0;
      mul_run_q <= 1'b0;
      div_run_q <= 1'b0;
      tsub_valid_q <= 1'b0;
      tsub_k_q <= '0;
      tsub_sample_q <= 1'b0;
      tsub_lo_q <= '0;
      tsub_borrow_q <= 1'b0;
      tsub_end_hi_q <= '0;
      tsub_start_hi_q <= '0;
      sw_k_q <= '0;
      sw_step_q <= '0;
      sw_left_q <= '0;
      last_p_q <= '0;
      cur_rem_q <= '0;
      cur_rank_q <= '0;
      rd_in_q <= 1'b0;
      rd_rank_lt_q <= 1'b0;
      rd_lt_q <= '0;
      rd_eq_q <= '0;
      rd_rem_q <= '0;
      acc_cnt_q <= '0;
      acc_sum_q <= '0;
      acc_cy_q <= '0;
      gap_gt_q <= '0;
      gap_eq_q <= '0;
      ahead_q <= '0;
      older_q <= '0;
      for (int k = 0; k < K; k++) ord_q[k*SW +: SW] <= SW'(K - 1);
      unfair_q <= '0;
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
      op_grid_q <= op_grid_d;
      op_done_q <= op_done_d;
      pick_run_q <= pick_run_d;
      mul_run_q <= mul_run_d;
      div_run_q <= div_run_d;
      tsub_valid_q <= tsub_valid_d;
      tsub_k_q <= tsub_k_d;
      tsub_sample_q <= tsub_sample_d;
      tsub_lo_q <= tsub_lo_d;
      tsub_borrow_q <= tsub_borrow_d;
      tsub_end_hi_q <= tsub_end_hi_d;
      tsub_start_hi_q <= tsub_start_hi_d;
      sw_k_q <= sw_k_d;
      sw_step_q <= sw_step_d;
      sw_left_q <= sw_left_w;
      last_p_q <= in_p;
      cur_rem_q <= cur_rem_d;
      cur_rank_q <= cur_rank_d;
      rd_in_q <= rd_in_d;
      rd_rank_lt_q <= rd_rank_lt_d;
      rd_lt_q <= rd_lt_d;
      rd_eq_q <= rd_eq_d;
      rd_rem_q <= rd_rem_d;
      acc_cnt_q <= acc_cnt_d;
      acc_sum_q <= acc_sum_d;
      acc_cy_q <= acc_cy_d;
      gap_gt_q <= gap_gt_d;
      gap_eq_q <= gap_eq_d;
      ahead_q <= ahead_d;
      older_q <= older_d;
      ord_q <= ord_w;
      unfair_q <= unfair_w;
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
    state_o.op_grid = op_grid_q;
    state_o.op_done = op_done_q;
    state_o.tsub_valid = tsub_valid_q;
    state_o.tsub_k = tsub_k_q;
    state_o.tsub_sample = tsub_sample_q;
    state_o.tsub_lo = tsub_lo_q;
    state_o.tsub_borrow = tsub_borrow_q;
    state_o.tsub_end_hi = tsub_end_hi_q;
    state_o.tsub_start_hi = tsub_start_hi_q;
    state_o.pick_run = pick_run_q;
    state_o.mul_run = mul_run_q;
    state_o.div_run = div_run_q;
    state_o.mul_num = num_state;
    state_o.mul_den = den_state;
    state_o.div = div_state;
    state_o.sw_k = sw_k_q;
    state_o.sw_step = sw_step_q;
    state_o.sw_left = sw_left_q;
    state_o.last_p = last_p_q;
    state_o.cur_rem = cur_rem_q;
    state_o.cur_rank = cur_rank_q;
    state_o.rd_in = rd_in_q;
    state_o.rd_rank_lt = rd_rank_lt_q;
    state_o.rd_lt = rd_lt_q;
    state_o.rd_eq = rd_eq_q;
    state_o.rd_rem = rd_rem_q;
    state_o.acc_cnt = acc_cnt_q;
    state_o.acc_sum = acc_sum_q;
    state_o.acc_cy = acc_cy_q;
    state_o.thr_mul = thr_state;
    state_o.gap_gt = gap_gt_q;
    state_o.gap_eq = gap_eq_q;
    state_o.ahead = ahead_q;
    state_o.older = older_q;
    state_o.ord = ord_q;
    state_o.unfair = unfair_q;
  end
endmodule
