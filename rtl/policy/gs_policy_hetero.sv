// gs_policy_hetero: HeteroCore's dynamic TLP resource-aware scheduling (--policy hetero-dynamic).
// Contract and timing: docs/rtl/gs_policy_hetero.md
//
// Zhao et al., "HeteroCore GPU to Exploit TLP-Resource Diversity", TPDS 2019, Sec. 4.3,
// Algorithm 2; Sec. 6.4 for four kernels; with its adaptive preemption.
// The set: the kernels in the KSRT, 2..HcMaxKernels of them (groups; a kernel relaunched by the
// fixed-window method stays its group). One state machine (SCAN, WARM, SAMPLE, SUM, OCC, SEL;
// the page tables each state): spatial profiling gives every group big and small SMs, the
// window's instructions per group and SM type and the CTA counts go to gs_hetero_sel, and SCAN
// maps its choice (big SMs to the selected groups), preempting an SM that holds another
// kernel's CTAs by adaptive preemption (preempt_req_t.mode_sel). Then the mapping holds (IDLE)
// until the set changes. Order: arrival (gs_order_keys). No quota table, owners, tokens or
// bypass. Time enters only through the samples' stamps (docs/adding-a-policy.md rule 6).
// Storage: hc_state_t (928 bits at MaxSms 132: 264 of them the per-SM groups). The profiling
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
  localparam logic [2:0] StIdle = 3'd0, StScan = 3'd1, StWarm = 3'd2, StSample = 3'd3, StSum = 3'd4,
                         StOcc = 3'd5, StSel = 3'd6;

  gs_pkg::hc_state_t q, d;

  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  gs_pkg::obs_sample_t obs;
  assign ksrt = view_i.ksrt;
  assign obs = event_i.obs;

  // ------------------------------------------------------------------ the set in the KSRT
  gs_pkg::ksrt_entry_t e;      // valid and kernel are read
  logic [KS:0] nact;                 // kernels in the KSRT
  logic [HK-1:0] pres;               // group c's kernel is in the KSRT ...
  logic [HK*KS-1:0] cur;             // ... at this slot
  logic [K-1:0] slot_known;          // slot k holds a kernel of the set ...
  logic [K*GW-1:0] slot_grp;         // ... of this group
  logic known_all, start, drop;
  logic [HK-1:0] in_set;
  always_comb begin
    nact = '0;
    pres = '0;
    cur = '0;
    slot_known = '0;
    slot_grp = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (e.valid) begin
        nact = nact + 1'b1;
        for (int c = 0; c < HK; c++) begin
          if (q.set_valid && HKW'(c) < q.nk && e.kernel == q.ids[c*IDW +: IDW]) begin
            pres[c] = 1'b1;
            cur[c*KS +: KS] = KS'(k);
            slot_known[k] = 1'b1;
            slot_grp[k*GW +: GW] = GW'(c);
          end
        end
      end
    end
    known_all = 1'b1;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (e.valid && !slot_known[k]) known_all = 1'b0;
    end
    // a new set to profile: 2..HcMaxKernels kernels, one of them not in the set taken
    start = en_i && nact >= (KS + 1)'(2) && nact <= (KS + 1)'(HK) && !(q.set_valid && known_all);
    // a kernel outside the set and no set to profile: the mapping goes
    drop = en_i && !start && q.set_valid && !known_all;
    for (int c = 0; c < HK; c++) in_set[c] = HKW'(c) < q.nk;
  end

  // ------------------------------------------------------------------ the scan's SM
  logic is_big, last_sm;
  logic [HK-1:0] mask;
  logic [HKW-1:0] pos, cnt, seen, pos_nx;
  logic [GW-1:0] g;
  always_comb begin
    is_big = cfg_i.sm_big[q.s];
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

  // the preemption of the scanned SM: a slot with CTAs there other than its new owner's
  gs_pkg::smst_entry_t m;     // state is read
  logic found;
  gs_pkg::slot_t owner, victim;
  gs_pkg::cta_cnt_t res;
  logic [GW-1:0] vg;
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
    found = 1'b0;
    victim = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      res = res_s[k*CW +: CW];
      if (!found && e.valid && res != '0 && !(pres[g] && owner == KS'(k))) begin
        found = 1'b1;
        victim = KS'(k);
      end
    end
    vg = slot_grp[32'(victim)*GW +: GW];
  end

  // ------------------------------------------------------------------ held blocks
  // the profiling counters: cleared when the warm-up ends, run while the window is open, read
  // at (SM s, its owner's slot) by SUM
  gs_pkg::prof_phase_e win_phase;
  gs_pkg::prof_win_t win_nx;
  logic prof_clear, counted, win_done;
  logic [GW-1:0] g_sum;       // SM s's group (SUM)
  always_comb begin
    g_sum = grp_s;
    win_phase = gs_pkg::PW_IDLE;
    if (!start && !drop && q.st == StWarm) win_phase = gs_pkg::PW_WARM;
    if (!start && !drop && q.st == StSample) win_phase = gs_pkg::PW_SAMPLE;
    prof_o.clear = prof_clear;
    prof_o.run = counted;
    prof_o.rd_sm = q.s;
    prof_o.rd_slot = cur[32'(g_sum)*KS +: KS];
  end
  gs_prof_window u_window (
    .obs_i(obs), .phase_i(win_phase), .win_i({q.t0_valid, q.t0, q.t1, q.tl_valid, q.tl}),
    .warmup_i(set_i.warmup_cycles), .sample_i(set_i.sample_cycles), .win_o(win_nx), .clear_o(prof_clear),
    .run_o(counted), .done_o(win_done)
  );

  // OCC: group c's CTAs on one SM of type ty, one more per cycle; the first big and the first
  // small SM stand for their type (every SM of a type has its capacities)
  gs_pkg::ksrt_entry_t e_occ;   // the per-CTA resources are read
  gs_pkg::wf_res_t r_occ, cap, acc_sum;
  logic acc_fits, has_b, has_s;
  logic [SW-1:0] fb, fs, sm_cap;
  always_comb begin
    e_occ = ksrt[32'(cur[32'(q.c)*KS +: KS])*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    r_occ = pres[q.c] ? {e_occ.threads, e_occ.warps, e_occ.regs, e_occ.shmem, CW'(1)}   // wf_res_t order
                      : {gs_pkg::WfResW'(1)};
    has_b = 1'b0;
    has_s = 1'b0;
    fb = '0;
    fs = '0;
    for (int s = N - 1; s >= 0; s--) begin
      if (JW'(s) < JW'(cfg_i.num_sms)) begin
        if (cfg_i.sm_big[s]) begin
          has_b = 1'b1;
          fb = SW'(s);
        end else begin
          has_s = 1'b1;
          fs = SW'(s);
        end
      end
    end
    sm_cap = (q.ty == 2'd0) ? fb : fs;
    cap = '0;
    for (int s = 0; s < N; s++) begin   // an AND-OR over the SMs, as for SM s above
      if (sm_cap == SW'(s)) begin
        cap.threads = cfg_i.sm_threads[s*gs_pkg::ThreadW +: gs_pkg::ThreadW];
        cap.warps = cfg_i.sm_warps[s*gs_pkg::WarpW +: gs_pkg::WarpW];
        cap.regs = cfg_i.sm_regs[s*gs_pkg::RegW +: gs_pkg::RegW];
        cap.shmem = cfg_i.sm_shmem[s*gs_pkg::ShmemW +: gs_pkg::ShmemW];
        cap.slots = cfg_i.sm_ctas[s*CW +: CW];
      end
    end
    if ((q.ty == 2'd0 && !has_b) || (q.ty == 2'd1 && !has_s)) cap = '0;
    if (q.ty == 2'd2) cap = cfg_i.base_sm;
  end
  gs_cta_fit u_fit (.acc_i(q.acc), .cta_i(r_occ), .cap_i(cap), .sum_o(acc_sum), .fits_o(acc_fits));

  // SEL: Algorithm 2's decision on the registers, started by OCC's last step (the condition
  // below is OCC's move to SEL) and awaited in SEL; the registers it reads hold until then
  logic [HK-1:0] sel_thick;   // the report's (docs/rtl/gs_hetero_sel.md); the decision needs big_o
  logic [HK-1:0] sel_big;
  logic sel_start, sel_busy, sel_even, even_f;
  gs_pkg::hc_sel_state_t sel_state;
  assign sel_start = en_i && !start && !drop && q.st == StOcc && !acc_fits && q.ty == 2'd2 &&
                     HKW'(q.c) + HKW'(1) >= q.nk;
  gs_hetero_sel u_sel (
    .clk_i, .rst_ni, .start_i(sel_start), .nk_i(q.nk), .sms_big_i(q.nb0), .sms_small_i(q.ns0),
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
  logic [GW-1:0] go;
  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = '1;
    go = '0;
    if (q.mapped) begin
      for (int s = 0; s < N; s++) begin
        go = q.grp[s*GW +: GW];
        if (q.st == StScan && !q.chosen && JW'(s) >= JW'(q.s)) begin
          out_o.elig[s*K +: K] = '0;   // a profiling split's SM not scanned yet
        end else if (pres[go]) begin
          for (int k = 0; k < K; k++) out_o.elig[s*K + k] = cur[32'(go)*KS +: KS] == KS'(k);
        end
      end
    end
    if (!start && !drop && q.st == StScan && found && pres[g] && m.state != gs_pkg::SM_RESERVED) begin
      out_o.req.valid = 1'b1;
      out_o.req.sm = q.s;
      out_o.req.victim = victim;
      out_o.req.mode_sel = q.chosen;
      // (GS_MUT_HC_ADAPT_INVERTED: context-switch a kernel that finished a CTA, drain the others)
      out_o.req.mode = (q.fin[vg] != mut_hc_adapt_inverted) ? gs_pkg::PREEMPT_DRAIN : gs_pkg::PREEMPT_SWITCH;
    end
  end

  // ------------------------------------------------------------------ next state
  gs_pkg::ksrt_entry_t e_nx;   // valid and kernel are read
  logic [HKW-1:0] c_nx;
  always_comb begin
    d = q;
    {d.t0_valid, d.t0, d.t1, d.tl_valid, d.tl} = win_nx;   // the window registers (gs_prof_window)
    e_nx = '0;
    c_nx = '0;
    if (start) begin
      // the groups: the set's kernels in slot order
      d.ids = '0;
      for (int k = 0; k < K; k++) begin
        e_nx = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
        if (e_nx.valid) begin
          for (int c = 0; c < HK; c++) if (c_nx == HKW'(c)) d.ids[c*IDW +: IDW] = e_nx.kernel;
          c_nx = c_nx + 1'b1;
        end
      end
      d.set_valid = 1'b1;
      d.nk = HKW'(nact);
      d.mapped = 1'b1;
      d.chosen = 1'b0;
      d.st = StScan;
      d.s = '0;
      d.cb = '0;
      d.cs = '0;
      for (int c = 0; c < HK; c++) d.mb[c] = HKW'(c) < HKW'(nact);
      d.ms = d.mb;
      d.nbig = '0;
      d.nsmall = '0;
      d.nb0 = '0;
      d.ns0 = '0;
      d.fin = '0;
      d.t0_valid = 1'b0;
      d.big = '0;
      d.even = 1'b0;
    end else if (drop) begin
      d.set_valid = 1'b0;
      d.mapped = 1'b0;
      d.st = StIdle;
    end else begin
      unique case (q.st)
        StScan: begin   // one SM per cycle
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
              d.st = StIdle;
            end else begin
              d.t0_valid = 1'b0;
              d.fin = '0;
              d.st = StWarm;
            end
          end
        end
        StWarm: begin
          if (event_i.ev_valid && event_i.ev_type == gs_pkg::EV_CTA_FINISHED && slot_known[event_i.ev_slot])
            d.fin[slot_grp[32'(event_i.ev_slot)*GW +: GW]] = 1'b1;
          if (win_done) d.st = StSample;
        end
        StSample: begin
          if (win_done) begin   // an epoch past the window
            d.s = '0;
            d.bsum = '0;
            d.ssum = '0;
            d.st = StSum;
          end
        end
        StSum: begin   // one SM per cycle: its owner's instructions
          if (pres[g_sum]) begin
            // (GS_MUT_HC_SUM_TYPE_SWAP: a big SM's instructions are summed as small-SM ones and the reverse)
            if (cfg_i.sm_big[q.s] != mut_hc_sum_type_swap)
              d.bsum[32'(g_sum)*IW +: IW] = q.bsum[32'(g_sum)*IW +: IW] + IW'(prof_i.insts);
            else
              d.ssum[32'(g_sum)*IW +: IW] = q.ssum[32'(g_sum)*IW +: IW] + IW'(prof_i.insts);
          end
          d.s = q.s + 1'b1;
          if (last_sm) begin
            d.s = '0;
            d.c = '0;
            d.ty = 2'd0;
            d.acc = '0;
            d.n = '0;
            d.st = StOcc;
          end
        end
        StOcc: begin   // one CTA per cycle
          if (acc_fits) begin
            d.acc = acc_sum;
            d.n = q.n + 1'b1;
          end else begin
            unique case (q.ty)
              2'd0: d.cta_b[32'(q.c)*CW +: CW] = q.n;
              2'd1: d.cta_s[32'(q.c)*CW +: CW] = q.n;
              default: d.cta_0[32'(q.c)*CW +: CW] = q.n;
            endcase
            d.acc = '0;
            d.n = '0;
            d.ty = q.ty + 2'd1;
            if (q.ty == 2'd2) begin
              d.ty = 2'd0;
              d.c = q.c + 1'b1;
              if (HKW'(q.c) + HKW'(1) >= q.nk) begin
                d.c = '0;
                d.st = StSel;
              end
            end
          end
        end
        StSel: if (!sel_busy) begin
          d.big = sel_big;
          d.even = even_f;
          if (even_f) begin
            d.st = StIdle;   // the profiling split stays
          end else begin
            d.chosen = 1'b1;
            d.mb = sel_big;
            d.ms = in_set & ~sel_big;
            d.cb = '0;
            d.cs = '0;
            d.s = '0;
            d.st = StScan;
          end
        end
        default: ;
      endcase
    end
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
