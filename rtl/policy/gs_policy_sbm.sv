// gs_policy_sbm: SBM (Bitalebi et al., "Selective Bypassing and Mapping") and BASE and MWG.
// Contract and timing: docs/rtl/gs_policy_sbm.md
//
// SBM (Sec. 3-4) and its baselines BASE and MWG (Sec. 6.2): two tasks mapped on the SMs and
// their caches bypassed by one SBM_REG (gs_sbm_smc), which SBM profiles at run time
// (gs_sbm_ctrl). The task pair: when the KSRT holds exactly two kernels and they are not the
// pair already known, they become the pair (task 1 = the lower kernel id) and the flow
// restarts; a task relaunched (the fixed-window method, same kernel id) stays the same task.
// One state machine (OCC, BYP, WARM, SAMPLE, SUM, RES; the page tables each state) profiles
// each of gs_sbm_ctrl's phases for one window (RES holds the result until the controller has
// decided: res_ack, 2 x SbmChunks + 1 cycles) and writes the bypass levels; after the last
// the configuration holds (IDLE) until the pair changes. sbm-base and mwg apply their fixed
// configuration the same way, without profiling. Mapping: gs_sbm_smc's while exactly the pair
// is in the KSRT and its occupancies are known; no issue while two kernels are in and the
// mapping is not; every kernel everywhere otherwise (SBM is defined for two tasks, Sec. 5).
// Order: arrival (gs_order_keys). No quota table, owners, tokens or preemption. Time enters
// only through the samples' stamps (docs/adding-a-policy.md rule 6).
// Storage: sbm_state_t, 612 bits. The profiling counters are not here: gs_policies holds one
// gs_prof_counters for every module that profiles (prof_o, prof_i), the one Warped-Slicer reads
// too. Policy contract: docs/adding-a-policy.md. Golden twin: gs_policy_sbm.hpp.
module gs_policy_sbm (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::sbm_cfg_t set_i,   // its settings (the registry's section sbm)
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::sbm_state_t    state_o,  // the registers (lockstep state check; see gs_spec.toml)
  // the profiling counters gs_policies holds for every module that profiles (gs_prof_counters)
  output gs_pkg::prof_ctl_t     prof_o,
  input  gs_pkg::prof_rd_t      prof_i    // SBM reads instructions only; the window is measured on stamps
);
  localparam int K = gs_pkg::MaxKernels;
  localparam int KS = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int IW = gs_pkg::SbmInstW;
  localparam int JW = gs_pkg::SmIdW + 1;
  localparam logic [2:0] StIdle = 3'd0, StOcc = 3'd1, StByp = 3'd2, StWarm = 3'd3, StSample = 3'd4,
                         StSum = 3'd5, StRes = 3'd6;

  gs_pkg::sbm_state_t q, d;   // q.ctrl is gs_sbm_ctrl's (state_o); unused here

  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  gs_pkg::obs_sample_t obs;
  assign ksrt = view_i.ksrt;
  assign obs = event_i.obs;

  // ------------------------------------------------------------------ the task pair
  gs_pkg::ksrt_entry_t e;     // valid and kernel are read
  logic [KS:0] nact;               // kernels in the KSRT
  gs_pkg::kernel_id_t ida, idb;    // the first two in slot order
  logic pres1, pres2;              // task 1 / task 2 is in the KSRT ...
  gs_pkg::slot_t cur1, cur2;       // ... at this slot
  logic start, pair_only, on;
  gs_pkg::kernel_id_t lo, hi;
  always_comb begin
    nact = '0;
    ida = '0;
    idb = '0;
    pres1 = 1'b0;
    pres2 = 1'b0;
    cur1 = '0;
    cur2 = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (e.valid) begin
        if (nact == '0) ida = e.kernel;
        else if (nact == (KS + 1)'(1)) idb = e.kernel;
        nact = nact + 1'b1;
        if (q.pair_valid && e.kernel == q.id1) begin
          pres1 = 1'b1;
          cur1 = KS'(k);
        end
        if (q.pair_valid && e.kernel == q.id2) begin
          pres2 = 1'b1;
          cur2 = KS'(k);
        end
      end
    end
    lo = (ida < idb) ? ida : idb;
    hi = (ida < idb) ? idb : ida;
    start = en_i && nact == (KS + 1)'(2) && !(q.pair_valid && lo == q.id1 && hi == q.id2);
    pair_only = nact == (KS + 1)'(2) && pres1 && pres2;
    on = !start && pair_only && q.mapped;
  end

  // ------------------------------------------------------------------ held blocks
  // the configuration in force: sbm's controller, or the baseline's fixed SBM_REG
  gs_pkg::sbm_reg_t ctrl_cfg, reg_now;
  logic ctrl_start, ctrl_busy, ctrl_ack, res_valid;
  gs_pkg::sbm_ctrl_state_t ctrl_state;
  gs_sbm_ctrl u_ctrl (
    .clk_i, .rst_ni, .start_i(ctrl_start), .occ1_i(q.occ1), .occ2_i(q.occ2), .res_valid_i(res_valid),
    .res1_i(q.sum1), .res2_i(q.sum2), .cfg_o(ctrl_cfg), .busy_o(ctrl_busy), .res_ack_o(ctrl_ack),
    .state_o(ctrl_state)
  );
  always_comb begin
    reg_now = '0;
    unique case (policy_i)
      gs_pkg::POL_SBM: reg_now = ctrl_cfg;
      gs_pkg::POL_MWG: reg_now.arch = gs_pkg::SBM_MWG;
      default: reg_now.arch = gs_pkg::SBM_BASE;   // sbm-base
    endcase
  end

  logic [gs_pkg::MaxSms*K-1:0] map_elig;
  gs_pkg::bypass_level_e lvl1, lvl2;
  gs_sbm_smc u_smc (
    .reg_i(reg_now), .on_i(on), .slot1_i(cur1), .slot2_i(cur2), .occ1_i(q.occ1), .occ2_i(q.occ2),
    .num_sms_i(cfg_i.num_sms), .resident_i(view_i.resident), .elig_o(map_elig), .lvl1_o(lvl1), .lvl2_o(lvl2)
  );

  // the profiling counters: cleared when a warm-up ends, run while the window is open, read at
  // (SM s, task c) by SUM; their saturation cannot be reached (gsim checks that a window fits)
  gs_pkg::prof_phase_e win_phase;
  gs_pkg::prof_win_t win_nx;
  logic prof_clear, counted, win_done;
  gs_pkg::slot_t rd_slot;
  assign rd_slot = q.c ? q.slot2 : q.slot1;
  always_comb begin
    win_phase = gs_pkg::PW_IDLE;
    if (!start && q.st == StWarm) win_phase = gs_pkg::PW_WARM;
    if (!start && q.st == StSample) win_phase = gs_pkg::PW_SAMPLE;
    prof_o.clear = prof_clear;
    prof_o.run = counted;
    prof_o.rd_sm = q.s;
    prof_o.rd_slot = rd_slot;
  end
  gs_prof_window u_window (
    .obs_i(obs), .phase_i(win_phase), .win_i({q.t0_valid, q.t0, q.t1, q.tl_valid, q.tl}),
    .warmup_i(set_i.warmup_cycles), .sample_i(set_i.sample_cycles), .win_o(win_nx), .clear_o(prof_clear),
    .run_o(counted), .done_o(win_done)
  );

  // OCC: task c's workgroups, one more per cycle
  gs_pkg::ksrt_entry_t e_occ;   // the per-CTA resources are read
  gs_pkg::wf_res_t r_occ, sm0, acc_sum;
  logic acc_fits;
  always_comb begin
    e_occ = ksrt[32'(rd_slot)*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    r_occ = {e_occ.threads, e_occ.warps, e_occ.regs, e_occ.shmem, CW'(1)};   // wf_res_t field order
    sm0.threads = cfg_i.sm_threads[0 +: gs_pkg::ThreadW];
    sm0.warps = cfg_i.sm_warps[0 +: gs_pkg::WarpW];
    sm0.regs = cfg_i.sm_regs[0 +: gs_pkg::RegW];
    sm0.shmem = cfg_i.sm_shmem[0 +: gs_pkg::ShmemW];
    sm0.slots = cfg_i.sm_ctas[0 +: CW];
  end
  gs_cta_fit u_fit (.acc_i(q.acc), .cta_i(r_occ), .cap_i(sm0), .sum_o(acc_sum), .fits_o(acc_fits));

  // ------------------------------------------------------------------ this cycle
  logic last_sm;
  always_comb begin
    last_sm = JW'(q.s) + JW'(1) >= JW'(cfg_i.num_sms);
    ctrl_start = !start && q.st == StOcc && !acc_fits && q.c && policy_i == gs_pkg::POL_SBM;
    res_valid = !start && q.st == StRes;
  end

  // ------------------------------------------------------------------ decisions
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(ksrt), .rank_i(view_i.rank), .key_o(key));
  always_comb begin
    out_o = '0;
    out_o.key = key;
    // while a new pair is being mapped (its occupancies counted), neither task issues: its
    // first workgroups go where the mapping puts them, not wherever a slot is free
    out_o.elig = (nact == (KS + 1)'(2) && !on) ? '0 : map_elig;
    if (!start && q.st == StByp && on) begin
      out_o.bypass.valid = 1'b1;
      out_o.bypass.sm = q.s;
      out_o.bypass.slot = q.c ? cur2 : cur1;
      out_o.bypass.level = q.c ? lvl2 : lvl1;
    end
  end

  // ------------------------------------------------------------------ next state
  // the scans' next step: task 1 then task 2 of SM s, then SM s + 1
  task automatic step(input logic [2:0] after);
    d.c = !q.c;
    if (q.c) begin
      d.s = q.s + 1'b1;
      if (last_sm) begin
        d.s = '0;
        d.st = after;
      end
    end
  endtask

  gs_pkg::ksrt_entry_t e_nx;   // valid and kernel are read
  always_comb begin
    d = q;
    {d.t0_valid, d.t0, d.t1, d.tl_valid, d.tl} = win_nx;   // the window registers (gs_prof_window)
    e_nx = '0;
    if (pres1) d.slot1 = cur1;
    if (pres2) d.slot2 = cur2;
    if (start) begin
      d.pair_valid = 1'b1;
      d.id1 = lo;
      d.id2 = hi;
      // the pair's slots (lo and hi are the only two kernels in the KSRT)
      for (int k = 0; k < K; k++) begin
        e_nx = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
        if (e_nx.valid && e_nx.kernel == lo) d.slot1 = KS'(k);
        if (e_nx.valid && e_nx.kernel == hi) d.slot2 = KS'(k);
      end
      d.mapped = 1'b0;
      d.t0_valid = 1'b0;
      d.c = 1'b0;
      d.s = '0;
      d.acc = '0;
      d.n = '0;
      d.st = StOcc;
    end else begin
      unique case (q.st)
        StOcc: begin
          if (acc_fits) begin
            d.acc = acc_sum;
            d.n = q.n + 1'b1;
          end else begin
            if (q.c) d.occ2 = q.n;
            else d.occ1 = q.n;
            d.acc = '0;
            d.n = '0;
            d.c = !q.c;
            if (q.c) begin
              d.mapped = 1'b1;
              d.s = '0;
              d.st = StByp;
            end
          end
        end
        StByp: if (on) step((policy_i == gs_pkg::POL_SBM && ctrl_busy) ? StWarm : StIdle);
        StWarm: if (win_done) d.st = StSample;
        StSample: begin
          if (win_done) begin   // an epoch past the window
            d.s = '0;
            d.c = 1'b0;
            d.sum1 = '0;
            d.sum2 = '0;
            d.st = StSum;
          end
        end
        StSum: begin   // one (SM, task) counter per cycle
          if (q.c) d.sum2 = q.sum2 + IW'(prof_i.insts);
          else d.sum1 = q.sum1 + IW'(prof_i.insts);
          step(StRes);
        end
        StRes: begin   // gs_sbm_ctrl takes the result, then decides: the next configuration's bypass
          if (ctrl_ack) begin
            d.s = '0;
            d.c = 1'b0;
            d.t0_valid = 1'b0;
            d.st = StByp;
          end
        end
        default: ;
      endcase
    end
  end

  always_comb begin
    state_o = q;
    state_o.ctrl = ctrl_state;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
endmodule
