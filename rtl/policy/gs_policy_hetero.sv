// gs_policy_hetero: HeteroCore's dynamic TLP resource-aware scheduling (--policy hetero-dynamic).
// Contract and timing: docs/rtl/gs_policy_hetero.md
//
// Zhao et al., "HeteroCore GPU to Exploit TLP-Resource Diversity", TPDS 2019, Sec. 4.3,
// Algorithm 2; Sec. 6.4 for four kernels; with its adaptive preemption.
// The set: the kernels in the KSRT, 2..HcMaxKernels of them (groups; a kernel relaunched by the
// fixed-window method stays its group). One state machine (SCAN, WARM, SAMPLE, SUM, SUM_CARRY,
// OCC_LOAD, OCC_FIT, OCC, SEL; the page tables each state): spatial profiling gives every group
// big and small SMs, the window's instructions per group and SM type (summed in chunks of
// ArithChunkW bits) and the CTA counts go to gs_hetero_sel, and SCAN
// maps its choice (big SMs to the selected groups), preempting an SM that holds another
// kernel's CTAs by adaptive preemption (preempt_req_t.mode_sel). Then the mapping holds (IDLE)
// until the set changes. Order: arrival (gs_order_keys). No quota table, owners, tokens or
// bypass. Time enters only through the samples' stamps (docs/adding-a-policy.md rule 6).
// Storage: hc_state_t (the page's table; 264 bits of it the per-SM groups). The profiling
// counters are gs_policies' one gs_prof_counters (prof_o, prof_i).
// Policy contract: docs/adding-a-policy.md. Golden twin: cmodel/sched/golden/gs_policy_hetero.hpp.
module gs_policy_hetero (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::hetero_cfg_t set_i,   // its settings (the registry's section hetero)
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::hc_state_t     state_o,  // the registers (lockstep state check; see gs_spec.toml)
  output gs_pkg::prof_ctl_t     prof_o,
  input  gs_pkg::prof_rd_t      prof_i    // instructions only; the window is measured on stamps
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_hc_adapt_inverted, "GS_MUT_HC_ADAPT_INVERTED")
  `GS_MUTANT(mut_hc_scan_no_wrap, "GS_MUT_HC_SCAN_NO_WRAP")
  `GS_MUTANT(mut_hc_sum_type_swap, "GS_MUT_HC_SUM_TYPE_SWAP")
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int KS = gs_pkg::SlotW;
  localparam int HK = gs_pkg::HcMaxKernels;
  localparam int HKW = gs_pkg::HcKW;
  localparam int GW = gs_pkg::HcGrpW;
  localparam int IW = gs_pkg::HcInstW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int IDW = gs_pkg::KernelIdW;
  localparam int SW = gs_pkg::SmIdW;
  localparam int JW = gs_pkg::SmIdW + 1;
  localparam int CH = gs_pkg::ArithChunkW;
  localparam int SC = gs_pkg::HcSumChunks;
  localparam int PW = gs_pkg::ProfCntW;

  gs_pkg::hc_state_t q, d;

  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  gs_pkg::obs_sample_t obs;
  assign ksrt = view_i.ksrt;
  assign obs = event_i.obs;

  // ------------------------------------------------------------------ the set in the KSRT
  // A new set, or a kernel outside the set, is seen in cycle t and registered (new_set, drop_q,
  // with the set as it was then: new_ids, new_nk); the state machine acts on it in t+1, so no
  // KSRT compare reaches the next-state logic of every register. What the rest reads of the
  // set's slots (m_pres, m_cur, m_known, m_grp) is registered too: the KSRT of cycle t against
  // the set of cycle t+1 (nx_*, below).
  gs_pkg::ksrt_entry_t e;      // valid and kernel are read
  logic [K-1:0] valid;               // the KSRT's valid slots
  logic [KS:0] nact;                 // kernels in the KSRT
  logic [K-1:0] slot_known;          // slot k holds a kernel of the set taken
  logic known_all, start, drop;
  logic [HK*IDW-1:0] ids_now;        // the KSRT's kernels in slot order (the groups of a new set)
  logic [HK-1:0] in_set;
  always_comb begin
    for (int k = 0; k < K; k++) valid[k] = ksrt[k*gs_pkg::KsrtW + gs_pkg::KsrtW - 1];
    nact = (KS + 1)'($countones(valid));   // an adder tree
    ids_now = '0;
    for (int k = 0; k < K; k++) begin      // slot k is the c-th valid one: c = its valid slots below
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      for (int c = 0; c < HK; c++)
        if (e.valid && $countones(valid & K'((1 << k) - 1)) == c) ids_now[c*IDW +: IDW] = e.kernel;
    end
    slot_known = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      for (int c = 0; c < HK; c++)
        if (e.valid && q.set_valid && HKW'(c) < q.nk && e.kernel == q.ids[c*IDW +: IDW]) slot_known[k] = 1'b1;
    end
    known_all = 1'b1;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (e.valid && !slot_known[k]) known_all = 1'b0;
    end
    // a new set to profile: 2..HcMaxKernels kernels, one of them not in the set taken (not seen
    // again while the state machine takes the one registered)
    start = en_i && !q.new_set && nact >= (KS + 1)'(2) && nact <= (KS + 1)'(HK) && !(q.set_valid && known_all);
    // a kernel outside the set and no set to profile: the mapping goes
    drop = en_i && !q.new_set && !start && q.set_valid && !known_all;
    for (int c = 0; c < HK; c++) in_set[c] = HKW'(c) < q.nk;
  end
  // the registered view of the set's slots
  logic [HK-1:0] pres;               // group c's kernel is in the KSRT ...
  logic [HK*KS-1:0] cur;             // ... at this slot
  logic [K*GW-1:0] slot_grp;         // slot k holds a kernel of group ...
  assign pres = q.m_pres;
  assign cur = q.m_cur;
  assign slot_grp = q.m_grp;

  // ------------------------------------------------------------------ the scan's SM
  logic is_big, last_sm;
  logic [HK-1:0] mask;
  logic [HKW-1:0] pos, cnt, seen, pos_nx;
  logic [GW-1:0] g;
  always_comb begin
    is_big = q.sb;
    last_sm = JW'(q.s) + JW'(1) >= JW'(cfg_i.num_sms);
    mask = is_big ? q.mb : q.ms;
    pos = is_big ? q.cb : q.cs;
    cnt = '0;
    for (int c = 0; c < HK; c++) cnt = cnt + HKW'(mask[c]);
    // the pos-th group of the mask
    g = '0;
    seen = '0;
    for (int c = 0; c < HK; c++) begin
      if (mask[c]) begin
        if (seen == pos) g = GW'(c);
        seen = seen + 1'b1;
      end
    end
    // (GS_MUT_HC_SCAN_NO_WRAP: the round robin never wraps, every later SM goes to the last group)
    pos_nx = (pos + 1'b1 >= cnt) ? (mut_hc_scan_no_wrap ? pos : '0) : pos + 1'b1;
  end

  // the preemption of the scanned SM, in two stages: SCAN registers the slots with CTAs there
  // other than its new owner's (pq_cand) and whether each one's group finished a CTA in the
  // warm-up (pq_fin); the cycle after, the request names the lowest of them (gs_ffs)
  gs_pkg::smst_entry_t m;     // state is read
  logic found;
  gs_pkg::slot_t owner, victim;
  logic [K-1:0] cand, fin_k;
  // SM s's SMST entry, resident counts and group, one AND-OR over the SMs: read at the computed
  // index q.s * width they were shifters over every SM's bits in Yosys, which did not map in
  // 1,800 s at 132 SMs (docs/area-timing.md)
  logic [gs_pkg::SmstW-1:0] smst_s;
  logic [K*CW-1:0] res_s;
  logic [GW-1:0] grp_s;
  always_comb begin
    smst_s = '0;
    res_s = '0;
    grp_s = '0;
    for (int s = 0; s < N; s++) begin
      if (q.s == SW'(s)) begin
        smst_s = view_i.smst[s*gs_pkg::SmstW +: gs_pkg::SmstW];
        res_s = view_i.resident[s*K*CW +: K*CW];
        grp_s = q.grp[s*GW +: GW];
      end
    end
  end
  always_comb begin
    m = smst_s;
    owner = cur[32'(g)*KS +: KS];
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      cand[k] = e.valid && res_s[k*CW +: CW] != '0 && !(pres[g] && owner == KS'(k));
      fin_k[k] = q.fin[slot_grp[k*GW +: GW]];
    end
  end
  gs_ffs #(.Width(K)) u_victim (.req_i(q.pq_cand), .data_i('0), .valid_o(found), .idx_o(victim), .data_o());

  // ------------------------------------------------------------------ held blocks
  // the profiling counters: SCAN tags each SM of the profiling split with its group's kernel,
  // the counters clear when the warm-up ends and run while the window is open; SUM reads SM
  // s's pair (its group's kernel)
  gs_pkg::prof_phase_e win_phase;
  gs_pkg::prof_win_t win_nx;
  logic prof_clear, counted, win_done;
  logic [GW-1:0] g_sum;       // SM s's group (SUM)
  always_comb begin
    g_sum = grp_s;
    win_phase = gs_pkg::PW_IDLE;
    if (q.st == gs_pkg::HC_WARM) win_phase = gs_pkg::PW_WARM;
    if (q.st == gs_pkg::HC_SAMPLE) win_phase = gs_pkg::PW_SAMPLE;
    prof_o.clear = q.pc_clear;   // registered: gs_prof_counters stages the sample they go with
    prof_o.run = q.pc_run;
    prof_o.rd_sm = q.s;
    prof_o.rd_slot = '0;
    prof_o.tag = !q.new_set && !q.drop_q && q.st == gs_pkg::HC_SCAN && !q.chosen;
    prof_o.tag_sm = q.s;
    prof_o.tag_slot = cur[32'(g)*KS +: KS];
  end
  gs_prof_window u_window (
    .obs_i(obs), .phase_i(win_phase), .win_i({q.t0_valid, q.t0, q.t1, q.tl_valid, q.tl}),
    .warmup_i(set_i.warmup_cycles), .sample_i(set_i.sample_cycles), .win_o(win_nx), .clear_o(prof_clear),
    .run_o(counted), .done_o(win_done)
  );

  // OCC: group c's CTAs on one SM of type ty, one more every two cycles (OCC_FIT, OCC); the
  // first big and the first small SM (fb, fs, found by SUM) stand for their type (every SM of a
  // type has its capacities). OCC_LOAD registers the capacities and the CTA's resources first,
  // so gs_cta_fit adds and compares registers only.
  gs_pkg::ksrt_entry_t e_occ;   // the per-CTA resources are read
  gs_pkg::wf_res_t r_occ, cap, acc_sum;
  logic acc_fits;
  logic [SW-1:0] sm_cap;
  logic [gs_pkg::SmTypeW-1:0] cap_type;
  always_comb begin
    e_occ = ksrt[32'(cur[32'(q.c)*KS +: KS])*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    r_occ = pres[q.c] ? {e_occ.threads, e_occ.warps, e_occ.regs, e_occ.shmem, CW'(1)}   // wf_res_t order
                      : {gs_pkg::WfResW'(1)};
    sm_cap = (q.ty == 2'd0) ? q.fb : q.fs;
    cap_type = '0;
    for (int s = 0; s < N; s++) begin   // an AND-OR over the SMs' types, as for SM s above
      if (sm_cap == SW'(s)) cap_type = cfg_i.sm_type[s*gs_pkg::SmTypeW +: gs_pkg::SmTypeW];
    end
    cap = '0;
    for (int t = 0; t < gs_pkg::MaxSmTypes; t++) begin   // then the type's capacities
      if (cap_type == gs_pkg::SmTypeW'(t)) begin
        cap.threads = cfg_i.type_threads[t*gs_pkg::ThreadW +: gs_pkg::ThreadW];
        cap.warps = cfg_i.type_warps[t*gs_pkg::WarpW +: gs_pkg::WarpW];
        cap.regs = cfg_i.type_regs[t*gs_pkg::RegW +: gs_pkg::RegW];
        cap.shmem = cfg_i.type_shmem[t*gs_pkg::ShmemW +: gs_pkg::ShmemW];
        cap.slots = cfg_i.type_ctas[t*CW +: CW];
      end
    end
    if ((q.ty == 2'd0 && !q.has_b) || (q.ty == 2'd1 && !q.has_s)) cap = '0;
    if (q.ty == 2'd2) cap = cfg_i.base_sm;
  end
  gs_cta_fit u_fit (.acc_i(q.acc), .cta_i(q.cta), .cta2_i('0), .cap_i(q.cap), .sum_o(acc_sum), .fits_o(acc_fits));

  // SEL: Algorithm 2's decision on the registers, started the cycle after OCC's last step
  // (sel_start is OCC's move to SEL, registered as sel_go) and awaited in SEL; the registers it
  // reads hold until then
  logic [HK-1:0] sel_thick;   // the report's (docs/rtl/gs_hetero_sel.md); the decision needs big_o
  logic [HK-1:0] sel_big;
  logic sel_start, sel_busy, sel_even, even_f;
  gs_pkg::hc_sel_state_t sel_state;
  assign sel_start = en_i && !q.new_set && !q.drop_q && q.st == gs_pkg::HC_OCC && !q.fit && q.ty == 2'd2 &&
                     HKW'(q.c) + HKW'(1) >= q.nk;
  gs_hetero_sel u_sel (
    .clk_i, .rst_ni, .start_i(q.sel_go), .nk_i(q.nk), .sms_big_i(q.nb0), .sms_small_i(q.ns0),
    .big_insts_i(q.bsum), .small_insts_i(q.ssum), .cta_big_i(q.cta_b), .cta_small_i(q.cta_s),
    .cta_base_i(q.cta_0), .busy_o(sel_busy), .thick_o(sel_thick), .big_o(sel_big), .even_o(sel_even),
    .state_o(sel_state)
  );
  always_comb begin
    // a group without an SM of a type has no IPC of it: keep the split
    even_f = sel_even || JW'(q.nbig) < JW'(q.nk) || JW'(q.nsmall) < JW'(q.nk);
  end

  // ------------------------------------------------------------------ decisions
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(ksrt), .rank_i(view_i.rank), .key_o(key));
  // SM s is not scanned yet (s >= q.s): the high and low halves of q.s compared to constants,
  // side by side (a >= per SM is a carry chain of SmIdW bits in the mapped netlist)
  localparam int HW = SW / 2;
  logic [N-1:0] unscanned;
  always_comb begin
    for (int s = 0; s < N; s++) begin
      unscanned[s] = SW'(s) >> HW > q.s >> HW ||
                     (SW'(s) >> HW == q.s >> HW && SW'(s) % (1 << HW) >= q.s % (1 << HW));
    end
  end
  logic [GW-1:0] go;
  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = '1;
    go = '0;
    if (q.mapped) begin
      for (int s = 0; s < N; s++) begin
        go = q.grp[s*GW +: GW];
        if (q.st == gs_pkg::HC_SCAN && !q.chosen && unscanned[s]) begin
          out_o.elig[s*K +: K] = '0;   // a profiling split's SM not scanned yet
        end else if (pres[go]) begin
          for (int k = 0; k < K; k++) out_o.elig[s*K + k] = cur[32'(go)*KS +: KS] == KS'(k);
        end
      end
    end
    if (q.pq_valid && found) begin   // SCAN's second stage: the SM scanned the cycle before
      out_o.req.valid = 1'b1;
      out_o.req.sm = q.pq_sm;
      out_o.req.victim = victim;
      out_o.req.mode_sel = q.pq_sel;
      // (GS_MUT_HC_ADAPT_INVERTED: context-switch a kernel that finished a CTA, drain the others)
      out_o.req.mode = (q.pq_fin[victim] != mut_hc_adapt_inverted) ? gs_pkg::PREEMPT_DRAIN : gs_pkg::PREEMPT_SWITCH;
    end
  end

  // the set's slots in this cycle's KSRT for the set of the next cycle (the registers m_*): group
  // c's kernel is there, at this slot; slot k holds a kernel of the set, of this group
  gs_pkg::ksrt_entry_t x;   // valid and kernel are read
  logic nx_sv;
  logic [HKW-1:0] nx_nk;
  logic [HK*IDW-1:0] nx_ids;
  logic [HK-1:0] nx_pres;
  logic [HK*KS-1:0] nx_cur;
  logic [K-1:0] nx_known;
  logic [K*GW-1:0] nx_grp;
  always_comb begin
    nx_sv = q.new_set || (!q.drop_q && q.set_valid);
    nx_nk = q.new_set ? q.new_nk : q.nk;
    nx_ids = q.new_set ? q.new_ids : q.ids;
    nx_pres = '0;
    nx_cur = '0;
    nx_known = '0;
    nx_grp = '0;
    for (int k = 0; k < K; k++) begin
      x = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      for (int c = 0; c < HK; c++) begin
        if (x.valid && nx_sv && HKW'(c) < nx_nk && x.kernel == nx_ids[c*IDW +: IDW]) begin
          nx_pres[c] = 1'b1;
          nx_cur[c*KS +: KS] = KS'(k);
          nx_known[k] = 1'b1;
          nx_grp[k*GW +: GW] = GW'(c);
        end
      end
    end
  end

  // SM s is a big SM: its type's bit
  logic [N-1:0] sm_big;
  always_comb begin
    for (int s = 0; s < N; s++) sm_big[s] = cfg_i.type_big[cfg_i.sm_type[s*gs_pkg::SmTypeW +: gs_pkg::SmTypeW]];
  end

  // the type of SM q.s + 1 (an AND-OR over the SMs)
  logic big_inc;
  logic [SW-1:0] s_inc;
  always_comb begin
    s_inc = q.s + 1'b1;
    big_inc = 1'b0;
    for (int s = 0; s < N; s++) if (s_inc == SW'(s)) big_inc = sm_big[s];
    if (JW'(s_inc) >= cfg_i.num_sms) big_inc = 1'b0;   // an SM outside the GPU is no big SM
  end

  // ------------------------------------------------------------------ next state
  // the sums, every group and SM type every cycle: SUM's read of the cycle before (rd_add) into
  // its group's sum of its SM type, in chunks of ArithChunkW bits whose carries (sum_cy) enter
  // the next chunk a cycle later. Sum t (0..2*HcMaxKernels-1): bsum of group t, then ssum.
  logic [2*HK-1:0] sums_sel;
  logic [2*HK*IW-1:0] sums_d;
  logic [2*HK*(SC-1)-1:0] sums_cy;
  always_comb begin
    for (int t = 0; t < 2 * HK; t++)
      sums_sel[t] = q.rd_add && q.rd_big == (t < HK) && 32'(q.rd_grp) == (t < HK ? t : t - HK);
  end
  gs_chunk_add #(.W(IW), .N(2 * HK), .CH(CH), .SC(SC)) u_sums (
    .sums_i({q.ssum, q.bsum}), .add_i(IW'(q.rd_insts)), .sel_i(sums_sel), .cy_i(q.sum_cy), .sums_o(sums_d),
    .cy_o(sums_cy)
  );
  always_comb begin
    d = q;
    {d.t0_valid, d.t0, d.t1, d.tl_valid, d.tl} = win_nx;   // the window registers (gs_prof_window)
    d.pc_clear = prof_clear;
    d.pc_run = counted;

    d.rd_add = 1'b0;
    {d.ssum, d.bsum} = sums_d;
    d.sum_cy = sums_cy;

    // the set's slots in this cycle's KSRT, for the set of the next cycle
    d.m_pres = nx_pres;
    d.m_cur = nx_cur;
    d.m_known = nx_known;
    d.m_grp = nx_grp;
    d.sel_go = sel_start;   // gs_hetero_sel starts the cycle after OCC's last step (a register)
    // what the KSRT shows this cycle, acted on in the next
    d.new_set = start;
    d.drop_q = drop;
    if (start) begin
      d.new_ids = ids_now;   // the groups: the set's kernels in slot order
      d.new_nk = HKW'(nact);
    end
    // SCAN's first stage of a preemption request (the request is made the cycle after)
    d.pq_valid = !q.new_set && !q.drop_q && q.st == gs_pkg::HC_SCAN && pres[g] && m.state != gs_pkg::SM_RESERVED;
    d.pq_sm = q.s;
    d.pq_cand = cand;
    d.pq_fin = fin_k;
    d.pq_sel = q.chosen;

    if (q.new_set) begin
      d.ids = q.new_ids;
      d.set_valid = 1'b1;
      d.nk = q.new_nk;
      d.mapped = 1'b1;
      d.chosen = 1'b0;
      d.st = gs_pkg::HC_SCAN;
      d.s = '0;
      d.cb = '0;
      d.cs = '0;
      for (int c = 0; c < HK; c++) d.mb[c] = HKW'(c) < q.new_nk;
      d.ms = d.mb;
      d.nbig = '0;
      d.nsmall = '0;
      d.nb0 = '0;
      d.ns0 = '0;
      d.fin = '0;
      d.t0_valid = 1'b0;
      d.big = '0;
      d.even = 1'b0;
    end else if (q.drop_q) begin
      d.set_valid = 1'b0;
      d.mapped = 1'b0;
      d.st = gs_pkg::HC_IDLE;
    end else begin
      unique case (q.st)
        gs_pkg::HC_SCAN: begin   // one SM per cycle
          for (int s = 0; s < N; s++) if (q.s == SW'(s)) d.grp[s*GW +: GW] = g;   // at constant indices
          if (is_big) d.cb = pos_nx;
          else d.cs = pos_nx;
          if (!q.chosen) begin
            if (is_big) begin
              d.nbig = q.nbig + 1'b1;
              if (g == '0) d.nb0 = q.nb0 + 1'b1;
            end else begin
              d.nsmall = q.nsmall + 1'b1;
              if (g == '0) d.ns0 = q.ns0 + 1'b1;
            end
          end
          d.s = q.s + 1'b1;
          if (last_sm) begin
            d.s = '0;
            if (q.chosen) begin
              d.st = gs_pkg::HC_IDLE;
            end else begin
              d.t0_valid = 1'b0;
              d.fin = '0;
              d.has_b = 1'b0;   // SUM finds the first big and small SM
              d.has_s = 1'b0;
              d.fb = '0;
              d.fs = '0;
              d.st = gs_pkg::HC_WARM;
            end
          end
        end
        gs_pkg::HC_WARM: begin
          if (event_i.ev_valid && event_i.ev_type == gs_pkg::EV_CTA_FINISHED && q.m_known[event_i.ev_slot])
            d.fin[slot_grp[32'(event_i.ev_slot)*GW +: GW]] = 1'b1;
          if (win_done) d.st = gs_pkg::HC_SAMPLE;
        end
        gs_pkg::HC_SAMPLE: begin
          if (win_done) begin   // an epoch past the window (s is 0 since SCAN)
            d.bsum = '0;
            d.ssum = '0;
            d.sum_cy = '0;
            d.st = gs_pkg::HC_SUM;
          end
        end
        gs_pkg::HC_SUM: begin   // one SM per cycle: its pair (its group's kernel), registered, summed the cycle after
          d.rd_insts = PW'(prof_i.insts);
          d.rd_grp = g_sum;
          // (GS_MUT_HC_SUM_TYPE_SWAP: a big SM's instructions are summed as small-SM ones and the reverse)
          d.rd_big = q.sb != mut_hc_sum_type_swap;
          d.rd_add = pres[g_sum];
          if (q.sb && !q.has_b) begin
            d.has_b = 1'b1;
            d.fb = q.s;
          end
          if (!q.sb && !q.has_s) begin
            d.has_s = 1'b1;
            d.fs = q.s;
          end
          d.s = q.s + 1'b1;
          if (last_sm) begin
            d.s = '0;
            d.st = gs_pkg::HC_SUM_CARRY;
          end
        end
        gs_pkg::HC_SUM_CARRY: begin   // the last read added, then its carries through the chunks
          d.s = q.s + 1'b1;
          if (JW'(q.s) + JW'(1) >= JW'(SC)) begin
            d.s = '0;
            d.c = '0;
            d.ty = 2'd0;
            d.st = gs_pkg::HC_OCC_LOAD;
          end
        end
        gs_pkg::HC_OCC_LOAD: begin   // group c, SM type ty: the capacities and one CTA's resources
          d.cap = cap;
          d.cta = r_occ;
          d.acc = '0;
          d.n = '0;
          d.st = gs_pkg::HC_OCC_FIT;
        end
        gs_pkg::HC_OCC_FIT: begin   // does one more CTA fit (registered: OCC acts on it)
          d.fit = acc_fits;
          d.st = gs_pkg::HC_OCC;
        end
        gs_pkg::HC_OCC: begin   // one CTA counted, or the count stored
          if (q.fit) begin
            d.acc = acc_sum;
            d.n = q.n + 1'b1;
            d.st = gs_pkg::HC_OCC_FIT;
          end else begin
            unique case (q.ty)
              2'd0: d.cta_b[32'(q.c)*CW +: CW] = q.n;
              2'd1: d.cta_s[32'(q.c)*CW +: CW] = q.n;
              default: d.cta_0[32'(q.c)*CW +: CW] = q.n;
            endcase
            d.ty = q.ty + 2'd1;
            d.st = gs_pkg::HC_OCC_LOAD;
            if (q.ty == 2'd2) begin
              d.ty = 2'd0;
              d.c = q.c + 1'b1;
              if (HKW'(q.c) + HKW'(1) >= q.nk) begin
                d.c = '0;
                d.st = gs_pkg::HC_SEL;
              end
            end
          end
        end
        gs_pkg::HC_SEL: if (!sel_busy && !q.sel_go) begin   // started by sel_go this cycle: busy from the next
          d.big = sel_big;
          d.even = even_f;
          if (even_f) begin
            d.st = gs_pkg::HC_IDLE;   // the profiling split stays
          end else begin
            d.chosen = 1'b1;
            d.mb = sel_big;
            d.ms = in_set & ~sel_big;
            d.cb = '0;
            d.cs = '0;
            d.s = '0;
            d.st = gs_pkg::HC_SCAN;
          end
        end
        default: ;
      endcase
    end
    // the type of SM d.s, registered with it: d.s is 0, q.s or q.s + 1, so the SM-type mux is
    // addressed by q.s + 1 (a register and an increment) and the next-state logic only selects
    d.sb = q.sb;
    if (d.s == '0) d.sb = sm_big[0];
    else if (d.s != q.s) d.sb = big_inc;
  end

  always_comb begin
    state_o = q;
    state_o.sel = sel_state;   // the unit's registers (q.sel stays 0)
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
endmodule
