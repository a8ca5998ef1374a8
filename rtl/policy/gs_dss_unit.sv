// gs_dss_unit: the Dynamic Spatial Sharing unit (Tanasic Sec. 3.4, Algorithm 1).
// Contract and timing: docs/rtl/dss.md
//
// The decision core of gs_policy_dss (which adapts it to the policy contract). Tokens (KSRT,
// signed) are a kernel's SM budget; on an event (trigger_i) the unit scans the SMST one SM per
// cycle (and takes a copy of the KSRT tokens, ranks, pending and valid bits), then three
// cycles decide from registers: SEL finds kmax and kmin (log-depth comparisons of every pair
// of kernels, one-hot winners) and re-checks the releasable SM, CHK computes the steady-state
// test tokens[kmax] > tokens[kmin] + 1 and re-checks the idle SM, the SM to preempt, kmax's
// pending and kmin's valid bit, ACT
// releases an SM, assigns an idle one, or reserves and preempts one (req_o; the token pair on
// tok_o only when accepted) from registers only; it sleeps when a pass changed nothing.
// The pass, the deviations from Algorithm 1 as printed and why: docs/rtl/dss.md.
// Latency: num_sms + 3 cycles per pass. Storage (MaxSms 132, MaxKernels 8): DssStateW = 294 b
// (state_o). Golden twin: cmodel/sched/golden/gs_dss_unit.hpp.
module gs_dss_unit (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::SlotW-1:0] rank_i,
  input  gs_pkg::slot_mask_t pending_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::SmstW-1:0] smst_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_i,
  input  logic trigger_i,
  input  logic accept_i,
  output gs_pkg::owner_wr_t owner_wr_o,
  output gs_pkg::token_upd_t tok_o,
  output gs_pkg::token_upd_t tok_req_o,   // tok_o before acceptance (policy contract: gs_top masks)
  output gs_pkg::preempt_req_t req_o,
  output gs_pkg::dss_state_t state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int TW = gs_pkg::TokenW;
  localparam int IW = gs_pkg::SmIdW;
  localparam int MW = gs_pkg::SmstW;
  localparam int CmpW = 1 << $clog2(TW + 1);   // the comparison tree's leaves (TW + 1 rounded up)

  gs_pkg::dss_st_e st_q, st_d;
  gs_pkg::sm_id_t s_q, s_d;
  logic dirty_q, dirty_d;
  logic idle_found_q, idle_found_d, rel_found_q, rel_found_d;
  gs_pkg::sm_id_t idle_sm_q, idle_sm_d, rel_sm_q, rel_sm_d;
  gs_pkg::slot_mask_t own_found_q, own_found_d;
  logic [K*IW-1:0] own_sm_q, own_sm_d;
  // the KSRT as of the scan's last cycle (loaded every SCAN cycle)
  logic [K*TW-1:0] tok_q;
  logic [K*SW-1:0] rank_q;
  gs_pkg::slot_mask_t pend_q, valid_q;
  // SEL's results: kmax / kmin one-hot (none: 0), the releasable SM re-checked and its owner
  gs_pkg::slot_mask_t kmax_q, kmax_d, kmin_q, kmin_d;
  logic rel_pre_q, rel_pre_d;
  gs_pkg::slot_t rel_own_q, rel_own_d;
  // CHK's results: the steady-state test and the three candidate SMs re-checked
  logic gap_q, gap_d, rel_ok_q, rel_ok_d, idle_ok_q, idle_ok_d, pre_ok_q, pre_ok_d;

  gs_pkg::ksrt_entry_t e;
  gs_pkg::smst_entry_t ma, mp;
  logic releasable, changed;
  gs_pkg::slot_mask_t za;
  logic [N*K-1:0] res_zero;
  for (genvar g = 0; g < N * K; g++) begin : g_res_zero
    assign res_zero[g] = resident_i[g*CW +: CW] == '0;
  end
  gs_pkg::token_upd_t tok_pre;
  gs_pkg::slot_t kmax_idx, kmin_idx;
  logic signed [TW:0] tmax, tmin;
  gs_pkg::sm_id_t pre_sm;

  // {a > b, a == b} of two signed TW+1-bit numbers as a log-depth tree (no carry chain):
  // offset binary (sign bit flipped), sign-extended to CmpW leaves, then pairs of (gt, eq)
  // nodes merged level by level: gt = gt_hi | eq_hi & gt_lo, eq = eq_hi & eq_lo.
  function automatic logic [1:0] cmp_gt_eq(input logic [TW:0] a, input logic [TW:0] b);
    logic [CmpW-1:0] ua, ub, g, q;
    ua = CmpW'({{(CmpW - TW - 1){a[TW]}}, a}) ^ (CmpW'(1) << (CmpW - 1));
    ub = CmpW'({{(CmpW - TW - 1){b[TW]}}, b}) ^ (CmpW'(1) << (CmpW - 1));
    g = ua & ~ub;
    q = ~(ua ^ ub);
    for (int w = CmpW / 2; w >= 1; w = w / 2) begin
      for (int i = 0; i < w; i++) begin
        g[i] = g[2*i+1] | (q[2*i+1] & g[2*i]);
        q[i] = q[2*i+1] & q[2*i];
      end
    end
    cmp_gt_eq = {g[0], q[0]};
  endfunction

  // one-hot (or zero) to its index, as an OR of the set bits' indices (no priority chain)
  function automatic gs_pkg::slot_t oh_idx(input gs_pkg::slot_mask_t oh);
    oh_idx = '0;
    for (int k = 0; k < K; k++) oh_idx = oh_idx | (oh[k] ? SW'(k) : '0);
  endfunction

  // releasable: owned, not reserved, owner has nothing to issue and no CTA on the SM
  // (zero: per kernel, the SM holds none of its CTAs)
  function automatic logic can_release(input logic reserved, input logic owner_valid,
                                       input gs_pkg::slot_t owner, input gs_pkg::slot_mask_t pend,
                                       input gs_pkg::slot_mask_t zero);
    can_release = 1'b0;
    for (int k = 0; k < K; k++) begin
      if (!reserved && owner_valid && owner == SW'(k) && !pend[k] && zero[k]) can_release = 1'b1;
    end
  endfunction

  // SEL: kmax (most tokens among pending kernels; ties: oldest, then lowest slot) and kmin
  // (fewest tokens among valid kernels owning a scanned SM; ties: youngest, then lowest slot),
  // the orders of Algorithm 1's serial searches, from every pair's comparison at once.
  // beat_max[j*K+k]: j comes before k in kmax's order (likewise beat_min).
  logic [K*K-1:0] beat_max, beat_min;
  for (genvar j = 0; j < K; j++) begin : g_pair_j
    assign beat_max[j*K+j] = 1'b0;
    assign beat_min[j*K+j] = 1'b0;
    for (genvar k = j + 1; k < K; k++) begin : g_pair_k
      logic [1:0] ge;   // {tokens j > tokens k, equal}
      logic [SW-1:0] rj, rk;
      assign ge = cmp_gt_eq({tok_q[j*TW+TW-1], tok_q[j*TW +: TW]}, {tok_q[k*TW+TW-1], tok_q[k*TW +: TW]});
      assign rj = rank_q[j*SW +: SW];
      assign rk = rank_q[k*SW +: SW];
      assign beat_max[j*K+k] = ge[1] || (ge[0] && rj <= rk);
      assign beat_max[k*K+j] = (!ge[1] && !ge[0]) || (ge[0] && rk < rj);
`ifdef GS_MUT_DSS_MIN_TIE_OLDEST
      // MUTATION: a tie for the fewest tokens goes to the oldest kernel, not the youngest
      assign beat_min[j*K+k] = (!ge[1] && !ge[0]) || (ge[0] && rj <= rk);
      assign beat_min[k*K+j] = ge[1] || (ge[0] && rk < rj);
`else
      assign beat_min[j*K+k] = (!ge[1] && !ge[0]) || (ge[0] && rj >= rk);
      assign beat_min[k*K+j] = ge[1] || (ge[0] && rk > rj);
`endif
    end
  end
  gs_pkg::slot_mask_t min_cand;
  assign min_cand = valid_q & own_found_q;
  always_comb begin
    for (int j = 0; j < K; j++) begin
      kmax_d[j] = pend_q[j] && &(beat_max[j*K +: K] | ~pend_q | (K'(1) << j));
      kmin_d[j] = min_cand[j] && &(beat_min[j*K +: K] | ~min_cand | (K'(1) << j));
    end
  end

  // the KSRT copy: loaded in every SCAN cycle (the scan's last cycle is the one SEL reads)
  logic [K*TW-1:0] tok_d, tok_in;
  gs_pkg::slot_mask_t valid_d, valid_in;
  always_comb begin
    e = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      tok_in[k*TW +: TW] = e.tokens;
      valid_in[k] = e.valid;
    end
    tok_d = st_q == gs_pkg::DSS_SCAN ? tok_in : tok_q;
    valid_d = st_q == gs_pkg::DSS_SCAN ? valid_in : valid_q;
  end

  always_comb begin
    st_d = st_q;
    s_d = s_q;
    dirty_d = dirty_q || trigger_i;
    idle_found_d = idle_found_q;
    idle_sm_d = idle_sm_q;
    rel_found_d = rel_found_q;
    rel_sm_d = rel_sm_q;
    own_found_d = own_found_q;
    own_sm_d = own_sm_q;
    rel_pre_d = rel_pre_q;
    rel_own_d = rel_own_q;
    gap_d = gap_q;
    rel_ok_d = rel_ok_q;
    idle_ok_d = idle_ok_q;
    pre_ok_d = pre_ok_q;
    owner_wr_o = '0;
    tok_pre = '0;
    req_o = '0;
    changed = 1'b0;

    // the registered winners' indices and tokens, and kmin's owned SM (one-hot AND-OR muxes)
    kmax_idx = oh_idx(kmax_q);
    kmin_idx = oh_idx(kmin_q);
    tmax = '0;
    tmin = '0;
    pre_sm = '0;
    for (int k = 0; k < K; k++) begin
      tmax = tmax | (kmax_q[k] ? {tok_q[k*TW+TW-1], tok_q[k*TW +: TW]} : '0);
      tmin = tmin | (kmin_q[k] ? {tok_q[k*TW+TW-1], tok_q[k*TW +: TW]} : '0);
      pre_sm = pre_sm | (kmin_q[k] ? own_sm_q[k*IW +: IW] : '0);
    end

    // SMST entries the FSM looks at, through two read ports (AND-OR muxes): port a reads SM
    // s_q -- the scanned SM (SCAN), then the releasable one (SEL), then the idle one (CHK): s_q
    // is loaded with them, so the port's index is a register -- with the SM's resident-CTA zero
    // flags (res_zero, one bit per SM and kernel, reduced before the mux); port p reads kmin's
    // SM (CHK)
    ma = '0;
    mp = '0;
    za = '0;
    for (int s = 0; s < N; s++) begin
      ma = ma | (s_q == IW'(s) ? smst_i[s*MW +: MW] : '0);
      za = za | (s_q == IW'(s) ? res_zero[s*K +: K] : '0);
      mp = mp | (pre_sm == IW'(s) ? smst_i[s*MW +: MW] : '0);
    end
    releasable = can_release(ma.state == gs_pkg::SM_RESERVED, ma.owner_valid, ma.owner, pending_i, za);

    unique case (st_q)
      gs_pkg::DSS_IDLE: begin
        if (en_i && dirty_d) begin
          st_d = gs_pkg::DSS_SCAN;
          s_d = '0;
          dirty_d = 1'b0;
          idle_found_d = 1'b0;
          rel_found_d = 1'b0;
          own_found_d = '0;
        end
      end
      gs_pkg::DSS_SCAN: begin
        if (ma.state != gs_pkg::SM_RESERVED) begin
          if (ma.owner_valid) begin
            for (int k = 0; k < K; k++) begin
              if (ma.owner == SW'(k)) begin
                own_found_d[k] = 1'b1;
                own_sm_d[k*IW +: IW] = s_q;
              end
            end
            if (releasable && !rel_found_q) begin
              rel_found_d = 1'b1;
              rel_sm_d = s_q;
            end
          end else if (!idle_found_q) begin
            idle_found_d = 1'b1;
            idle_sm_d = s_q;
          end
        end
        s_d = s_q + 1'b1;
        if ({1'b0, s_q} + 1'b1 >= cfg_num_sms_i) begin
          st_d = gs_pkg::DSS_SEL;
          s_d = rel_sm_d;   // port a reads the releasable SM in SEL
        end
      end
      gs_pkg::DSS_SEL: begin
        s_d = idle_sm_q;    // and the idle SM in CHK
        // the releasable SM as it is now; its owner's pending bit is checked again in CHK
        rel_pre_d = releasable;
        rel_own_d = ma.owner;
        st_d = gs_pkg::DSS_CHK;
      end
      gs_pkg::DSS_CHK: begin
`ifdef GS_MUT_DSS_TOKEN_OFF_BY_ONE
        // MUTATION: steady-state test off by one (tokens may differ by one -> ping-pong)
        gap_d = kmax_q != '0 && kmin_q != '0 && cmp_gt_eq(tmax, tmin) == 2'b10;
`else
        gap_d = kmax_q != '0 && kmin_q != '0 && cmp_gt_eq(tmax, tmin + 1'b1) == 2'b10;
`endif
        // no issue of the owner in SEL or CHK: its resident CTAs are still as SEL saw them
        rel_ok_d = rel_pre_q && !pending_i[rel_own_q];
        // kmax still has CTAs to issue and kmin is still valid (as Algorithm 1 would see them)
        idle_ok_d = ma.state != gs_pkg::SM_RESERVED && !ma.owner_valid && (kmax_q & pending_i) != '0;
        pre_ok_d = mp.state != gs_pkg::SM_RESERVED && mp.owner_valid && mp.owner == kmin_idx &&
                   (kmax_q & pending_i) != '0 && (kmin_q & valid_in) != '0;
        st_d = gs_pkg::DSS_ACT;
      end
      gs_pkg::DSS_ACT: begin
        // from registers only: the SMST entries were re-checked in SEL / CHK (an SM's owner and
        // reservation change only through this unit's own writes and requests)
        if (rel_found_q) begin
          changed = 1'b1;   // re-scan even if the SM changed meanwhile
          if (rel_ok_q) begin
            owner_wr_o.valid = 1'b1;
            owner_wr_o.sm = rel_sm_q;
            owner_wr_o.owner_valid = 1'b0;
            tok_pre.inc_valid = 1'b1;
            tok_pre.inc = rel_own_q;
          end
        end else if (idle_found_q && kmax_q != '0) begin
          changed = 1'b1;
          if (idle_ok_q) begin
            owner_wr_o.valid = 1'b1;
            owner_wr_o.sm = idle_sm_q;
            owner_wr_o.owner_valid = 1'b1;
            owner_wr_o.owner = kmax_idx;
            tok_pre.dec_valid = 1'b1;
            tok_pre.dec = kmax_idx;
          end
        end else if (gap_q) begin
          changed = 1'b1;
          if (pre_ok_q) begin
            req_o.valid = 1'b1;
            req_o.sm = pre_sm;
            req_o.victim_all = 1'b0;
            req_o.victim = kmin_idx;
            req_o.next_valid = 1'b1;
            req_o.next = kmax_idx;
            req_o.assign_next = 1'b1;
            // tokens move only if the preemption is accepted (see below)
            tok_pre.inc_valid = 1'b1;
            tok_pre.inc = kmin_idx;
            tok_pre.dec_valid = 1'b1;
            tok_pre.dec = kmax_idx;
          end
        end
        if (changed || dirty_d) begin
          st_d = gs_pkg::DSS_SCAN;
          s_d = '0;
          dirty_d = 1'b0;
          idle_found_d = 1'b0;
          rel_found_d = 1'b0;
          own_found_d = '0;
        end else begin
          st_d = gs_pkg::DSS_IDLE;
        end
      end
      default: st_d = gs_pkg::DSS_IDLE;
    endcase
    if (!en_i) st_d = gs_pkg::DSS_IDLE;
  end

  // a token move that belongs to a preemption waits for gs_preempt_ctrl to accept it (own
  // block: the request above must not depend on the acceptance)
  always_comb begin
    tok_o = tok_pre;
    if (req_o.valid && !accept_i) tok_o = '0;
  end
  assign tok_req_o = tok_pre;

  always_comb begin
    state_o = '0;
    state_o.st = st_q;
    state_o.s = s_q;
    state_o.dirty = dirty_q;
    state_o.idle_found = idle_found_q;
    state_o.idle_sm = idle_sm_q;
    state_o.rel_found = rel_found_q;
    state_o.rel_sm = rel_sm_q;
    state_o.own_found = own_found_q;
    state_o.own_sm = own_sm_q;
    state_o.tok = tok_q;
    state_o.rank = rank_q;
    state_o.pend = pend_q;
    state_o.valid = valid_q;
    state_o.kmax = kmax_q;
    state_o.kmin = kmin_q;
    state_o.rel_pre = rel_pre_q;
    state_o.rel_own = rel_own_q;
    state_o.gap = gap_q;
    state_o.rel_ok = rel_ok_q;
    state_o.idle_ok = idle_ok_q;
    state_o.pre_ok = pre_ok_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= gs_pkg::DSS_IDLE;
      s_q <= '0;
      dirty_q <= 1'b0;
      idle_found_q <= 1'b0;
      idle_sm_q <= '0;
      rel_found_q <= 1'b0;
      rel_sm_q <= '0;
      own_found_q <= '0;
      own_sm_q <= '0;
      tok_q <= '0;
      rank_q <= '0;
      pend_q <= '0;
      valid_q <= '0;
      kmax_q <= '0;
      kmin_q <= '0;
      rel_pre_q <= 1'b0;
      rel_own_q <= '0;
      gap_q <= 1'b0;
      rel_ok_q <= 1'b0;
      idle_ok_q <= 1'b0;
      pre_ok_q <= 1'b0;
    end else begin
      st_q <= st_d;
      s_q <= s_d;
      dirty_q <= dirty_d;
      idle_found_q <= idle_found_d;
      idle_sm_q <= idle_sm_d;
      rel_found_q <= rel_found_d;
      rel_sm_q <= rel_sm_d;
      own_found_q <= own_found_d;
      own_sm_q <= own_sm_d;
      tok_q <= tok_d;
      valid_q <= valid_d;
      if (st_q == gs_pkg::DSS_SCAN) begin
        rank_q <= rank_i;
        pend_q <= pending_i;
      end
      if (st_q == gs_pkg::DSS_SEL) begin
        kmax_q <= kmax_d;
        kmin_q <= kmin_d;
      end
      rel_pre_q <= rel_pre_d;
      rel_own_q <= rel_own_d;
      gap_q <= gap_d;
      rel_ok_q <= rel_ok_d;
      idle_ok_q <= idle_ok_d;
      pre_ok_q <= pre_ok_d;
    end
  end
endmodule
