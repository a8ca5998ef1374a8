// gs_policy_ppq: preemptive priority queues (Tanasic Sec. 4.2-4.3, "PPQ").
// Contract and timing: docs/rtl/gs_policy_ppq.md
//
// Kernel order as NPQ (highest priority first). When the highest priority among the kernels
// with CTAs to issue rises (a more important kernel arrives), the SMs are scanned one per
// cycle (num_sms cycles) and every SM holding CTAs of lower-priority kernels is preempted
// with the configured mechanism (gs_preempt_ctrl): victim = every kernel on the SM if all its
// resident kernels are less important, else the least important resident kernel (ties:
// lowest slot); next = the most important kernel (reported only, the SM gets no owner).
// Reserved SMs are skipped. A further rise restarts the scan.
//   exclusive (excl): only kernels of the top priority may issue while one has CTAs left
//                       (Fig. 6a);
//   shared:             lower priorities may use what the top kernels leave free (Fig. 6b).
// Either way cfg_i.sm_exclusive (gsim --sm-sharing exclusive) keeps one kernel per SM
// (gs_excl_elig), as on Tanasic's Kepler.
// Policy contract: docs/adding-a-policy.md (one module, two policies: POL_PPQ_EXCL and
// POL_PPQ_SHARED).
//
// Registered searches (closes 4 ns at 132 SMs):
//   top    -- the top kernel (valid, priority, slot) and the exclusive allow mask, from the
//             tables of the last cycle: pairwise compares, an AND per kernel, gs_ffs;
//   row    -- stage 1 of the scan: SM s_q's resident-kernel bits and reserved flag (one
//             AND-OR over the SMs), registered with the SM's number;
//   req    -- stage 2: the request for the registered row (victim by pairwise compares and
//             gs_ffs; victim_all from this cycle's residency of that SM), driven on out_o.req
//             from the register for one cycle. A request that is
//             not accepted is dropped: gs_preempt_ctrl refuses only an SM already reserved.
// out_o.key is gs_order_keys of the tables; out_o.elig = allow_q AND gs_excl_elig (which
// must see this cycle's residency). Latency: a rise of the tables' top priority in cycle t
// starts the scan in t+1 (top_q), SM i's request is on out_o.req in cycle t+4+i; allow
// follows the tables one cycle late.
// Storage: FSM 1 + 8 b, target 4 b, next 3 b, seen 4 + 1 b; top 1 + 4 + 3 b, allow 8 b;
// row 1 + 8 + 8 + 1 b; request 1 + 8 + 1 + 3 b: 68 b.
module gs_policy_ppq (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::ppq_state_t   state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int PW = gs_pkg::PrioW;

  logic busy_q, busy_d;
  gs_pkg::sm_id_t s_q, s_d;
  gs_pkg::prio_t target_q, target_d, seen_q, seen_d;
  gs_pkg::slot_t next_q, next_d;
  logic seen_valid_q, seen_valid_d;
  logic top_valid_q, top_valid_d;
  gs_pkg::prio_t top_q, top_d;
  gs_pkg::slot_t top_slot_q, top_slot_d;
  gs_pkg::slot_mask_t allow_q, allow_d;
  logic row_valid_q, row_valid_d;
  gs_pkg::sm_id_t row_sm_q, row_sm_d;
  gs_pkg::slot_mask_t row_occ_q, row_occ_d;
  logic row_rsv_q, row_rsv_d;
  logic req_valid_q, req_valid_d;
  gs_pkg::sm_id_t req_sm_q, req_sm_d;
  logic req_all_q, req_all_d;
  gs_pkg::slot_t req_victim_q, req_victim_d;

  // contract views (flat tables, as the rest of the framework reads them)
  logic excl;
  logic [gs_pkg::SmIdW:0] num_sms;
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [K*SW-1:0] rank;
  gs_pkg::slot_mask_t pending;
  logic [N*gs_pkg::SmstW-1:0] smst;
  logic [N*K*CW-1:0] resident;
  assign excl = (policy_i == gs_pkg::POL_PPQ_EXCL);
  assign num_sms = cfg_i.num_sms;
  assign ksrt = view_i.ksrt;
  assign rank = view_i.rank;
  assign pending = view_i.pending;
  assign smst = view_i.smst;
  assign resident = view_i.resident;

  // priority order (NPQ's)
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b1), .ksrt_i(ksrt), .rank_i(rank), .key_o(key));
  // ... and, with cfg_i.sm_exclusive, one kernel per SM (gs_excl_elig)
  logic [N*K-1:0] sole;
  gs_excl_elig u_excl (.en_i(cfg_i.sm_exclusive), .resident_i(resident), .elig_o(sole));

  // per-kernel fields of the KSRT
  gs_pkg::ksrt_entry_t e;
  logic [K*PW-1:0] prio;
  gs_pkg::slot_mask_t kvalid;
  always_comb begin
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      prio[k*PW +: PW] = e.prio;
      kvalid[k] = e.valid;
    end
  end

  // ---- the top kernel (registered): the most important with CTAs to issue, ties: oldest
  // (lowest rank), then lowest slot. is_top[k]: k beats or ties every other pending kernel.
  gs_pkg::slot_mask_t is_top, is_max;
  logic top_found;
  gs_pkg::slot_t top_idx;
  logic [PW-1:0] top_prio;
  always_comb begin
    for (int k = 0; k < K; k++) begin
      is_top[k] = pending[k];
      is_max[k] = pending[k];
      allow_d[k] = 1'b1;
      for (int j = 0; j < K; j++) begin
        if (pending[j] && (prio[j*PW +: PW] > prio[k*PW +: PW] ||
                           (prio[j*PW +: PW] == prio[k*PW +: PW] && rank[j*SW +: SW] < rank[k*SW +: SW])))
          is_top[k] = 1'b0;
        if (pending[j] && prio[j*PW +: PW] > prio[k*PW +: PW]) begin
          is_max[k] = 1'b0;
          allow_d[k] = !excl;   // exclusive: a more important kernel has CTAs to issue
        end
      end
    end
    // the maximum priority: the OR of the priorities of the kernels that have it
    top_prio = '0;
    for (int k = 0; k < K; k++)
      if (is_max[k]) top_prio = top_prio | prio[k*PW +: PW];
  end
  gs_ffs #(.Width(K)) u_top (.req_i(is_top), .data_i('0), .valid_o(top_found), .idx_o(top_idx), .data_o());
  assign top_valid_d = top_found;
  assign top_d = top_prio;
  assign top_slot_d = top_idx;

  // ---- scan stage 1: SM s_q's resident kernels and reserved flag (AND-OR over the SMs)
  gs_pkg::smst_entry_t m;
  gs_pkg::slot_mask_t occ_s;
  logic rsv_s;
  always_comb begin
    occ_s = '0;
    rsv_s = 1'b0;
    for (int s = 0; s < N; s++) begin
      m = smst[s*gs_pkg::SmstW +: gs_pkg::SmstW];
      if (s_q == gs_pkg::SmIdW'(s)) begin
        for (int k = 0; k < K; k++) occ_s[k] = occ_s[k] | (resident[(s*K + k)*CW +: CW] != '0);
        rsv_s = rsv_s | (m.state == gs_pkg::SM_RESERVED);
      end
    end
  end

  // ---- scan stage 2: the registered row's request. low[k]: a resident kernel less important
  // than the target; is_min[k]: the least important of them (ties: lowest slot, by gs_ffs).
  // victim_all is decided on this cycle's residency (high_now): a kernel at least as important
  // as the target may have been given CTAs on the SM since its row was read, and must not be
  // preempted with the rest.
  gs_pkg::slot_mask_t low, is_min, hk;
  logic has_low, high_now;
  gs_pkg::slot_t low_slot;
  always_comb begin
    for (int k = 0; k < K; k++) begin
      low[k] = kvalid[k] && row_occ_q[k] && prio[k*PW +: PW] < target_q;
      hk[k] = kvalid[k] && !(prio[k*PW +: PW] < target_q);
    end
    high_now = 1'b0;
    for (int s = 0; s < N; s++)
      if (row_sm_q == gs_pkg::SmIdW'(s))
        for (int k = 0; k < K; k++) high_now = high_now | (hk[k] && resident[(s*K + k)*CW +: CW] != '0);
    for (int k = 0; k < K; k++) begin
      is_min[k] = low[k];
      for (int j = 0; j < K; j++)
`ifdef GS_MUT_PPQ_VICTIM_MOST
        // (MUTATION GS_MUT_PPQ_VICTIM_MOST: the victim is the most important low kernel)
        if (low[j] && prio[j*PW +: PW] > prio[k*PW +: PW]) is_min[k] = 1'b0;
`else
        if (low[j] && prio[j*PW +: PW] < prio[k*PW +: PW]) is_min[k] = 1'b0;
`endif
    end
    has_low = |low;
  end
  logic min_found;
  gs_ffs #(.Width(K)) u_low (.req_i(is_min), .data_i('0), .valid_o(min_found), .idx_o(low_slot), .data_o());

  // ---- control
  logic start;
  always_comb begin
    start = en_i && top_valid_q && (!seen_valid_q || top_q > seen_q);
    busy_d = busy_q;
    s_d = s_q;
    target_d = target_q;
    seen_d = seen_q;
    next_d = next_q;
    seen_valid_d = seen_valid_q;
    row_valid_d = 1'b0;
    row_sm_d = row_sm_q;
    row_occ_d = row_occ_q;
    row_rsv_d = row_rsv_q;
    req_valid_d = 1'b0;
    req_sm_d = req_sm_q;
    req_all_d = req_all_q;
    req_victim_d = req_victim_q;
    if (!en_i) begin
      busy_d = 1'b0;
      seen_valid_d = 1'b0;
    end else if (start) begin   // a rise: (re)start the scan, drop the stages in flight
      busy_d = 1'b1;
      s_d = '0;
      target_d = top_q;
      next_d = top_slot_q;
      seen_d = top_q;
      seen_valid_d = 1'b1;
    end else begin
      if (!top_valid_q) seen_valid_d = 1'b0;
`ifndef GS_MUT_PPQ_SEEN_STUCK
      // (MUTATION GS_MUT_PPQ_SEEN_STUCK drops this update)
      else if (top_q < seen_q) seen_d = top_q;   // the top kernel left: no preemption needed
`endif
      if (busy_q) begin   // stage 1 takes SM s_q
        row_valid_d = 1'b1;
        row_sm_d = s_q;
        row_occ_d = occ_s;
        row_rsv_d = rsv_s;
        s_d = s_q + 1'b1;
        if ({1'b0, s_q} + 1'b1 >= num_sms) busy_d = 1'b0;
      end
      if (row_valid_q) begin   // stage 2 decides on the registered row
`ifdef GS_MUT_PPQ_RSV_IGNORED
        // (MUTATION GS_MUT_PPQ_RSV_IGNORED: a reserved SM is requested again)
        req_valid_d = has_low;
`else
        req_valid_d = has_low && !row_rsv_q;
`endif
        req_sm_d = row_sm_q;
        req_all_d = !high_now;
        req_victim_d = low_slot;
      end
    end
  end

  // (indexed writes into a local vector, not into a struct member: the Yosys 0.23 subset)
  logic [N*K-1:0] elig;
  always_comb begin
    for (int s = 0; s < N; s++) elig[s*K +: K] = allow_q & sole[s*K +: K];
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
    if (req_valid_q) begin
      out_o.req.valid = 1'b1;
      out_o.req.sm = req_sm_q;
      out_o.req.victim_all = req_all_q;
      out_o.req.victim = req_victim_q;
      out_o.req.next_valid = 1'b1;
      out_o.req.next = next_q;
      out_o.req.assign_next = 1'b0;
    end
  end

  always_comb begin
    state_o = '0;
    state_o.busy = busy_q;
    state_o.s = s_q;
    state_o.target = target_q;
    state_o.seen = seen_q;
    state_o.next = next_q;
    state_o.seen_valid = seen_valid_q;
    state_o.top_valid = top_valid_q;
    state_o.top = top_q;
    state_o.top_slot = top_slot_q;
    state_o.allow = allow_q;
    state_o.row_valid = row_valid_q;
    state_o.row_sm = row_sm_q;
    state_o.row_occ = row_occ_q;
    state_o.row_rsv = row_rsv_q;
    state_o.req_valid = req_valid_q;
    state_o.req_sm = req_sm_q;
    state_o.req_all = req_all_q;
    state_o.req_victim = req_victim_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      s_q <= '0;
      target_q <= '0;
      seen_q <= '0;
      next_q <= '0;
      seen_valid_q <= 1'b0;
      top_valid_q <= 1'b0;
      top_q <= '0;
      top_slot_q <= '0;
      allow_q <= '1;
      row_valid_q <= 1'b0;
      row_sm_q <= '0;
      row_occ_q <= '0;
      row_rsv_q <= 1'b0;
      req_valid_q <= 1'b0;
      req_sm_q <= '0;
      req_all_q <= 1'b0;
      req_victim_q <= '0;
    end else begin
      busy_q <= busy_d;
      s_q <= s_d;
      target_q <= target_d;
      seen_q <= seen_d;
      next_q <= next_d;
      seen_valid_q <= seen_valid_d;
      top_valid_q <= top_valid_d;
      top_q <= top_d;
      top_slot_q <= top_slot_d;
      allow_q <= allow_d;
      row_valid_q <= row_valid_d;
      row_sm_q <= row_sm_d;
      row_occ_q <= row_occ_d;
      row_rsv_q <= row_rsv_d;
      req_valid_q <= req_valid_d;
      req_sm_q <= req_sm_d;
      req_all_q <= req_all_d;
      req_victim_q <= req_victim_d;
    end
  end
endmodule
