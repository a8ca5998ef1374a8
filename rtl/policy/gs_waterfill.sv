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
// Timing: start_i sampled in IDLE; SCAN builds the steps, one j per cycle for all kernels
// (WfMaxSteps cycles); FILL one iteration per cycle plus the one that finds no candidate; one
// CHECK cycle; done_o is high for one cycle WfMaxSteps + iterations + 3 cycles after the start
// cycle, at most 3 + (WfMaxKernels + 1) * WfMaxSteps (iterations <= WfMaxKernels*WfMaxSteps:
// each one takes a step or marks a kernel Full). ctas_o / spatial_o hold the result until
// the next start. nsteps_i, cta_i and perf_i must be held from start_i until done_o; avail_i
// is read in the start cycle only.
// Storage (default build K = 4, N = 32): FSM 2 b, j 6 b, steps K*N = 128 b, peaks K*20 = 80 b,
// T K*6 = 24 b, Full 4 b, R_L 60 b, nofit / spatial / done 3 b: WfStateW = 307 b.
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
  localparam int LW = PW + 16;         // loss products: 100 * K and WfLossPct below 2**16

  localparam logic [1:0] StIdle = 2'd0;
  localparam logic [1:0] StScan = 2'd1;
  localparam logic [1:0] StFill = 2'd2;
  localparam logic [1:0] StCheck = 2'd3;

  logic [1:0] st_q, st_d;
  logic [SW-1:0] j_q, j_d;
  logic [K*N-1:0] step_q, step_d;
  logic [K*PW-1:0] peak_q, peak_d;
  logic [K*SW-1:0] ctas_q, ctas_d;
  logic [K-1:0] full_q, full_d;
  gs_pkg::wf_res_t left_q, left_d;
  logic nofit_q, nofit_d, spatial_q, spatial_d, done_q, done_d;

  // P(i,j) with j given 0-based (CTA count j+1)
  function automatic logic [PW-1:0] perf_at(input logic [K*N*PW-1:0] perf, input int i, input logic [SW-1:0] j0);
    perf_at = '0;
    for (int j = 0; j < N; j++) begin
      if (j0 == SW'(j)) perf_at = perf[(i*N + j)*PW +: PW];
    end
  endfunction

  // per kernel, this cycle
  logic [K-1:0] present, cand;
  logic [K*PW-1:0] cur;          // Q_i(g_i) = P(i,T_i)
  logic [K*SW-1:0] nxt;          // M_i(g_i+1), the next step's CTA count
  logic [gs_pkg::WfKCntW-1:0] nk;
  // the pick
  logic found, take;
  logic [gs_pkg::WfKIdxW-1:0] sel;
  logic [PW-1:0] sel_cur, sel_peak, p;
  logic [2*PW-1:0] cross_i, cross_sel;   // cur_i * peak_S vs. cur_S * peak_i
  logic [SW-1:0] sel_ctas, dt;
  gs_pkg::wf_res_t r, sel_res;
  logic [gs_pkg::ThreadW+SW-1:0] need_threads;
  logic [gs_pkg::WarpW+SW-1:0] need_warps;
  logic [gs_pkg::RegW+SW-1:0] need_regs;
  logic [gs_pkg::ShmemW+SW-1:0] need_shmem;
  logic [gs_pkg::CtaCntW+SW-1:0] need_slots;
  // start: the first CTAs of every kernel
  logic [gs_pkg::ThreadW+SW-1:0] sum_threads;
  logic [gs_pkg::WarpW+SW-1:0] sum_warps;
  logic [gs_pkg::RegW+SW-1:0] sum_regs;
  logic [gs_pkg::ShmemW+SW-1:0] sum_shmem;
  logic [gs_pkg::CtaCntW+SW-1:0] sum_slots;
  logic [PW-1:0] gap;
  logic [LW-1:0] loss_lhs, loss_rhs;
  logic lossy;

  always_comb begin
    nk = '0;
    cur = '0;
    nxt = '0;
    cand = '0;
    for (int i = 0; i < K; i++) begin
      present[i] = nsteps_i[i*SW +: SW] != '0;
      if (present[i]) nk = nk + 1'b1;
      cur[i*PW +: PW] = perf_at(perf_i, i, ctas_q[i*SW +: SW] - 1'b1);
      // lowest step above T_i (bit j <-> j+1 CTAs)
      for (int j = N - 1; j >= 0; j--) begin
        if (step_q[i*N + j] && SW'(j) >= ctas_q[i*SW +: SW]) begin
          cand[i] = present[i] && !full_q[i] && !nofit_q;
          nxt[i*SW +: SW] = SW'(j + 1);
        end
      end
    end

    // S: lowest cur_i / peak_i among the candidates; ties keep the lower index
    found = 1'b0;
    sel = '0;
    sel_cur = '0;
    sel_peak = '0;
    cross_i = '0;
    cross_sel = '0;
    for (int i = 0; i < K; i++) begin
      cross_i = {{PW{1'b0}}, cur[i*PW +: PW]} * {{PW{1'b0}}, sel_peak};
      cross_sel = {{PW{1'b0}}, sel_cur} * {{PW{1'b0}}, peak_q[i*PW +: PW]};
`ifdef GS_MUT_WF_TIE_HIGH
      // MUTATION: a tie goes to the higher kernel index
      if (cand[i] && (!found || cross_i <= cross_sel)) begin
`else
      if (cand[i] && (!found || cross_i < cross_sel)) begin
`endif
        found = 1'b1;
        sel = gs_pkg::WfKIdxW'(i);
        sel_cur = cur[i*PW +: PW];
        sel_peak = peak_q[i*PW +: PW];
      end
    end
    sel_res = '0;
    sel_ctas = '0;
    dt = '0;
    for (int i = 0; i < K; i++) begin
      if (sel == gs_pkg::WfKIdxW'(i)) begin
        sel_res = cta_i[i*RW +: RW];
        sel_ctas = ctas_q[i*SW +: SW];
        dt = nxt[i*SW +: SW] - ctas_q[i*SW +: SW];
      end
    end
    need_threads = {{SW{1'b0}}, sel_res.threads} * dt;
    need_warps = {{SW{1'b0}}, sel_res.warps} * dt;
    need_regs = {{SW{1'b0}}, sel_res.regs} * dt;
    need_shmem = {{SW{1'b0}}, sel_res.shmem} * dt;
    need_slots = {{SW{1'b0}}, sel_res.slots} * dt;
    take = found && need_threads <= {{SW{1'b0}}, left_q.threads} && need_warps <= {{SW{1'b0}}, left_q.warps}
        && need_regs <= {{SW{1'b0}}, left_q.regs} && need_shmem <= {{SW{1'b0}}, left_q.shmem}
        && need_slots <= {{SW{1'b0}}, left_q.slots};

    // start: R_L = R_tot - sum R_i over the kernels present
    sum_threads = '0;
    sum_warps = '0;
    sum_regs = '0;
    sum_shmem = '0;
    sum_slots = '0;
    r = '0;
    for (int i = 0; i < K; i++) begin
      r = cta_i[i*RW +: RW];
      if (present[i]) begin
        sum_threads = sum_threads + {{SW{1'b0}}, r.threads};
        sum_warps = sum_warps + {{SW{1'b0}}, r.warps};
        sum_regs = sum_regs + {{SW{1'b0}}, r.regs};
        sum_shmem = sum_shmem + {{SW{1'b0}}, r.shmem};
        sum_slots = sum_slots + {{SW{1'b0}}, r.slots};
      end
    end

    // CHECK: a kernel that loses more than WfLossPct/100 / K of its peak
    lossy = 1'b0;
    gap = '0;
    loss_lhs = '0;
    loss_rhs = '0;
    for (int i = 0; i < K; i++) begin
      gap = peak_q[i*PW +: PW] - cur[i*PW +: PW];   // peak >= Q_i: no borrow
      loss_lhs = LW'(gap) * (LW'(100) * LW'(nk));
      loss_rhs = LW'(peak_q[i*PW +: PW]) * LW'(gs_pkg::WfLossPct);
`ifdef GS_MUT_WF_LOSS_GE
      // MUTATION: a loss of exactly WfLossPct/100 / K already falls back to spatial
      if (present[i] && loss_lhs >= loss_rhs) lossy = 1'b1;
`else
      if (present[i] && loss_lhs > loss_rhs) lossy = 1'b1;
`endif
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
    p = '0;
    unique case (st_q)
      StIdle: begin
        if (start_i) begin
          st_d = StScan;
          j_d = '0;
          step_d = '0;
          peak_d = '0;
          full_d = '0;
          for (int i = 0; i < K; i++) ctas_d[i*SW +: SW] = present[i] ? SW'(1) : '0;
          nofit_d = !(sum_threads <= {{SW{1'b0}}, avail_i.threads} && sum_warps <= {{SW{1'b0}}, avail_i.warps}
                      && sum_regs <= {{SW{1'b0}}, avail_i.regs} && sum_shmem <= {{SW{1'b0}}, avail_i.shmem}
                      && sum_slots <= {{SW{1'b0}}, avail_i.slots});
          left_d = '0;
          if (!nofit_d) begin
            left_d.threads = avail_i.threads - sum_threads[gs_pkg::ThreadW-1:0];
            left_d.warps = avail_i.warps - sum_warps[gs_pkg::WarpW-1:0];
            left_d.regs = avail_i.regs - sum_regs[gs_pkg::RegW-1:0];
            left_d.shmem = avail_i.shmem - sum_shmem[gs_pkg::ShmemW-1:0];
            left_d.slots = avail_i.slots - sum_slots[gs_pkg::CtaCntW-1:0];
          end
          spatial_d = 1'b0;
        end
      end
      StScan: begin
        // Algorithm 1 lines 6-12 for sample j_q+1 of every kernel
        for (int i = 0; i < K; i++) begin
          p = perf_at(perf_i, i, j_q);
`ifdef GS_MUT_WF_NONSTRICT_MAX
          // MUTATION: an equal sample counts as a new maximum (a step without a gain)
          if (j_q < nsteps_i[i*SW +: SW] && (j_q == '0 || p >= peak_q[i*PW +: PW])) begin
`else
          if (j_q < nsteps_i[i*SW +: SW] && (j_q == '0 || p > peak_q[i*PW +: PW])) begin
`endif
            for (int j = 0; j < N; j++) begin
              if (j_q == SW'(j)) step_d[i*N + j] = 1'b1;
            end
            peak_d[i*PW +: PW] = p;
          end
        end
        j_d = j_q + 1'b1;
        if (j_q == SW'(N - 1)) st_d = StFill;
      end
      StFill: begin
        // Algorithm 1 lines 16-32, one iteration
        if (!found) begin
          st_d = StCheck;
        end else if (take) begin
          for (int i = 0; i < K; i++) begin
            if (sel == gs_pkg::WfKIdxW'(i)) ctas_d[i*SW +: SW] = sel_ctas + dt;
          end
          left_d.threads = left_q.threads - need_threads[gs_pkg::ThreadW-1:0];
          left_d.warps = left_q.warps - need_warps[gs_pkg::WarpW-1:0];
          left_d.regs = left_q.regs - need_regs[gs_pkg::RegW-1:0];
          left_d.shmem = left_q.shmem - need_shmem[gs_pkg::ShmemW-1:0];
          left_d.slots = left_q.slots - need_slots[gs_pkg::CtaCntW-1:0];
        end else begin
          for (int i = 0; i < K; i++) begin
            if (sel == gs_pkg::WfKIdxW'(i)) full_d[i] = 1'b1;
          end
        end
      end
      StCheck: begin
        spatial_d = nofit_q || lossy;
        done_d = 1'b1;
        st_d = StIdle;
      end
      default: st_d = StIdle;
    endcase
  end

  assign busy_o = st_q != StIdle;
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
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      j_q <= '0;
      step_q <= '0;
      peak_q <= '0;
      ctas_q <= '0;
      full_q <= '0;
      left_q <= '0;
      nofit_q <= 1'b0;
      spatial_q <= 1'b0;
      done_q <= 1'b0;
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
    end
  end

`ifndef SYNTHESIS
  // T_i never exceeds the samples given, and a run ends within its latency bound
  for (genvar gi = 0; gi < K; gi++) begin : g_chk
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     st_q == StFill |-> ctas_q[gi*SW +: SW] <= nsteps_i[gi*SW +: SW])
      else $error("gs_waterfill: T_%0d above N_%0d", gi, gi);
  end
`endif
endmodule
