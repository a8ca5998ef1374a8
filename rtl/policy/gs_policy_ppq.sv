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
// POL_PPQ_SHARED). Storage: FSM 1 + 8 b, target priority 4 b + slot 3 b, last seen priority 4 + 1 b.
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

  logic busy_q, busy_d;
  gs_pkg::sm_id_t s_q, s_d;
  gs_pkg::prio_t target_q, target_d, seen_q, seen_d;
  gs_pkg::slot_t next_q, next_d;
  logic seen_valid_q, seen_valid_d;

  gs_pkg::ksrt_entry_t e;
  gs_pkg::smst_entry_t m;
  logic top_valid, start, has_low, has_high;
  gs_pkg::prio_t top, low_prio;
  gs_pkg::slot_t top_slot, low_slot;
  gs_pkg::slot_t top_rank;
  logic [K*CW-1:0] res_row;

  // contract views (flat tables, as the rest of the framework reads them)
  logic excl;
  logic [gs_pkg::SmIdW:0] num_sms;
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [K*SW-1:0] rank;
  gs_pkg::slot_mask_t pending;
  logic [N*gs_pkg::SmstW-1:0] smst;
  logic [N*K*CW-1:0] resident;
  gs_pkg::slot_mask_t allow;
  gs_pkg::preempt_req_t req;
  assign excl = (policy_i == gs_pkg::POL_PPQ_EXCL);
  assign num_sms = cfg_i.num_sms;
  assign ksrt = view_i.ksrt;
  assign rank = view_i.rank;
  assign pending = view_i.pending;
  assign smst = view_i.smst;
  assign resident = view_i.resident;

  // priority order (NPQ's); exclusive mode allows only the top priority while it has work
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b1), .ksrt_i(ksrt), .rank_i(rank), .key_o(key));
  // ... and, with cfg_i.sm_exclusive, one kernel per SM (gs_excl_elig)
  logic [N*K-1:0] sole;
  gs_excl_elig u_excl (.en_i(cfg_i.sm_exclusive), .resident_i(resident), .elig_o(sole));
  // (indexed writes into a local vector, not into a struct member: the Yosys 0.23 subset)
  logic [N*K-1:0] elig;
  always_comb begin
    for (int s = 0; s < N; s++) elig[s*K +: K] = allow & sole[s*K +: K];
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
    out_o.req = req;
  end

  always_comb begin
    // the most important kernel with CTAs to issue (ties: oldest)
    top_valid = 1'b0;
    top = '0;
    top_slot = '0;
    top_rank = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (pending[k] && (!top_valid || e.prio > top ||
                           (e.prio == top && rank[k*SW +: SW] < top_rank))) begin
        top_valid = 1'b1;
        top = e.prio;
        top_slot = SW'(k);
        top_rank = rank[k*SW +: SW];
      end
    end
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      allow[k] = !excl || !top_valid || (e.prio >= top);
    end

    // SM s_q under scan: its entry and resident-CTA row (one mux, then K compares)
    m = '0;
    res_row = '0;
    for (int s = 0; s < N; s++) begin
      if (s_q == gs_pkg::SmIdW'(s)) begin
        m = smst[s*gs_pkg::SmstW +: gs_pkg::SmstW];
        res_row = resident[s*K*CW +: K*CW];
      end
    end
    // lower-priority residents?
    has_low = 1'b0;
    has_high = 1'b0;
    low_prio = '0;
    low_slot = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (e.valid && res_row[k*CW +: CW] != '0) begin
        if (e.prio < target_q) begin
          if (!has_low || e.prio < low_prio) begin
            low_prio = e.prio;
            low_slot = SW'(k);
          end
          has_low = 1'b1;
        end else begin
          has_high = 1'b1;
        end
      end
    end

    start = en_i && top_valid && (!seen_valid_q || top > seen_q);
    req = '0;
    if (en_i && !start && busy_q && has_low && m.state != gs_pkg::SM_RESERVED) begin
      req.valid = 1'b1;
      req.sm = s_q;
      req.victim_all = !has_high;
      req.victim = low_slot;
      req.next_valid = 1'b1;
      req.next = next_q;
      req.assign_next = 1'b0;
    end
  end

  // next state (the only part that sees the acceptance of the request)
  always_comb begin
    busy_d = busy_q;
    s_d = s_q;
    target_d = target_q;
    seen_d = seen_q;
    next_d = next_q;
    seen_valid_d = seen_valid_q;
    if (!en_i) begin
      busy_d = 1'b0;
      seen_valid_d = 1'b0;
    end else if (start) begin
      busy_d = 1'b1;
      s_d = '0;
      target_d = top;
      next_d = top_slot;
      seen_d = top;
      seen_valid_d = 1'b1;
    end else begin
      if (!top_valid) seen_valid_d = 1'b0;
`ifndef GS_MUT_PPQ_SEEN_STUCK
      // (MUTATION GS_MUT_PPQ_SEEN_STUCK drops this update)
      else if (top < seen_q) seen_d = top;   // the top kernel left: no preemption needed
`endif
      if (busy_q) begin
        if (!req.valid || accept_i) begin
          s_d = s_q + 1'b1;
          if ({1'b0, s_q} + 1'b1 >= num_sms) busy_d = 1'b0;
        end
      end
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
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      s_q <= '0;
      target_q <= '0;
      seen_q <= '0;
      next_q <= '0;
      seen_valid_q <= 1'b0;
    end else begin
      busy_q <= busy_d;
      s_q <= s_d;
      target_q <= target_d;
      seen_q <= seen_d;
      next_q <= next_d;
      seen_valid_q <= seen_valid_d;
    end
  end
endmodule
