// gs_policy_sbm: SBM (Bitalebi et al., "Selective Bypassing and Mapping") and BASE and MWG.
// Contract and timing: docs/rtl/gs_policy_sbm.md
//
// SBM (Sec. 3-4) and its baselines BASE and MWG (Sec. 6.2): two tasks mapped on the SMs and
// their caches bypassed by one SBM_REG (gs_sbm_smc), which SBM profiles at run time
// (gs_sbm_ctrl). The task pair: when the KSRT holds exactly two kernels and they are not the
// pair already known, they become the pair (task 1 = the lower kernel id) and the flow
// restarts; a task relaunched (the fixed-window method, same kernel id) stays the same task.
// One state machine (OCC_LOAD, OCC_FIT, OCC, BYP, WARM, SAMPLE, SUM, SUM_CARRY, RES; the page
// tables each state; the pair and its slots registered, the sums in chunks) profiles
// each of gs_sbm_ctrl's phases for one window (RES holds the result until the controller has
// decided: res_ack, 2 x SbmChunks + 1 cycles) and writes the bypass levels; after the last
// the configuration holds (IDLE) until the pair changes. sbm-base and mwg apply their fixed
// configuration the same way, without profiling. Mapping: gs_sbm_smc's while exactly the pair
// is in the KSRT and its occupancies are known; no issue while two kernels are in and the
// mapping is not; every kernel everywhere otherwise (SBM is defined for two tasks, Sec. 5).
// Order: arrival (gs_order_keys). No quota table, owners, tokens or preemption. Time enters
// only through the samples' stamps (docs/adding-a-policy.md rule 6).
// Storage: sbm_state_t, 772 bits. The profiling counters are not here: gs_policies holds one
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
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_sbm_pair_swapped, "GS_MUT_SBM_PAIR_SWAPPED")
  `GS_MUTANT(mut_sbm_occ_plus_one, "GS_MUT_SBM_OCC_PLUS_ONE")
  localparam int K = gs_pkg::MaxKernels;
  localparam int KS = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int IW = gs_pkg::SbmInstW;
  localparam int JW = gs_pkg::SmIdW + 1;
  localparam int CH = gs_pkg::ArithChunkW;
  localparam int SC = gs_pkg::SbmSumChunks;
  localparam int PW = gs_pkg::ProfCntW;

  gs_pkg::sbm_state_t q, d;   // q.ctrl, q.smc are gs_sbm_ctrl's and gs_sbm_smc's (state_o); unused here

  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  gs_pkg::obs_sample_t obs;
  assign ksrt = view_i.ksrt;
  assign obs = event_i.obs;

  // ------------------------------------------------------------------ the task pair
  // A new pair is seen in cycle t and registered (new_pair, with the first two kernels and their
  // slots as they were: pa_id, pb_id, pa_slot, pb_slot); the state machine takes it in t+1. What
  // the rest reads of the pair's slots (m_two, m_pres1, m_cur1, m_pres2, m_cur2) is registered
  // too: the KSRT of cycle t against the pair of cycle t+1.
  gs_pkg::ksrt_entry_t e;     // valid and kernel are read
  logic [K-1:0] valid;             // the KSRT's valid slots
  logic [KS:0] nact;               // kernels in the KSRT
  gs_pkg::kernel_id_t ida, idb;    // the first two in slot order ...
  gs_pkg::slot_t sla, slb;         // ... at these slots
  logic start, on;
  always_comb begin
    for (int k = 0; k < K; k++) valid[k] = ksrt[k*gs_pkg::KsrtW + gs_pkg::KsrtW - 1];
    nact = (KS + 1)'($countones(valid));   // an adder tree
    ida = '0;
    idb = '0;
    sla = '0;
    slb = '0;
    for (int k = 0; k < K; k++) begin      // slot k is the c-th valid one: c = its valid slots below
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (e.valid && $countones(valid & K'((1 << k) - 1)) == 0) begin
        ida = e.kernel;
        sla = KS'(k);
      end
      if (e.valid && $countones(valid & K'((1 << k) - 1)) == 1) begin
        idb = e.kernel;
        slb = KS'(k);
      end
    end
    // two kernels, not the pair known (as a set: id1 <= id2 are its kernels in order), and not
    // seen again while the state machine takes the one registered
    start = en_i && !q.new_pair && nact == (KS + 1)'(2) &&
            !(q.pair_valid && ((ida == q.id1 && idb == q.id2) || (ida == q.id2 && idb == q.id1)));
    on = !q.new_pair && q.m_two && q.m_pres1 && q.m_pres2 && q.mapped;
  end
  // the pair taken from the registered one: task 1 is the lower id; a slot is the last of its id
  gs_pkg::kernel_id_t lo, hi;
  gs_pkg::slot_t lo_slot, hi_slot;
  always_comb begin
    lo = (q.pa_id < q.pb_id) ? q.pa_id : q.pb_id;
    hi = (q.pa_id < q.pb_id) ? q.pb_id : q.pa_id;
    lo_slot = (q.pa_id < q.pb_id) ? q.pa_slot : q.pb_slot;
    hi_slot = (q.pa_id > q.pb_id) ? q.pa_slot : q.pb_slot;
  end
  // the pair's slots in this cycle's KSRT for the pair of the next cycle (the registers m_*):
  // task 1 there, at this slot; task 2 there, at this slot
  gs_pkg::ksrt_entry_t x;   // valid and kernel are read
  logic nx_pv;
  gs_pkg::kernel_id_t nx_id1, nx_id2;
  logic nx_p1, nx_p2;
  gs_pkg::slot_t nx_c1, nx_c2;
  always_comb begin
    nx_pv = q.new_pair || q.pair_valid;
    nx_id1 = q.new_pair ? lo : q.id1;
    nx_id2 = q.new_pair ? hi : q.id2;
    nx_p1 = 1'b0;
    nx_p2 = 1'b0;
    nx_c1 = '0;
    nx_c2 = '0;
    for (int k = 0; k < K; k++) begin
      x = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (x.valid && nx_pv && x.kernel == nx_id1) begin
        nx_p1 = 1'b1;
        nx_c1 = KS'(k);
      end
      if (x.valid && nx_pv && x.kernel == nx_id2) begin
        nx_p2 = 1'b1;
        nx_c2 = KS'(k);
      end
    end
  end

  // ------------------------------------------------------------------ held blocks
  // the configuration in force: sbm's controller, or the baseline's fixed SBM_REG
  gs_pkg::sbm_reg_t ctrl_cfg, reg_now;
  logic ctrl_start, ctrl_busy, ctrl_ack, res_valid;
  gs_pkg::sbm_ctrl_state_t ctrl_state;
  gs_sbm_ctrl u_ctrl (
    .clk_i, .rst_ni, .start_i(q.ctrl_go), .occ1_i(q.occ1), .occ2_i(q.occ2), .res_valid_i(res_valid),
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
  logic map_on;
  gs_pkg::sbm_smc_state_t smc_state;
  gs_sbm_smc u_smc (
    .clk_i, .rst_ni, .reg_i(reg_now), .on_i(on), .slot1_i(q.m_cur1), .slot2_i(q.m_cur2), .occ1_i(q.occ1),
    .occ2_i(q.occ2), .num_sms_i(cfg_i.num_sms), .resident_i(view_i.resident), .on_o(map_on), .elig_o(map_elig),
    .lvl1_o(lvl1), .lvl2_o(lvl2), .state_o(smc_state)
  );

  // the profiling counters: cleared when a warm-up ends, run while the window is open, task c's
  // sum over every SM read by SUM; their saturation cannot be reached (gsim checks that a
  // window fits). SBM maps both tasks on every SM: it tags no SM.
  gs_pkg::prof_phase_e win_phase;
  gs_pkg::prof_win_t win_nx;
  logic prof_clear, counted, win_done;
  gs_pkg::slot_t rd_slot;
  assign rd_slot = q.c ? q.slot2 : q.slot1;
  always_comb begin
    win_phase = gs_pkg::PW_IDLE;
    if (q.st == gs_pkg::SBM_WARM) win_phase = gs_pkg::PW_WARM;
    if (q.st == gs_pkg::SBM_SAMPLE) win_phase = gs_pkg::PW_SAMPLE;
    prof_o.clear = q.pc_clear;   // registered: gs_prof_counters stages the sample they go with
    prof_o.run = q.pc_run;
    prof_o.rd_sm = '0;
    prof_o.rd_slot = rd_slot;
    prof_o.tag = 1'b0;
    prof_o.tag_sm = '0;
    prof_o.tag_slot = '0;
  end
  gs_prof_window u_window (
    .obs_i(obs), .phase_i(win_phase), .win_i({q.t0_valid, q.t0, q.t1, q.tl_valid, q.tl}),
    .warmup_i(set_i.warmup_cycles), .sample_i(set_i.sample_cycles), .win_o(win_nx), .clear_o(prof_clear),
    .run_o(counted), .done_o(win_done)
  );

  // OCC: task c's workgroups, one more every two cycles (OCC_FIT, OCC); OCC_LOAD registers the
  // task's CTA first, so gs_cta_fit adds and compares registers and the configuration only
  gs_pkg::ksrt_entry_t e_occ;   // the per-CTA resources are read
  gs_pkg::wf_res_t r_occ, sm0, acc_sum;
  logic acc_fits;
  always_comb begin
    e_occ = ksrt[32'(rd_slot)*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    r_occ = {e_occ.threads, e_occ.warps, e_occ.regs, e_occ.shmem, CW'(1)};   // wf_res_t field order
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
  gs_cta_fit u_fit (.acc_i(q.acc), .cta_i(q.cta), .cta2_i('0), .cap_i(sm0), .sum_o(acc_sum), .fits_o(acc_fits));

  // ------------------------------------------------------------------ this cycle
  logic last_sm;
  always_comb begin
    last_sm = JW'(q.s) + JW'(1) >= JW'(cfg_i.num_sms);
    ctrl_start = !q.new_pair && q.st == gs_pkg::SBM_OCC && !q.fit && q.c && policy_i == gs_pkg::POL_SBM;
    res_valid = !q.new_pair && q.st == gs_pkg::SBM_RES;
  end

  // ------------------------------------------------------------------ decisions
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(ksrt), .rank_i(view_i.rank), .key_o(key));
  always_comb begin
    out_o = '0;
    out_o.key = key;
    // while a new pair is being mapped (its occupancies counted, then gs_sbm_smc's cycle of
    // registering them), neither task issues: its first workgroups go where the mapping puts
    // them, not wherever a slot is free
    out_o.elig = (q.m_two && !map_on) ? '0 : map_elig;
    if (q.st == gs_pkg::SBM_BYP && on) begin
      out_o.bypass.valid = 1'b1;
      out_o.bypass.sm = q.s;
      out_o.bypass.slot = q.c ? q.m_cur2 : q.m_cur1;
      out_o.bypass.level = q.c ? lvl2 : lvl1;
    end
  end

  // ------------------------------------------------------------------ next state
  // the scans' next step: task 1 then task 2 of SM s, then SM s + 1
  task automatic step(input gs_pkg::sbm_st_e after);
    d.c = !q.c;
    if (q.c) begin
      d.s = q.s + 1'b1;
      if (last_sm) begin
        d.s = '0;
        d.st = after;
      end
    end
  endtask

  // the sums, both every cycle: SUM's read of the cycle before (rd_add) into its task's sum, in
  // chunks of ArithChunkW bits whose carries (sum_cy) enter the next chunk a cycle later
  logic [2*IW-1:0] sums_d;
  logic [2*(SC-1)-1:0] sums_cy;
  gs_chunk_add #(.W(IW), .N(2), .CH(CH), .SC(SC)) u_sums (
    .sums_i({q.sum2, q.sum1}), .add_i(IW'(q.rd_insts)), .sel_i({q.rd_add && q.rd_c, q.rd_add && !q.rd_c}),
    .cy_i(q.sum_cy), .sums_o(sums_d), .cy_o(sums_cy)
  );
  always_comb begin
    d = q;
    {d.t0_valid, d.t0, d.t1, d.tl_valid, d.tl} = win_nx;   // the window registers (gs_prof_window)
    d.pc_clear = prof_clear;
    d.pc_run = counted;

    d.rd_add = 1'b0;
    {d.sum2, d.sum1} = sums_d;
    d.sum_cy = sums_cy;

    // the pair's slots in this cycle's KSRT, for the pair of the next cycle
    {d.m_two, d.m_pres1, d.m_cur1, d.m_pres2, d.m_cur2} = {nact == (KS + 1)'(2), nx_p1, nx_c1, nx_p2, nx_c2};
    d.ctrl_go = ctrl_start;   // gs_sbm_ctrl starts the cycle after OCC's last step (a register)
    // a new pair seen this cycle, taken in the next
    d.new_pair = start;
    if (start) begin
      d.pa_id = ida;
      d.pb_id = idb;
      d.pa_slot = sla;
      d.pb_slot = slb;
    end
    if (q.m_pres1) d.slot1 = q.m_cur1;
    if (q.m_pres2) d.slot2 = q.m_cur2;
    if (q.new_pair) begin
      d.pair_valid = 1'b1;
      // (GS_MUT_SBM_PAIR_SWAPPED: task 1 is the higher kernel id)
      d.id1 = mut_sbm_pair_swapped ? hi : lo;
      d.id2 = mut_sbm_pair_swapped ? lo : hi;
      d.slot1 = mut_sbm_pair_swapped ? hi_slot : lo_slot;   // lo and hi were the only two kernels in the KSRT
      d.slot2 = mut_sbm_pair_swapped ? lo_slot : hi_slot;
      d.mapped = 1'b0;
      d.t0_valid = 1'b0;
      d.c = 1'b0;
      d.s = '0;
      d.st = gs_pkg::SBM_OCC_LOAD;
    end else begin
      unique case (q.st)
        gs_pkg::SBM_OCC_LOAD: begin   // task c's CTA
          d.cta = r_occ;
          d.acc = '0;
          d.n = '0;
          d.st = gs_pkg::SBM_OCC_FIT;
        end
        gs_pkg::SBM_OCC_FIT: begin   // does one more CTA fit (registered: OCC acts on it)
          d.fit = acc_fits;
          d.st = gs_pkg::SBM_OCC;
        end
        gs_pkg::SBM_OCC: begin
          if (q.fit) begin
            d.acc = acc_sum;
            d.n = q.n + 1'b1;
            d.st = gs_pkg::SBM_OCC_FIT;
          end else begin
            // (GS_MUT_SBM_OCC_PLUS_ONE: a task's occupancy is one CTA more than fits)
            if (q.c) d.occ2 = q.n + CW'(mut_sbm_occ_plus_one);
            else d.occ1 = q.n + CW'(mut_sbm_occ_plus_one);
            d.c = !q.c;
            d.st = gs_pkg::SBM_OCC_LOAD;
            if (q.c) begin
              d.mapped = 1'b1;
              d.s = '0;
              d.st = gs_pkg::SBM_BYP;
            end
          end
        end
        gs_pkg::SBM_BYP: if (on) step((policy_i == gs_pkg::POL_SBM && ctrl_busy) ? gs_pkg::SBM_WARM : gs_pkg::SBM_IDLE);
        gs_pkg::SBM_WARM: if (win_done) d.st = gs_pkg::SBM_SAMPLE;
        gs_pkg::SBM_SAMPLE: begin
          if (win_done) begin   // an epoch past the window (s and c are 0 since BYP)
            d.sum1 = '0;
            d.sum2 = '0;
            d.sum_cy = '0;
            d.st = gs_pkg::SBM_SUM;
          end
        end
        gs_pkg::SBM_SUM: begin   // task 1's then task 2's sum over every SM, registered, added the cycle after
          d.rd_insts = PW'(prof_i.acc);
          d.rd_c = q.c;
          d.rd_add = 1'b1;
          d.c = !q.c;
          if (q.c) d.st = gs_pkg::SBM_SUM_CARRY;   // s stays 0
        end
        gs_pkg::SBM_SUM_CARRY: begin   // the last read added, then its carries through the chunks
          d.s = q.s + 1'b1;
          if (JW'(q.s) + JW'(1) >= JW'(SC)) begin
            d.s = '0;
            d.st = gs_pkg::SBM_RES;
          end
        end
        gs_pkg::SBM_RES: begin   // gs_sbm_ctrl takes the result, then decides: the next configuration's bypass
          if (ctrl_ack) begin
            d.s = '0;
            d.c = 1'b0;
            d.t0_valid = 1'b0;
            d.st = gs_pkg::SBM_BYP;
          end
        end
        default: ;
      endcase
    end
  end

  always_comb begin
    state_o = q;
    state_o.ctrl = ctrl_state;
    state_o.smc = smc_state;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
endmodule
