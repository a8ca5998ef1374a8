// gs_waterfill: Warped-Slicer's water-filling partition of one SM (Xu et al., ISCA 2016).
// Contract and timing: docs/rtl/gs_waterfill.md
//
// Sec. IV, Algorithm 1, between up to WfMaxKernels kernels.
// Input per kernel i: its CTA's resource vector R_i and its performance P(i,j) with j = 1..N_i
// CTAs (N_i = nsteps, 0 = no kernel in slot i). Output: T_i (ctas_o), the CTAs of each kernel
// that share the SM, and spatial_o, the fallback to spatial multitasking (some kernel would
// lose more than WfLossPct/100 / K of its peak). The reading of Algorithm 1 (its printed
// indices mix 0- and 1-based) is pinned on the page; the comparisons are cross-multiplied,
// exact, as in the golden twin (cmodel/sched/golden/gs_waterfill.hpp).
// A sequential datapath, one candidate kernel per cycle (the widest carry chain is one
// multiplier step, WfPerfW + 1 bits): IDLE takes the start (R_L = R_tot, the kernels present);
// INIT subtracts one kernel's first CTA per cycle (K cycles); SCAN loads sample j of every
// kernel and compares sample j-1 (N + 1 cycles); each FILL iteration visits the kernels one per
// cycle (LOAD), keeping the running pick S in registers: a candidate after the first one runs
// both cross products Q_i * peak_S and Q_S * peak_i on two shift-add multipliers (MUL, WfPerfW
// cycles), compares them in WfCmpChunks chunks of ArithChunkW bits (CMP, flags registered) and
// combines the flags (DEC); then TRY subtracts R_S from a copy of R_L dT times (a borrow: no fit)
// and COMMIT takes the step or marks Full(S). The iteration with no candidate starts the loss
// check, one present kernel per visit on the same multipliers (LOAD, GAP, MUL, CMP, DEC).
// Timing: done_o is high for one cycle at t + 2 + K + N + (iterations' cycles) + (check cycles)
// after a start in cycle t; at most 2 + 2K + N + K(K N + 1) + K N ((K-1)(WfPerfW+2) + 1) +
// 2K(N-1) + K(WfPerfW+3) = 9,474 cycles (K = 4, N = 32): docs/rtl/gs_waterfill.md. ctas_o /
// spatial_o hold the result until the next start. nsteps_i, cta_i and perf_i must be held from
// start_i until done_o; avail_i is read in the start cycle only.
// Storage (default build K = 4, N = 32): WfStateW = 703 b (wf_state_t; the page's table).
module gs_waterfill (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic start_i,
  input  gs_pkg::wf_res_t avail_i,                                                   // R_tot
  input  logic [gs_pkg::WfMaxKernels*gs_pkg::WfStepW-1:0] nsteps_i,                  // N_i at [i*WfStepW +: WfStepW]
  input  logic [gs_pkg::WfMaxKernels*gs_pkg::WfResW-1:0] cta_i,                      // R_i at [i*WfResW +: WfResW]
  input  logic [gs_pkg::WfMaxKernels*gs_pkg::WfMaxSteps*gs_pkg::WfPerfW-1:0] perf_i, // P(i,j) at [(i*N+j-1)*WfPerfW +: WfPerfW]
  output logic busy_o,
  output logic done_o,
  output logic [gs_pkg::WfMaxKernels*gs_pkg::WfStepW-1:0] ctas_o,                    // T_i at [i*WfStepW +: WfStepW]
  output logic spatial_o,
  output gs_pkg::wf_state_t state_o   // the registers (block bench)
);
  localparam int K = gs_pkg::WfMaxKernels;
  localparam int N = gs_pkg::WfMaxSteps;
  localparam int PW = gs_pkg::WfPerfW;
  localparam int SW = gs_pkg::WfStepW;
  localparam int RW = gs_pkg::WfResW;
  localparam int KIW = gs_pkg::WfKIdxW;
  localparam int CW = gs_pkg::WfCntW;
  localparam int CH = gs_pkg::WfCmpChunks;
  localparam int AC = gs_pkg::ArithChunkW;

  gs_pkg::wf_st_e st_q, st_d;
  logic [SW-1:0] j_q, j_d;
  logic [K*N-1:0] step_q, step_d;
  logic [K*PW-1:0] peak_q, peak_d;
  logic [K*SW-1:0] ctas_q, ctas_d;
  logic [K-1:0] full_q, full_d;
  gs_pkg::wf_res_t left_q, left_d;
  logic nofit_q, nofit_d, spatial_q, spatial_d, done_q, done_d;
  logic [KIW-1:0] ki_q, ki_d;
  logic [CW-1:0] cnt_q, cnt_d;
  logic [K-1:0] pres_q, pres_d;
  logic [K*SW-1:0] nst_q, nst_d;   // nsteps_i as taken at the start (SCAN's bound: from a register)
  logic [K*PW-1:0] smp_q, smp_d;
  logic found_q, found_d;
  logic [KIW-1:0] sel_q, sel_d;
  logic [PW-1:0] sel_cur_q, sel_cur_d;
  logic [SW-1:0] dt_q, dt_d;
  gs_pkg::wf_res_t res_q, res_d, tl_q, tl_d;
  logic brw_q, brw_d, chk_q, chk_d, lossy_q, lossy_d;
  logic [PW-1:0] ma_q, ma_d, na_q, na_d;
  logic [2*PW-1:0] mp_q, mp_d, np_q, np_d;
  logic [CH-1:0] lt_q, lt_d, eq_q, eq_d;

  // P(i,T) of kernel i0 with T its CTA count (1..N; 0 reads 0): an AND-OR mux on the held table
  function automatic logic [PW-1:0] perf_t(input logic [K*N*PW-1:0] perf, input logic [KIW-1:0] i0,
                                           input logic [SW-1:0] t);
    perf_t = '0;
    for (int i = 0; i < K; i++) begin
      for (int j = 0; j < N; j++) begin
        perf_t = perf_t | ({PW{i0 == KIW'(i) && t == SW'(j + 1)}} & perf[(i*N + j)*PW +: PW]);
      end
    end
  endfunction

  // kernel ki's fields
  logic [PW-1:0] peak_k, sel_peak, cur_k, p;
  logic [SW-1:0] ctas_k;
  logic [N-1:0] above;           // its steps at or above T (bit j <-> j+1 CTAs)
  logic has_next;
  logic [$clog2(N)-1:0] nxt_idx; // the lowest of them, 0-based
  logic [SW-1:0] dt_k;           // M(g+1) - T
  gs_pkg::wf_res_t cta_k, cta_n, diff, sub_a;
  logic cand, adv, win, less, equal, borrow;
  logic [gs_pkg::WfKCntW-1:0] nk;
  logic [PW:0] sum_m, sum_n;
  logic [CH*AC-1:0] mp_x, np_x;

  gs_ffs #(.Width(N)) u_next (.req_i(above), .data_i('0), .valid_o(has_next), .idx_o(nxt_idx), .data_o());

  always_comb begin
    peak_k = '0;
    sel_peak = '0;
    ctas_k = '0;
    above = '0;
    cta_k = '0;
    cta_n = '0;
    for (int i = 0; i < K; i++) begin
      if (ki_q == KIW'(i)) begin
        peak_k = peak_q[i*PW +: PW];
        ctas_k = ctas_q[i*SW +: SW];
        above = step_q[i*N +: N];
        cta_k = cta_i[i*RW +: RW];
      end
      if (sel_q == KIW'(i)) sel_peak = peak_q[i*PW +: PW];
      // INIT: the next kernel's R (0 when absent or past the last)
      if (ki_q != KIW'(K - 1) && ki_q + 1'b1 == KIW'(i) && pres_q[i]) cta_n = cta_i[i*RW +: RW];
    end
    for (int j = 0; j < N; j++) begin
      if (SW'(j) < ctas_k) above[j] = 1'b0;
    end
  end

  always_comb begin
    dt_k = SW'(nxt_idx) + 1'b1 - ctas_k;
    cur_k = perf_t(perf_i, ki_q, ctas_k);
    nk = '0;
    for (int i = 0; i < K; i++) nk = nk + gs_pkg::WfKCntW'(pres_q[i]);
    cand = pres_q[ki_q] && !full_q[ki_q] && !nofit_q && has_next;

    // the subtraction of INIT and TRY: (left or tl) - res, every component
    diff = '0;
    borrow = 1'b0;
    sub_a = st_q == gs_pkg::WF_INIT ? left_q : tl_q;
    diff.threads = sub_a.threads - res_q.threads;
    diff.warps = sub_a.warps - res_q.warps;
    diff.regs = sub_a.regs - res_q.regs;
    diff.shmem = sub_a.shmem - res_q.shmem;
    diff.slots = sub_a.slots - res_q.slots;
    borrow = sub_a.threads < res_q.threads || sub_a.warps < res_q.warps || sub_a.regs < res_q.regs
        || sub_a.shmem < res_q.shmem || sub_a.slots < res_q.slots;

    // one step of both multipliers: the high part plus the multiplicand when the bit leaving is set
    sum_m = {1'b0, mp_q[2*PW-1:PW]} + (mp_q[0] ? {1'b0, ma_q} : '0);
    sum_n = {1'b0, np_q[2*PW-1:PW]} + (np_q[0] ? {1'b0, na_q} : '0);
    mp_x = (CH*AC)'(mp_q);
    np_x = (CH*AC)'(np_q);
    // the chunk flags combined from the top chunk down: mp < np, mp == np
    less = 1'b0;
    equal = 1'b1;
    for (int c = 0; c < CH; c++) begin
      less = lt_q[c] || (eq_q[c] && less);
      equal = equal && eq_q[c];
    end

    st_d = st_q;
    j_d = j_q;
    step_d = step_q;
    peak_d = peak_q;
    ctas_d = ctas_q;
    full_d = full_q;
    left_d = left_q;
    nofit_d = nofit_q;
    spatial_d = spatial_q;
    done_d = 1'b0;
    ki_d = ki_q;
    cnt_d = cnt_q;
    pres_d = pres_q;
    nst_d = nst_q;
    smp_d = smp_q;
    found_d = found_q;
    sel_d = sel_q;
    sel_cur_d = sel_cur_q;
    dt_d = dt_q;
    res_d = res_q;
    tl_d = tl_q;
    brw_d = brw_q;
    chk_d = chk_q;
    lossy_d = lossy_q;
    ma_d = ma_q;
    mp_d = mp_q;
    na_d = na_q;
    np_d = np_q;
    lt_d = lt_q;
    eq_d = eq_q;
    adv = 1'b0;
    win = 1'b0;
    p = '0;
    unique case (st_q)
      gs_pkg::WF_IDLE: begin
        if (start_i) begin
          st_d = gs_pkg::WF_INIT;
          j_d = '0;
          ki_d = '0;
          step_d = '0;
          peak_d = '0;
          full_d = '0;
          for (int i = 0; i < K; i++) begin
            pres_d[i] = nsteps_i[i*SW +: SW] != '0;
            nst_d[i*SW +: SW] = nsteps_i[i*SW +: SW];
            ctas_d[i*SW +: SW] = pres_d[i] ? SW'(1) : '0;
          end
          left_d = avail_i;
          res_d = pres_d[0] ? cta_i[0 +: RW] : '0;
          nofit_d = 1'b0;
          lossy_d = 1'b0;
          spatial_d = 1'b0;
        end
      end
      gs_pkg::WF_INIT: begin
        // Algorithm 1 line 14 for kernel ki: R_L -= R_ki; a borrow: the first CTAs do not fit
        left_d = diff;
        nofit_d = nofit_q || borrow;
        res_d = cta_n;
        ki_d = ki_q + 1'b1;
        if (ki_q == KIW'(K - 1)) begin
          ki_d = '0;
          st_d = gs_pkg::WF_SCAN;
        end
      end
      gs_pkg::WF_SCAN: begin
        // Algorithm 1 lines 6-12: sample j_q-2 of every kernel compared, j_q-1 loaded
        if (j_q == '0 && nofit_q) left_d = '0;
        for (int i = 0; i < K; i++) begin
          p = smp_q[i*PW +: PW];
`ifdef GS_MUT_WF_NONSTRICT_MAX
          // MUTATION: an equal sample counts as a new maximum (a step without a gain)
          if (j_q != '0 && j_q <= nst_q[i*SW +: SW] && (j_q == SW'(1) || p >= peak_q[i*PW +: PW])) begin
`else
          if (j_q != '0 && j_q <= nst_q[i*SW +: SW] && (j_q == SW'(1) || p > peak_q[i*PW +: PW])) begin
`endif
            for (int j = 0; j < N; j++) begin
              if (j_q == SW'(j + 1)) step_d[i*N + j] = 1'b1;
            end
            peak_d[i*PW +: PW] = p;
          end
          // (only samples below N_i: the table above them is not the unit's input)
          if (j_q < SW'(N)) begin
            smp_d[i*PW +: PW] = '0;
            for (int j = 0; j < N; j++) begin
              smp_d[i*PW +: PW] = smp_d[i*PW +: PW] | ({PW{j_q == SW'(j) && j_q < nst_q[i*SW +: SW]}}
                                                       & perf_i[(i*N + j)*PW +: PW]);
            end
          end
        end
        j_d = j_q + 1'b1;
        if (j_q == SW'(N)) begin
          st_d = gs_pkg::WF_LOAD;
          ki_d = '0;
          found_d = 1'b0;
          chk_d = 1'b0;
        end
      end
      gs_pkg::WF_LOAD: begin
        if (!chk_q) begin
          // Algorithm 1 lines 17-22 for kernel ki: the first candidate is S; a later one is
          // compared by its cross products Q_ki * peak_S vs. Q_S * peak_ki
          if (!cand) begin
            adv = 1'b1;
          end else if (!found_q) begin
            win = 1'b1;
            adv = 1'b1;
          end else begin
            ma_d = cur_k;
            mp_d = {{PW{1'b0}}, sel_peak};
            na_d = sel_cur_q;
            np_d = {{PW{1'b0}}, peak_k};
            cnt_d = CW'(PW);
            st_d = gs_pkg::WF_MUL;
          end
        end else if (!pres_q[ki_q]) begin
          adv = 1'b1;
        end else begin
          // the loss check of kernel ki: products peak * WfLossPct vs. gap * 100 * K
          ma_d = peak_k;
          na_d = cur_k;
          st_d = gs_pkg::WF_GAP;
        end
      end
      gs_pkg::WF_GAP: begin
        na_d = ma_q - na_q;   // peak >= Q_i: no borrow
        mp_d = (2*PW)'(gs_pkg::WfLossPct);
        np_d = (2*PW)'(nk) * (2*PW)'(100);
        cnt_d = CW'(PW);
        st_d = gs_pkg::WF_MUL;
      end
      gs_pkg::WF_MUL: begin
        mp_d = (2*PW)'({sum_m, mp_q[PW-1:0]} >> 1);
        np_d = (2*PW)'({sum_n, np_q[PW-1:0]} >> 1);
        cnt_d = cnt_q - 1'b1;
        if (cnt_q == CW'(1)) st_d = gs_pkg::WF_CMP;
      end
      gs_pkg::WF_CMP: begin
        for (int c = 0; c < CH; c++) begin
          lt_d[c] = mp_x[c*AC +: AC] < np_x[c*AC +: AC];
          eq_d[c] = mp_x[c*AC +: AC] == np_x[c*AC +: AC];
        end
        st_d = gs_pkg::WF_DEC;
      end
      gs_pkg::WF_DEC: begin
        adv = 1'b1;
        if (!chk_q) begin
`ifdef GS_MUT_WF_TIE_HIGH
          // MUTATION: a tie goes to the higher kernel index
          win = less || equal;
`else
          win = less;   // strictly lower normalized performance
`endif
        end else begin
`ifdef GS_MUT_WF_LOSS_GE
          // MUTATION: a loss of exactly WfLossPct/100 / K already falls back to spatial
          lossy_d = lossy_q || less || equal;
`else
          lossy_d = lossy_q || less;   // 100 * K * gap > WfLossPct * peak
`endif
        end
      end
      gs_pkg::WF_TRY: begin
        // Algorithm 1 line 24: does R_S * dT fit R_L? dT subtractions, a borrow says no
        tl_d = diff;
        brw_d = brw_q || borrow;
        cnt_d = cnt_q + 1'b1;
        if (cnt_q + 1'b1 == CW'(dt_q)) st_d = gs_pkg::WF_COMMIT;
      end
      gs_pkg::WF_COMMIT: begin
        // lines 25-30: take the step (T_S += dT, R_L -= R_S * dT), or Full(S)
        for (int i = 0; i < K; i++) begin
          if (sel_q == KIW'(i)) begin
            if (!brw_q) ctas_d[i*SW +: SW] = ctas_q[i*SW +: SW] + dt_q;
            else full_d[i] = 1'b1;
          end
        end
        if (!brw_q) left_d = tl_q;
        st_d = gs_pkg::WF_LOAD;
        ki_d = '0;
        found_d = 1'b0;
      end
      default: st_d = gs_pkg::WF_IDLE;
    endcase

    // a new S (the pick): kernel ki
    if (win) begin
      found_d = 1'b1;
      sel_d = ki_q;
      sel_cur_d = st_q == gs_pkg::WF_LOAD ? cur_k : ma_q;
      dt_d = dt_k;
      res_d = cta_k;
    end
    // TRY's copy of R_L, taken in every cycle that may end a pick (used only when S is found):
    // from registers alone, not through the pick's decision
    if ((st_q == gs_pkg::WF_LOAD || st_q == gs_pkg::WF_DEC) && !chk_q && ki_q == KIW'(K - 1)) begin
      tl_d = left_q;
      brw_d = 1'b0;
    end
    // on to the next kernel, or the end of the pick / the loss check
    if (adv) begin
      ki_d = ki_q + 1'b1;
      st_d = gs_pkg::WF_LOAD;
      if (ki_q == KIW'(K - 1)) begin
        ki_d = '0;
        if (!chk_q && found_d) begin
          st_d = gs_pkg::WF_TRY;
          cnt_d = '0;
        end else if (!chk_q && !nofit_q) begin
          chk_d = 1'b1;   // no candidate: the loss check (Sec. IV)
        end else begin
          st_d = gs_pkg::WF_IDLE;
          spatial_d = nofit_q || lossy_d;
          done_d = 1'b1;
        end
      end
    end
  end

  assign busy_o = st_q != gs_pkg::WF_IDLE;
  assign done_o = done_q;
  assign ctas_o = ctas_q;
  assign spatial_o = spatial_q;

  always_comb begin
    state_o = '0;
    state_o.st = st_q;
    state_o.j = j_q;
    state_o.step = step_q;
    state_o.peak = peak_q;
    state_o.ctas = ctas_q;
    state_o.full = full_q;
    state_o.left = left_q;
    state_o.nofit = nofit_q;
    state_o.spatial = spatial_q;
    state_o.done = done_q;
    state_o.ki = ki_q;
    state_o.cnt = cnt_q;
    state_o.pres = pres_q;
    state_o.nst = nst_q;
    state_o.smp = smp_q;
    state_o.found = found_q;
    state_o.sel = sel_q;
    state_o.sel_cur = sel_cur_q;
    state_o.dt = dt_q;
    state_o.res = res_q;
    state_o.tl = tl_q;
    state_o.brw = brw_q;
    state_o.chk = chk_q;
    state_o.lossy = lossy_q;
    state_o.ma = ma_q;
    state_o.mp = mp_q;
    state_o.na = na_q;
    state_o.np = np_q;
    state_o.lt = lt_q;
    state_o.eq = eq_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= gs_pkg::WF_IDLE;
      j_q <= '0;
      step_q <= '0;
      peak_q <= '0;
      ctas_q <= '0;
      full_q <= '0;
      left_q <= '0;
      nofit_q <= 1'b0;
      spatial_q <= 1'b0;
      done_q <= 1'b0;
      ki_q <= '0;
      cnt_q <= '0;
      pres_q <= '0;
      nst_q <= '0;
      smp_q <= '0;
      found_q <= 1'b0;
      sel_q <= '0;
      sel_cur_q <= '0;
      dt_q <= '0;
      res_q <= '0;
      tl_q <= '0;
      brw_q <= 1'b0;
      chk_q <= 1'b0;
      lossy_q <= 1'b0;
      ma_q <= '0;
      mp_q <= '0;
      na_q <= '0;
      np_q <= '0;
      lt_q <= '0;
      eq_q <= '0;
    end else begin
      st_q <= st_d;
      j_q <= j_d;
      step_q <= step_d;
      peak_q <= peak_d;
      ctas_q <= ctas_d;
      full_q <= full_d;
      left_q <= left_d;
      nofit_q <= nofit_d;
      spatial_q <= spatial_d;
      done_q <= done_d;
      ki_q <= ki_d;
      cnt_q <= cnt_d;
      pres_q <= pres_d;
      nst_q <= nst_d;
      smp_q <= smp_d;
      found_q <= found_d;
      sel_q <= sel_d;
      sel_cur_q <= sel_cur_d;
      dt_q <= dt_d;
      res_q <= res_d;
      tl_q <= tl_d;
      brw_q <= brw_d;
      chk_q <= chk_d;
      lossy_q <= lossy_d;
      ma_q <= ma_d;
      mp_q <= mp_d;
      na_q <= na_d;
      np_q <= np_d;
      lt_q <= lt_d;
      eq_q <= eq_d;
    end
  end

`ifndef SYNTHESIS
  // T_i never exceeds the samples given
  for (genvar gi = 0; gi < K; gi++) begin : g_chk
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     st_q == gs_pkg::WF_LOAD |-> ctas_q[gi*SW +: SW] <= nst_q[gi*SW +: SW])
      else $error("gs_waterfill: T_%0d above N_%0d", gi, gi);
  end
`endif
endmodule
