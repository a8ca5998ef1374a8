// gs_policy_warped_slicer: Warped-Slicer (Xu et al., ISCA 2016, Sec. IV).
// Contract and timing: docs/rtl/gs_policy_warped_slicer.md
//
// Profile the kernel set on the SMs (Fig. 4), scale each sample for memory-bandwidth
// contention (Eq. 3, 4; gs_wf_scale), water-fill one SM (Algorithm 1; gs_waterfill) and enforce
// the partition as per-SM CTA quotas, or fall back to spatial multitasking when a kernel would
// lose too much. One state machine, (re)started by a change of the set of kernels with CTAs to
// issue: START, OCC, SETUP, AVG, WARM, SAMPLE, DEN, READ/PHI/QUO/SCALE per profiling round, then
// WFSTART, WFWAIT, DELAY (partition_delay_cycles != 0), PART, and with a shared partition the
// phase monitor MON_* (Sec. IV-B); the page tables each state and its cycles. A set that only
// lost kernels (all profiled) goes straight to WFSTART; a lone kernel, more than WfMaxKernels
// kernels or more kernels than SMs skip the profile (alone / spatial).
// An owned SM issues its owner's CTAs only; an SM without owner every kernel's, within its
// quota: a CTA of kernel A is replaced only by one of A (Sec. III, Fig. 2e).
// Time enters only through the observation samples' stamps (docs/adding-a-policy.md rule 6).
// The profiling counters are not here: gs_policies holds one gs_prof_counters for every module
// that profiles (prof_o, prof_i), the one SBM reads too.
// Policy contract: docs/adding-a-policy.md. Golden twin: gs_policy_warped_slicer.hpp.
module gs_policy_warped_slicer (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::warped_slicer_cfg_t set_i,   // its settings (the registry's section warped_slicer)
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::ws_state_t     state_o,  // the registers (lockstep state check; see gs_spec.toml)
  // the profiling counters gs_policies holds for every module that profiles (gs_prof_counters)
  output gs_pkg::prof_ctl_t     prof_o,
  input  gs_pkg::prof_rd_t      prof_i    // cycles: the window is measured on stamps; sat cannot be reached
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_ws_profile_off_by_one, "GS_MUT_WS_PROFILE_OFF_BY_ONE")
  `GS_MUTANT(mut_ws_div_no_wait, "GS_MUT_WS_DIV_NO_WAIT")
  `GS_MUTANT(mut_ws_read_no_wait, "GS_MUT_WS_READ_NO_WAIT")
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int KW = gs_pkg::WfMaxKernels;
  localparam int NS = gs_pkg::WfMaxSteps;
  localparam int PW = gs_pkg::WfPerfW;
  localparam int SW = gs_pkg::WfStepW;
  localparam int KS = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int JW = gs_pkg::SmIdW + 1;   // a profiled CTA count base + row + 1, and sums of two SM counts
  localparam int QW = gs_pkg::SmIdW + gs_pkg::CtaCntW;
  localparam int CH = gs_pkg::ArithChunkW;
  localparam int SUW = gs_pkg::WsSumW;
  localparam int SC = gs_pkg::WsSumChunks;
  localparam int CC = gs_pkg::WsCmpChunks;
  localparam int WC = gs_pkg::WsWinChunks;
  localparam int MW = gs_pkg::WsMulBW;
  localparam int MPW = gs_pkg::WsMulPW;
  localparam int TW = gs_pkg::WsStepW;

  gs_pkg::ws_state_t q, d;   // q.div, q.wf and q.scale are the submodules' (state_o); unused here
  logic [K*NS*PW-1:0] perf_q;   // P(k, j) at [(k*NS + j-1)*PW +: PW]: a memory, outside the state record

  // ------------------------------------------------------------------ views of the inputs
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [N*gs_pkg::SmstW-1:0] smst;
  gs_pkg::slot_mask_t pending;
  gs_pkg::obs_sample_t obs;
  assign ksrt = view_i.ksrt;
  assign smst = view_i.smst;
  assign pending = view_i.pending;
  assign obs = event_i.obs;

  // the slot of the c-th kernel (0-based, slot order) of m; 0 when there is none. Slot k is it
  // when set with c set slots below it: K popcounts side by side (adder trees), a one-hot
  // hit, its index by OR -- not a count carried from slot to slot.
  function automatic gs_pkg::slot_t nth_slot(input gs_pkg::slot_mask_t m, input logic [KS-1:0] c);
    logic [KS:0] below;
    nth_slot = '0;
    for (int k = 0; k < K; k++) begin
      below = '0;
      for (int i = 0; i < k; i++) below = below + (KS + 1)'(m[i]);
      if (m[k] && below == {1'b0, c}) nth_slot = nth_slot | KS'(k);
    end
  endfunction
  // the KSRT entry of slot k (its per-CTA resources are Algorithm 1's R_i, a CTA slot each)
  function automatic logic [gs_pkg::KsrtW-1:0] ksrt_at(input logic [K*gs_pkg::KsrtW-1:0] t, input gs_pkg::slot_t k);
    ksrt_at = 32'(k) < K ? t[32'(k)*gs_pkg::KsrtW +: gs_pkg::KsrtW] : '0;   // an indexed read: a mux tree
  endfunction
  // the slot of target's c-th kernel: the table loaded with target (nth_slot, at a restart)
  function automatic gs_pkg::slot_t slot_of(input logic [K*KS-1:0] order, input logic [KS-1:0] c);
    slot_of = order[32'(c)*KS +: KS];
  endfunction
  function automatic logic [SW-1:0] nsteps_of(input logic [K*SW-1:0] ns, input gs_pkg::slot_t k);
    nsteps_of = 32'(k) < K ? ns[32'(k)*SW +: SW] : '0;
  endfunction
  // chunk i of a, ArithChunkW bits (0 above a's width)
  function automatic logic [CH-1:0] chunk(input logic [CC*CH-1:0] a, input logic [TW-1:0] i);
    chunk = '0;
    for (int c = 0; c < CC; c++) if (i == TW'(c)) chunk = a[c*CH +: CH];
  endfunction

  // SM 0's capacity: the SM the partition is computed for (R_tot)
  gs_pkg::wf_res_t sm0;
  always_comb begin
    sm0 = '0;   // SM 0's type's capacities
    for (int t = 0; t < gs_pkg::MaxSmTypes; t++) begin
      if (cfg_i.sm_type[0 +: gs_pkg::SmTypeW] == gs_pkg::SmTypeW'(t)) begin
        sm0.threads = cfg_i.type_threads[t*gs_pkg::ThreadW +: gs_pkg::ThreadW];
        sm0.warps = cfg_i.type_warps[t*gs_pkg::WarpW +: gs_pkg::WarpW];
        sm0.regs = cfg_i.type_regs[t*gs_pkg::RegW +: gs_pkg::RegW];
        sm0.shmem = cfg_i.type_shmem[t*gs_pkg::ShmemW +: gs_pkg::ShmemW];
        sm0.slots = cfg_i.type_ctas[t*CW +: CW];
      end
    end
  end

  // ------------------------------------------------------------------ held blocks
  logic div_start, div_busy, div_wait;
  logic [gs_pkg::DivNW-1:0] div_num;
  logic [gs_pkg::DivDW-1:0] div_den;
  logic [gs_pkg::DivQW-1:0] div_quo;
  gs_pkg::div_state_t div_state;
  // its operands are registered in front of it (div_go, div_num, div_den: started the cycle
  // after div_start), so a result is waited for while the start is in that register too
  // (GS_MUT_WS_DIV_NO_WAIT: the register is forgotten, the quotient before the start is taken)
  assign div_wait = div_busy || (q.div_go && !mut_ws_div_no_wait);
  gs_seq_div u_div (
    .clk_i, .rst_ni, .start_i(q.div_go), .num_i(q.div_num), .den_i(q.div_den), .busy_o(div_busy), .quo_o(div_quo),
    .state_o(div_state)
  );

  // the one multiplier (gs_seq_mul): the monitor's pct x ref and 100 x |sum - ref|, and DEN's
  // window x schedulers, the divisor of every READ of the round (prod_o holds until the next start)
  logic mul_start, mul_busy;
  logic [gs_pkg::WsMulAW-1:0] mul_a;
  logic [MW-1:0] mul_b;
  logic [MPW-1:0] mul_prod;
  gs_pkg::ws_mul_state_t mul_state;
  gs_seq_mul #(.AW(gs_pkg::WsMulAW), .BW(MW)) u_mul (
    .clk_i, .rst_ni, .start_i(mul_start), .a_i(mul_a), .b_i(mul_b), .busy_o(mul_busy), .prod_o(mul_prod),
    .state_o(mul_state)
  );

  // the profiling counters: SETUP tags SM s with its kernel (number pos), they clear when a
  // warm-up ends (or a monitor window opens) and run while the window is open; READ reads SM
  // s's pair, MON_SUM kernel number pos's sum over every SM; their saturation cannot be reached
  // (gsim checks that a window's counts fit). The tag is written in every SETUP cycle, also one
  // that restarts (its SETUP tags every SM again before the next window)
  gs_pkg::prof_phase_e win_phase;
  gs_pkg::ws_st_e win_next;        // the state after a window phase's end
  gs_pkg::prof_win_t win_nx;
  logic prof_clear, counted, win_done;
  gs_pkg::slot_t k_pos;            // the kernel of SM q.s (number q.pos)
  logic [gs_pkg::ProfCntW-1:0] rd_insts, rd_stall;
  always_comb begin
    prof_o.clear = q.pc_clear;   // registered: gs_prof_counters stages the sample they go with
    prof_o.run = q.pc_run;
    prof_o.rd_sm = q.s;
    prof_o.rd_slot = k_pos;
    prof_o.tag = q.st == gs_pkg::WS_SETUP;
    prof_o.tag_sm = q.s;
    prof_o.tag_slot = k_pos;
  end
  // the read registered (rd_insts, rd_stall: the address of the cycle before); READ waits a
  // cycle for it (rd_ok), MON_SUM adds it the cycle after (rd_add, rd_pos)
  assign rd_insts = q.rd_insts;
  assign rd_stall = q.rd_stall;
  // DELAY counts Sec. V-H's algorithm delay on the stamps as WARM counts the warm-up (PW_TIMER)
  gs_prof_window u_window (
    .obs_i(obs), .phase_i(win_phase), .win_i({q.t0_valid, q.t0, q.t1, q.tl_valid, q.tl}),
    .warmup_i(q.dly ? set_i.partition_delay_cycles : set_i.warmup_cycles), .sample_i(set_i.sample_cycles),
    .win_o(win_nx), .clear_o(prof_clear), .run_o(counted), .done_o(win_done)
  );

  logic wf_start, wf_busy, wf_done, wf_spatial;
  logic [KW*SW-1:0] wf_nsteps, wf_ctas;
  logic [KW*gs_pkg::WfResW-1:0] wf_cta;
  logic [KW*NS*PW-1:0] wf_perf;
  gs_pkg::wf_state_t wf_state;
  gs_waterfill u_wf (
    .clk_i, .rst_ni, .start_i(wf_start), .avail_i(sm0), .nsteps_i(wf_nsteps), .cta_i(wf_cta), .perf_i(wf_perf),
    .busy_o(wf_busy), .done_o(wf_done), .ctas_o(wf_ctas), .spatial_o(wf_spatial), .state_o(wf_state)
  );
  // the water-filler's kernel c is the target's c-th kernel
  gs_pkg::ksrt_entry_t e_wf;   // the per-CTA resources are read
  gs_pkg::wf_res_t r_wf;
  always_comb begin
    wf_nsteps = '0;
    wf_cta = '0;
    wf_perf = '0;
    e_wf = '0;
    r_wf = '0;
    for (int c = 0; c < KW; c++) begin
      if ((KS + 1)'(c) < q.nk) begin
        wf_nsteps[c*SW +: SW] = nsteps_of(q.nsteps, slot_of(q.order, KS'(c)));
        e_wf = ksrt_at(ksrt, slot_of(q.order, KS'(c)));
        r_wf = {e_wf.threads, e_wf.warps, e_wf.regs, e_wf.shmem, CW'(1)};   // wf_res_t field order
        wf_cta[c*gs_pkg::WfResW +: gs_pkg::WfResW] = r_wf;
        for (int k = 0; k < K; k++) begin
          if (slot_of(q.order, KS'(c)) == KS'(k)) wf_perf[c*NS*PW +: NS*PW] = perf_q[k*NS*PW +: NS*PW];
        end
      end
    end
  end

  // gs_wf_scale: started in QUO with CTA_i / CTA_avg from the divider, waited for in SCALE
  logic scale_start, scale_busy;
  logic [gs_pkg::WfFactorW-1:0] scale_q, scale_factor;   // scale_factor unused: the scaled performance is stored
  logic [PW-1:0] insts_held, perf_scaled;
  logic [gs_pkg::WfPhiW-1:0] phi;
  gs_pkg::wfs_state_t scale_state;
  logic [JW-1:0] j;                // the CTA count SM q.s profiles this round
  gs_wf_scale u_scale (
    .clk_i, .rst_ni, .start_i(scale_start), .perf_i(insts_held), .phi_i(q.phi), .q_i(scale_q), .busy_o(scale_busy),
    .factor_o(scale_factor), .perf_o(perf_scaled), .state_o(scale_state)
  );

  // ------------------------------------------------------------------ this cycle
  logic start;
  logic [KS:0] nk_new;
  logic [SW-1:0] n_pos;            // N of the kernel of SM q.s
  logic [KW-1:0] j_lt;             // j < N of kernel number c, for every c (bit c) ...
  logic j_lt_pos;                  // ... and of q.pos's
  logic [CW-1:0] setup_quota;
  logic [QW-1:0] sumq_now;         // sumq with SETUP's last quota (sq) added
  // the SM under scan (registers only: the counters' read address)
  always_comb begin
    k_pos = slot_of(q.order, q.pos);
    n_pos = 32'(q.pos) < KW ? q.nsteps_c[32'(q.pos)*SW +: SW] : '0;
    // (GS_MUT_WS_PROFILE_OFF_BY_ONE: SM 0 of a group profiles 2 CTAs, not 1)
    j = JW'(q.base) + JW'(q.row) + (mut_ws_profile_off_by_one ? JW'(2) : JW'(1));
    // min(j, N): the compares of j with every kernel number's N run beside q.pos's decode, which
    // then selects one (not a compare behind the select: this feeds the quota write, out_o)
    j_lt_pos = 1'b0;
    for (int c = 0; c < KW; c++) begin
      j_lt[c] = j < JW'(q.nsteps_c[c*SW +: SW]);
      if (q.pos == KS'(c)) j_lt_pos = j_lt[c];
    end
    setup_quota = j_lt_pos ? CW'(j) : CW'(n_pos);
    sumq_now = q.sumq + QW'(q.sq);
  end
  always_comb begin
    start = en_i && ((q.st == gs_pkg::WS_IDLE) ? pending != q.done : pending != q.target);
    nk_new = '0;
    for (int k = 0; k < K; k++) nk_new = nk_new + (KS + 1)'(pending[k]);
  end
  // the window's phase (gs_prof_window: the counters' control), a decode of the state register
  // beside the window's stamp tests (no restart, which depends on view_i, in front of the
  // window; a register of it would be one more field behind the window's done_o); what the
  // window does in a restart's cycle is discarded (WARM, DELAY and the monitor start it afresh)
  always_comb begin
    unique case (q.st)
      gs_pkg::WS_WARM: win_phase = gs_pkg::PW_WARM;
      gs_pkg::WS_DELAY: win_phase = gs_pkg::PW_TIMER;
      gs_pkg::WS_MON_OPEN: win_phase = gs_pkg::PW_OPEN;
      gs_pkg::WS_SAMPLE, gs_pkg::WS_MON_RUN: win_phase = gs_pkg::PW_SAMPLE;
      default: win_phase = gs_pkg::PW_IDLE;
    endcase
    // the state after the phase's end: WARM's window is sampled; SAMPLE's epoch past the window
    // goes to the divisor, MON_RUN's to the monitor's sums (s, pos, row, mon_k are 0 since the
    // window's start); MON_OPEN's window opens at this stamp (the counters clear); DELAY ends
    unique case (q.st)
      gs_pkg::WS_WARM: win_next = gs_pkg::WS_SAMPLE;
      gs_pkg::WS_SAMPLE: win_next = gs_pkg::WS_DEN;
      gs_pkg::WS_MON_RUN: win_next = gs_pkg::WS_MON_SUM;
      gs_pkg::WS_MON_OPEN: win_next = gs_pkg::WS_MON_RUN;
      default: win_next = gs_pkg::WS_PART;   // DELAY
    endcase
  end
  always_comb begin
    div_start = 1'b0;
    div_num = '0;
    div_den = '0;
    // the water-filler starts from registers alone, not held back by a restart in the same cycle
    // (start: view_i's pending against the target, fanned out to the whole FSM): that run goes on
    // the old set and is abandoned as one restarted in WF_WAIT is, and WF_START waits for its end
    wf_start = q.st == gs_pkg::WS_WF_START && !wf_busy && !wf_done;
    scale_start = 1'b0;
    if (!start) begin
      unique case (q.st)
        gs_pkg::WS_AVG: if (!q.avg_go) begin   // CTA_avg: the quotas summed in SETUP over the SMs
          div_start = 1'b1;
          div_num = gs_pkg::DivNW'(sumq_now) << gs_pkg::WfAvgFracW;
          div_den = gs_pkg::DivDW'(cfg_i.num_sms);
        end
        // (GS_MUT_WS_READ_NO_WAIT: READ does not wait for the registered read: the stall of the
        // address before)
        gs_pkg::WS_READ: if ((q.rd_ok || mut_ws_read_no_wait) && j <= JW'(n_pos)) begin   // a measured SM: phi_mem
          div_start = 1'b1;
          div_num = {rd_stall, gs_pkg::WfPhiFracW'(0)};
          div_den = gs_pkg::DivDW'(mul_prod);   // window x schedulers (DEN)
        end
        gs_pkg::WS_PHI: if (!div_wait) begin   // phi_mem is in: CTA_i / CTA_avg, UQ.WfFactorFracW
          div_start = 1'b1;
          div_num = gs_pkg::DivNW'(SW'(j)) << (gs_pkg::WfFactorFracW + gs_pkg::WfAvgFracW);
          div_den = gs_pkg::DivDW'(q.avg);
        end
        gs_pkg::WS_QUO: scale_start = !div_wait;
        default: ;
      endcase
    end

    // PHI: phi_mem (at most 1.0); QUO: the sample of SM q.s and CTA_i / CTA_avg (1.0 when
    // CTA_avg = 0, where the divider saturates) into gs_wf_scale
    phi = (div_quo > gs_pkg::DivQW'(1 << gs_pkg::WfPhiFracW)) ? gs_pkg::WfPhiW'(1 << gs_pkg::WfPhiFracW)
                                                               : gs_pkg::WfPhiW'(div_quo);
    insts_held = (rd_insts > gs_pkg::ProfCntW'({PW{1'b1}})) ? {PW{1'b1}} : PW'(rd_insts);
    scale_q = (q.avg == '0) ? gs_pkg::WfFactorW'(1) << gs_pkg::WfFactorFracW : gs_pkg::WfFactorW'(div_quo);
  end

  // the multiplier's starts: MON_MUL's pct x ref (step 0) and 100 x |sum - ref| (step 2 CC, once
  // pct x ref is in), DEN's window x schedulers (step WC, the window's chunks subtracted)
  always_comb begin
    mul_start = 1'b0;
    mul_a = '0;
    mul_b = '0;
    if (!start) begin
      unique case (q.st)
        gs_pkg::WS_MON_MUL: begin
          if (q.mon_k == '0) begin
            mul_start = 1'b1;
            mul_a = gs_pkg::WsMulAW'(set_i.phase_change_pct);
            mul_b = MW'(mon_ref);
          end else if (q.mon_k == TW'(2 * CC) && !mul_busy) begin
            mul_start = 1'b1;
            mul_a = gs_pkg::WsMulAW'(100);
            mul_b = q.mon_diff;
          end
        end
        gs_pkg::WS_DEN: if (q.mon_k == TW'(WC)) begin
          mul_start = 1'b1;
          mul_a = gs_pkg::WsMulAW'(cfg_i.warp_scheds);
          mul_b = q.mon_diff;
        end
        default: ;
      endcase
    end
  end

  // ------------------------------------------------------------------ decisions
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(ksrt), .rank_i(view_i.rank), .key_o(key));
  gs_pkg::smst_entry_t m;   // only the owner fields are read
  gs_pkg::slot_t k_c;       // PART: the target's q.c-th kernel
  always_comb begin
    out_o = '0;
    out_o.key = key;
    m = '0;
    // an owned SM issues its owner's CTAs only; an SM without owner every kernel's, within quotas
    for (int s = 0; s < N; s++) begin
      m = smst[s*gs_pkg::SmstW +: gs_pkg::SmstW];
      out_o.elig[s*K +: K] = m.owner_valid ? K'(1) << m.owner : {K{1'b1}};
    end
    out_o.quota_en = 1'b1;
    k_c = slot_of(q.order, q.c);
    if (!start && q.st == gs_pkg::WS_SETUP) begin
      out_o.owner_wr.valid = 1'b1;
      out_o.owner_wr.sm = q.s;
      out_o.owner_wr.owner_valid = 1'b1;
      out_o.owner_wr.owner = k_pos;
      out_o.quota_wr.valid = 1'b1;
      out_o.quota_wr.sm = q.s;
      out_o.quota_wr.slot = k_pos;
      out_o.quota_wr.max_ctas = setup_quota;
    end else if (!start && q.st == gs_pkg::WS_PART) begin
      out_o.quota_wr.valid = 1'b1;
      out_o.quota_wr.sm = q.s;
      out_o.quota_wr.slot = k_c;
      out_o.quota_wr.max_ctas = CW'(gs_pkg::MaxCtasPerSm);
      if (q.mode == gs_pkg::MODE_SHARED) begin
        for (int c = 0; c < KW; c++) if (q.c == KS'(c)) out_o.quota_wr.max_ctas = CW'(wf_ctas[c*SW +: SW]);
      end
      if (q.c == '0) begin
        out_o.owner_wr.valid = 1'b1;
        out_o.owner_wr.sm = q.s;
        out_o.owner_wr.owner_valid = q.mode == gs_pkg::MODE_SPATIAL;
        out_o.owner_wr.owner = k_pos;
      end
    end
  end

  // ------------------------------------------------------------------ next state
  gs_pkg::slot_mask_t ok;          // slots with a complete profile after this edge
  gs_pkg::slot_t k_occ;
  gs_pkg::ksrt_entry_t e_occ;   // the per-CTA resources are read
  gs_pkg::wf_res_t r_occ, acc_sum;
  logic acc_fits;
  always_comb begin   // OCC_LD: the kernel to count and what one of its CTAs takes (into q.cta)
    k_occ = slot_of(q.order, q.c);
    e_occ = ksrt_at(ksrt, k_occ);
    r_occ = {e_occ.threads, e_occ.warps, e_occ.regs, e_occ.shmem, CW'(1)};
  end
  gs_cta_fit u_fit (.acc_i(q.acc), .cta_i(q.cta), .cta2_i('0), .cap_i(sm0), .sum_o(acc_sum), .fits_o(acc_fits));
  logic [JW-1:0] next_base;
  logic perf_we;
  logic [PW-1:0] perf_wd;
  // the phase monitor's comparison, one kernel at a time (MON_MUL): a kernel's window differs
  // from its reference by more than phase_change_pct percent, exactly: 100 x |sum - ref| >
  // pct x ref. |sum - ref| is subtracted a chunk per step (then negated a chunk per step when
  // negative) while the multiplier forms pct x ref; then 100 x |sum - ref| on it, and the two
  // products compared by chunk flags. DEN subtracts the window's stamps on the same chunk.
  logic [SUW-1:0] mon_sum, mon_ref;
  logic [CH:0] sub_c, neg_c;       // a chunk difference and its borrow; a negated chunk and its carry
  logic [CH:0] sub_mon, sub_den;   // chunk c of sum - ref, of tl - t1
  logic [TW-1:0] neg_i;            // the chunk negated
  logic mon_changed;
  logic [3:0] strikes_nx;
  always_comb begin
    mon_sum = '0;
    mon_ref = '0;
    for (int c = 0; c < KW; c++) begin
      if (q.pos == KS'(c)) begin
        mon_sum = q.sum_insts[c*SUW +: SUW];
        mon_ref = q.ref_insts[c*SUW +: SUW];
      end
    end
    // every chunk's difference side by side (the borrow in: mon_cy above chunk 0), then the one
    // of step mon_k taken: no select in front of the carry chain
    sub_c = '0;
    for (int c = 0; c < CC; c++) begin
      sub_mon = {1'b0, chunk((CC*CH)'(mon_sum), TW'(c))} - {1'b0, chunk((CC*CH)'(mon_ref), TW'(c))}
                - (CH + 1)'(c != 0 && q.mon_cy);
      sub_den = {1'b0, chunk((CC*CH)'(q.tl), TW'(c))} - {1'b0, chunk((CC*CH)'(q.t1), TW'(c))}
                - (CH + 1)'(c != 0 && q.mon_cy);
      if (q.mon_k == TW'(c)) sub_c = (q.st == gs_pkg::WS_DEN) ? sub_den : sub_mon;
    end
    neg_i = q.mon_k - TW'(CC);
    neg_c = {1'b0, ~chunk((CC*CH)'(q.mon_diff), neg_i)} + (CH + 1)'(neg_i == '0 || q.mon_cy);
    // 100 x |sum - ref| > pct x ref: the chunk flags, the top chunk deciding
    mon_changed = 1'b0;
    for (int c = 0; c < CC; c++) mon_changed = q.mon_lt[c] || (q.mon_eq[c] && mon_changed);
    strikes_nx = q.mon_chg ? q.strikes + 1'b1 : 4'd0;
  end
  // a chunk of mon_diff replaced (the register as CC chunks; `from` zero clears the others)
  function automatic logic [MW-1:0] diff_chunk(input logic [MW-1:0] from, input logic [TW-1:0] i,
                                                input logic [CH-1:0] v);
    logic [CC*CH-1:0] diff_pad;
    diff_pad = (CC*CH)'(from);
    for (int c = 0; c < CC; c++) if (i == TW'(c)) diff_pad[c*CH +: CH] = v;
    diff_chunk = MW'(diff_pad);
  endfunction
  // the monitor's sums, every kernel number every cycle: MON_SUM's read of the cycle before
  // (rd_add) into its kernel's sum, in chunks of ArithChunkW bits whose carries (sum_cy) enter
  // the next chunk a cycle later
  logic [KW-1:0] sums_sel;
  logic [KW*SUW-1:0] sums_d;
  logic [KW*(SC-1)-1:0] sums_cy;
  always_comb begin
    for (int c = 0; c < KW; c++) sums_sel[c] = q.rd_add && q.rd_pos == KS'(c);
  end
  gs_chunk_add #(.W(SUW), .N(KW), .CH(CH), .SC(SC)) u_sums (
    .sums_i(q.sum_insts), .add_i(SUW'(rd_insts)), .sel_i(sums_sel), .cy_i(q.sum_cy), .sums_o(sums_d),
    .cy_o(sums_cy)
  );

  // the scan's next SM: pos = s mod nk, row = s div nk; whether that ends the round's rows is
  // decided on the registers beside it (row_end), not on the advanced row
  logic pos_last, row_end;
  gs_pkg::sm_id_t row_inc;
  always_comb begin
    pos_last = (KS + 1)'(q.pos) + 1'b1 >= q.nk;
    row_inc = q.row + 1'b1;
    row_end = pos_last ? row_inc >= q.rows : q.row >= q.rows;   // the advanced row >= rows
  end
  task automatic advance();
    d.s = q.s + 1'b1;
    if (pos_last) begin
      d.pos = '0;
      d.row = row_inc;
    end else begin
      d.pos = q.pos + 1'b1;
    end
  endtask
  // READ / PHI: the next profiled SM; after the round's rows, the next round or the fill
  task automatic read_advance();
    advance();
    d.st = gs_pkg::WS_READ;
    next_base = JW'(q.base) + JW'(q.rows);
    if (row_end) begin
      if (next_base < JW'(q.maxn)) begin
        d.base = SW'(next_base);
        d.s = '0;
        d.pos = '0;
        d.row = '0;
        d.sumq = '0;
        d.st = gs_pkg::WS_SETUP;
      end else begin
        ok = ok | q.target;
        d.st = gs_pkg::WS_WF_START;
      end
    end
  endtask
  task automatic to_part();
    d.s = '0;
    d.pos = '0;
    d.c = '0;
    d.st = gs_pkg::WS_PART;
  endtask
  // into a window (WARM, MON_OPEN): the scan that follows it starts from zero and the monitor's
  // sums are cleared, set here rather than when the window ends, so that no field but st waits
  // on gs_prof_window's done_o
  task automatic to_window(input gs_pkg::ws_st_e st);
    d.s = '0;
    d.pos = '0;
    d.row = '0;
    d.mon_k = '0;
    d.sum_insts = '0;
    d.sum_cy = '0;
    d.dly = 1'b0;
    d.st = st;
  endtask

  always_comb begin
    d = q;
    {d.t0_valid, d.t0, d.t1, d.tl_valid, d.tl} = win_nx;   // the window registers (gs_prof_window)
    d.pc_clear = prof_clear;
    d.pc_run = counted;
    // SETUP's quota of the cycle before enters the sum now: the quota's N-of-kernel select and
    // min are not in series with the sum's carry chain (AVG's divider takes sumq_now)
    d.sumq = sumq_now;
    d.sq = '0;
    ok = q.prof_ok;
    perf_we = 1'b0;
    perf_wd = perf_scaled;
    next_base = '0;

    d.rd_insts = (q.st == gs_pkg::WS_MON_SUM) ? prof_i.acc : prof_i.insts;
    d.rd_stall = prof_i.stall;
    d.rd_ok = 1'b0;
    d.rd_add = 1'b0;
    d.sum_insts = sums_d;   // MON_SUM's read of the cycle before, and the carries (gs_chunk_add)
    d.sum_cy = sums_cy;

    if (start) begin
      d.target = pending;
      for (int c = 0; c < K; c++) d.order[c*KS +: KS] = nth_slot(pending, KS'(c));
      d.nk = nk_new;
      d.s = '0;
      d.pos = '0;
      d.row = '0;
      d.c = '0;
      d.acc = '0;
      d.n = '0;
      d.maxn = '0;
      d.st = gs_pkg::WS_START;   // the set is registered; START decides on it
    end else begin
      unique case (q.st)
        gs_pkg::WS_START: begin
          if (q.nk == '0) begin
            d.done = q.target;
            d.st = gs_pkg::WS_IDLE;
          end else if (q.nk == (KS + 1)'(1)) begin
            d.mode = gs_pkg::MODE_ALONE;
            d.st = gs_pkg::WS_PART;
          end else if (q.nk > (KS + 1)'(KW) || JW'(q.nk) > JW'(cfg_i.num_sms)) begin
            d.mode = gs_pkg::MODE_SPATIAL;
            d.st = gs_pkg::WS_PART;
          end else if ((q.target & ~q.prof_ok) == '0) begin
            d.st = gs_pkg::WS_WF_START;
          end else begin
            d.st = gs_pkg::WS_OCC_LD;
            ok = ok & ~q.target;   // profiles being remeasured are not complete
          end
        end
        gs_pkg::WS_OCC_LD: begin
          d.cta = r_occ;
          d.st = gs_pkg::WS_OCC_FIT;
        end
        gs_pkg::WS_OCC_FIT: begin   // does one more CTA fit (registered: the FSM's decision waits a cycle)
          d.fit = acc_fits;
          d.st = gs_pkg::WS_OCC;
        end
        gs_pkg::WS_OCC: begin
          if (q.n < SW'(NS) && q.fit) begin
            d.acc = acc_sum;
            d.n = q.n + 1'b1;
            d.st = gs_pkg::WS_OCC_FIT;
          end else begin
            for (int k = 0; k < K; k++) if (k_occ == KS'(k)) d.nsteps[k*SW +: SW] = q.n;
            for (int c = 0; c < KW; c++) if (q.c == KS'(c)) d.nsteps_c[c*SW +: SW] = q.n;
            if (q.n > q.maxn) d.maxn = q.n;
            d.acc = '0;
            d.n = '0;
            d.c = q.c + 1'b1;
            if (q.n == '0) begin          // a CTA that does not fit SM 0: no profile, spatial
              d.mode = gs_pkg::MODE_SPATIAL;
              to_part();
            end else if ((KS + 1)'(q.c) + 1'b1 == q.nk) begin
              d.s = '0;
              d.pos = '0;
              d.row = '0;
              d.base = '0;
              d.sumq = '0;
              d.st = gs_pkg::WS_SETUP;
            end else begin
              d.st = gs_pkg::WS_OCC_LD;
            end
          end
        end
        gs_pkg::WS_SETUP: begin
          d.sq = setup_quota;   // added into sumq at the next edge
          advance();
          if (JW'(q.s) + JW'(1) >= JW'(cfg_i.num_sms)) begin
            if (q.base == '0) d.rows = d.row;
            d.avg_go = 1'b0;
            d.st = gs_pkg::WS_AVG;
          end
        end
        gs_pkg::WS_AVG: if (!q.avg_go) begin
          d.avg_go = 1'b1;   // the divider starts (div_go) at this edge
        end else if (!div_wait) begin
          d.avg = gs_pkg::WfAvgW'(div_quo);
          d.t0_valid = 1'b0;
          to_window(gs_pkg::WS_WARM);
        end
        // WARM, SAMPLE, MON_RUN, MON_OPEN and DELAY leave on gs_prof_window's done_o alone (below)
        gs_pkg::WS_MON_SUM: begin   // one kernel's sum over every SM per cycle
          d.rd_add = 1'b1;   // added at the next edge, when the read is in rd_insts
          d.rd_pos = q.pos;
          if ((KS + 1)'(q.pos) + 1'b1 >= q.nk) begin
            d.pos = '0;
            d.mon_k = '0;
            d.st = gs_pkg::WS_MON_CARRY;
          end else begin
            d.pos = q.pos + 1'b1;
          end
        end
        gs_pkg::WS_MON_CARRY: begin   // the last read is added, then each chunk's carry moves up (SC cycles)
          d.mon_k = q.mon_k + 1'b1;
          if (q.mon_k == TW'(SC - 1)) begin
            // with a reference, each kernel's window is compared to it first (MON_MUL)
            d.mon_k = '0;
            d.mon_chg = 1'b0;
            d.st = q.ref_valid ? gs_pkg::WS_MON_MUL : gs_pkg::WS_MON_CMP;
          end
        end
        gs_pkg::WS_MON_MUL: begin   // kernel number pos, step mon_k (the page's table)
          d.mon_k = q.mon_k + 1'b1;
          if (q.mon_k < TW'(CC)) begin   // chunk mon_k of sum - ref
            d.mon_diff = diff_chunk(q.mon_diff, q.mon_k, sub_c[CH-1:0]);
            d.mon_cy = sub_c[CH];
            if (q.mon_k == TW'(CC - 1)) d.mon_neg = sub_c[CH];
          end else if (q.mon_k < TW'(2 * CC)) begin   // sum < ref: chunk mon_k - CC negated
            if (q.mon_neg) begin
              d.mon_diff = diff_chunk(q.mon_diff, neg_i, neg_c[CH-1:0]);
              d.mon_cy = neg_c[CH];
            end
          end else if (q.mon_k == TW'(2 * CC)) begin   // pct x ref is in; 100 x |sum - ref| starts
            if (mul_busy) d.mon_k = q.mon_k;
            else d.mon_rhs = mul_prod;
          end else if (q.mon_k == TW'(2 * CC + 1)) begin   // 100 x |sum - ref| is in: chunk flags
            if (mul_busy) begin
              d.mon_k = q.mon_k;
            end else begin
              for (int c = 0; c < CC; c++) begin
                d.mon_lt[c] = chunk((CC*CH)'(q.mon_rhs), TW'(c)) < chunk((CC*CH)'(mul_prod), TW'(c));
                d.mon_eq[c] = chunk((CC*CH)'(q.mon_rhs), TW'(c)) == chunk((CC*CH)'(mul_prod), TW'(c));
              end
            end
          end else begin   // the flags combined
            if (mon_changed) d.mon_chg = 1'b1;
            d.mon_k = '0;
            if ((KS + 1)'(q.pos) + 1'b1 >= q.nk) begin
              d.pos = '0;
              d.st = gs_pkg::WS_MON_CMP;
            end else begin
              d.pos = q.pos + 1'b1;
            end
          end
        end
        gs_pkg::WS_DEN: begin   // the window tl - t1 a chunk per step, then x schedulers on the multiplier
          d.mon_k = q.mon_k + 1'b1;
          if (q.mon_k < TW'(WC)) begin
            d.mon_diff = diff_chunk(q.mon_k == '0 ? '0 : q.mon_diff, q.mon_k, sub_c[CH-1:0]);
            d.mon_cy = sub_c[CH];
          end else if (q.mon_k > TW'(WC)) begin   // the product is the divisor of the round's READs
            d.mon_k = q.mon_k;
            if (!mul_busy) begin
              d.mon_k = '0;
              d.st = gs_pkg::WS_READ;
            end
          end
        end
        gs_pkg::WS_MON_CMP: begin
          if (!q.ref_valid) begin
            d.ref_insts = q.sum_insts;   // complete: MON_CARRY added the carries
            d.ref_valid = 1'b1;
            to_window(gs_pkg::WS_MON_OPEN);
          end else if (strikes_nx >= set_i.phase_windows) begin   // a sustained phase change: profile again
            d.strikes = '0;
            d.s = '0;
            d.pos = '0;
            d.row = '0;
            d.c = '0;
            d.acc = '0;
            d.n = '0;
            d.maxn = '0;
            d.st = gs_pkg::WS_OCC_LD;
            ok = ok & ~q.target;
          end else begin
            d.strikes = strikes_nx;
            to_window(gs_pkg::WS_MON_OPEN);
          end
        end
        gs_pkg::WS_READ: begin
          if (!q.rd_ok && !mut_ws_read_no_wait) d.rd_ok = 1'b1;   // the SM's read is in rd_stall next cycle
          else if (div_start) d.st = gs_pkg::WS_PHI;
          else read_advance();
        end
        gs_pkg::WS_PHI: if (!div_wait) begin
          d.phi = phi;
          d.st = gs_pkg::WS_QUO;
        end
        gs_pkg::WS_QUO: if (!div_wait) d.st = gs_pkg::WS_SCALE;
        gs_pkg::WS_SCALE: if (!scale_busy) begin
          if (rd_insts > gs_pkg::ProfCntW'({PW{1'b1}})) d.perf_sat = 1'b1;
          perf_we = 1'b1;
          read_advance();
        end
        gs_pkg::WS_WF_START: if (wf_start) d.st = gs_pkg::WS_WF_WAIT;
        gs_pkg::WS_WF_WAIT: if (wf_done) begin
          d.mode = wf_spatial ? gs_pkg::MODE_SPATIAL : gs_pkg::MODE_SHARED;
          if (set_i.partition_delay_cycles == '0) begin
            to_part();
          end else begin   // Sec. V-H's algorithm delay, counted on the epochs' stamps as the warm-up
            d.t0_valid = 1'b0;
            to_part();        // PART's scan registers, set now: DELAY's end moves st alone
            d.dly = 1'b1;
            d.st = gs_pkg::WS_DELAY;
          end
        end
        gs_pkg::WS_PART: begin
          if ((KS + 1)'(q.c) + 1'b1 >= q.nk) begin
            d.c = '0;
            advance();
            if (JW'(q.s) + JW'(1) >= JW'(cfg_i.num_sms)) begin
              d.done = q.target;
              d.ref_valid = 1'b0;
              d.strikes = '0;
              if (q.mode == gs_pkg::MODE_SHARED && set_i.phase_change_pct != '0) to_window(gs_pkg::WS_MON_OPEN);
              else d.st = gs_pkg::WS_IDLE;
            end
          end else begin
            d.c = q.c + 1'b1;
          end
        end
        default: ;
      endcase
      // a window's phase ends with the sample that gs_prof_window's done_o marks (done_o is 0 in
      // every other state): chosen last, so the stamp test, late from its port and a CycleW-bit
      // sum, meets one multiplexer rather than the case above
      if (win_done) d.st = win_next;
    end
    d.prof_ok = ok & ~event_i.slot_free;
    // registered in front of the divider and the performance table (their inputs are deep);
    // the operands load only with their start or write
    d.div_go = div_start;
    if (div_start) begin
      d.div_num = div_num;
      d.div_den = div_den;
    end
    d.pw_valid = perf_we;
    if (perf_we) begin
      d.pw_slot = k_pos;
      d.pw_step = SW'(j);
      d.pw_data = perf_wd;
    end
  end

  always_comb begin
    state_o = q;
    state_o.mul = mul_state;
    state_o.div = div_state;
    state_o.wf = wf_state;
    state_o.scale = scale_state;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
  // the performance table: one write per cycle, the edge after SCALE's (pw_*), no reset (read
  // only after written)
  always_ff @(posedge clk_i) begin
    if (q.pw_valid) begin
      for (int k = 0; k < K; k++) begin
        for (int jj = 0; jj < NS; jj++) begin
          if (q.pw_slot == KS'(k) && q.pw_step == SW'(jj + 1)) perf_q[(k*NS + jj)*PW +: PW] <= q.pw_data;
        end
      end
    end
  end
endmodule
