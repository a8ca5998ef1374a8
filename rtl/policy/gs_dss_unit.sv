// gs_dss_unit: the Dynamic Spatial Sharing unit (Tanasic Sec. 3.4, Algorithm 1).
// Contract and timing: docs/rtl/dss.md
//
// The decision core of gs_policy_dss (which adapts it to the policy contract). Tokens (KSRT,
// signed) are a kernel's SM budget; on an event (trigger_i) the unit scans the SMST one SM per
// cycle, then one ACT cycle releases an SM, assigns an idle one, or reserves and preempts one
// (req_o; the token pair on tok_o only when accepted); it sleeps when a pass changed nothing.
// The pass, the deviations from Algorithm 1 as printed and why: docs/rtl/dss.md.
// Latency: num_sms + 1 cycles per pass. Storage (MaxSms 132): DssStateW = 101 b (state_o).
// Golden twin: cmodel/sched/golden/gs_dss_unit.hpp.
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

  localparam logic [1:0] StIdle = 2'd0;
  localparam logic [1:0] StScan = 2'd1;
  localparam logic [1:0] StAct = 2'd2;

  logic [1:0] st_q, st_d;
  gs_pkg::sm_id_t s_q, s_d;
  logic dirty_q, dirty_d;
  logic idle_found_q, idle_found_d, rel_found_q, rel_found_d;
  gs_pkg::sm_id_t idle_sm_q, idle_sm_d, rel_sm_q, rel_sm_d;
  gs_pkg::slot_mask_t own_found_q, own_found_d;
  logic [K*IW-1:0] own_sm_q, own_sm_d;

  gs_pkg::ksrt_entry_t e;
  gs_pkg::smst_entry_t m, mi, mr, mp;
  logic kmax_valid, kmin_valid, changed, releasable, rel_ok;
  gs_pkg::token_upd_t tok_pre;
  gs_pkg::slot_t kmax, kmin, rmax, rmin;
  logic signed [TW:0] tmax, tmin, t;
  gs_pkg::sm_id_t pre_sm;

  // releasable: owned, not reserved, owner has nothing to issue and no CTA on the SM
  function automatic logic can_release(input logic reserved, input logic owner_valid,
                                       input gs_pkg::slot_t owner, input gs_pkg::slot_mask_t pend,
                                       input logic [K*CW-1:0] res_row);
    can_release = 1'b0;
    for (int k = 0; k < K; k++) begin
      if (!reserved && owner_valid && owner == SW'(k) && !pend[k] && res_row[k*CW +: CW] == '0)
        can_release = 1'b1;
    end
  endfunction

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
    owner_wr_o = '0;
    tok_pre = '0;
    req_o = '0;
    changed = 1'b0;

    // kmax / kmin over the KSRT (parallel search). Only ACT reads them, and only SCAN / ACT
    // read the SMST selections below: in other states they are left at 0 (same outputs; a
    // Verilated model then skips the searches while the unit sleeps).
    kmax_valid = 1'b0; kmax = '0; tmax = '0; rmax = '0;
    kmin_valid = 1'b0; kmin = '0; tmin = '0; rmin = '0;
    t = '0;
    e = '0;
    if (st_q == StAct) for (int k = 0; k < K; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      t = {e.tokens[TW-1], e.tokens};
      if (pending_i[k] && (!kmax_valid || t > tmax || (t == tmax && rank_i[k*SW +: SW] < rmax))) begin
        kmax_valid = 1'b1; kmax = SW'(k); tmax = t; rmax = rank_i[k*SW +: SW];
      end
      if (e.valid && own_found_q[k] && (!kmin_valid || t < tmin || (t == tmin && rank_i[k*SW +: SW] > rmin))) begin
        kmin_valid = 1'b1; kmin = SW'(k); tmin = t; rmin = rank_i[k*SW +: SW];
      end
    end

    // SMST entries the FSM looks at: the scanned SM, and the three candidates of ACT
    m = '0; mi = '0; mr = '0; mp = '0;
    pre_sm = '0;
    for (int k = 0; k < K; k++) begin
      if (kmin == SW'(k)) pre_sm = own_sm_q[k*IW +: IW];
    end
    releasable = 1'b0;
    rel_ok = 1'b0;
    if (st_q != StIdle) for (int s = 0; s < N; s++) begin
      if (s_q == gs_pkg::SmIdW'(s)) begin
        m = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
        releasable = can_release(m.state == gs_pkg::SM_RESERVED, m.owner_valid, m.owner, pending_i, resident_i[s*K*CW +: K*CW]);
      end
      if (idle_sm_q == gs_pkg::SmIdW'(s)) mi = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
      if (rel_sm_q == gs_pkg::SmIdW'(s)) begin
        mr = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
        rel_ok = can_release(mr.state == gs_pkg::SM_RESERVED, mr.owner_valid, mr.owner, pending_i, resident_i[s*K*CW +: K*CW]);
      end
      if (pre_sm == gs_pkg::SmIdW'(s)) mp = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
    end

    unique case (st_q)
      StIdle: begin
        if (en_i && dirty_d) begin
          st_d = StScan;
          s_d = '0;
          dirty_d = 1'b0;
          idle_found_d = 1'b0;
          rel_found_d = 1'b0;
          own_found_d = '0;
        end
      end
      StScan: begin
        if (m.state != gs_pkg::SM_RESERVED) begin
          if (m.owner_valid) begin
            for (int k = 0; k < K; k++) begin
              if (m.owner == SW'(k)) begin
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
        if ({1'b0, s_q} + 1'b1 >= cfg_num_sms_i) st_d = StAct;
      end
      StAct: begin
        if (rel_found_q) begin
          changed = 1'b1;   // re-scan even if the SM changed meanwhile
          if (rel_ok) begin
            owner_wr_o.valid = 1'b1;
            owner_wr_o.sm = rel_sm_q;
            owner_wr_o.owner_valid = 1'b0;
            tok_pre.inc_valid = 1'b1;
            tok_pre.inc = mr.owner;
          end
        end else if (idle_found_q && kmax_valid) begin
          changed = 1'b1;
          if (mi.state != gs_pkg::SM_RESERVED && !mi.owner_valid) begin
            owner_wr_o.valid = 1'b1;
            owner_wr_o.sm = idle_sm_q;
            owner_wr_o.owner_valid = 1'b1;
            owner_wr_o.owner = kmax;
            tok_pre.dec_valid = 1'b1;
            tok_pre.dec = kmax;
          end
`ifdef GS_MUT_TOKEN_OFF_BY_ONE
        // MUTATION: steady-state test off by one (tokens may differ by one -> ping-pong)
        end else if (kmax_valid && kmin_valid && tmax > tmin) begin
`else
        end else if (kmax_valid && kmin_valid && tmax > tmin + 1) begin
`endif
          changed = 1'b1;
          if (mp.state != gs_pkg::SM_RESERVED && mp.owner_valid && mp.owner == kmin) begin
            req_o.valid = 1'b1;
            req_o.sm = pre_sm;
            req_o.victim_all = 1'b0;
            req_o.victim = kmin;
            req_o.next_valid = 1'b1;
            req_o.next = kmax;
            req_o.assign_next = 1'b1;
            // tokens move only if the preemption is accepted (see below)
            tok_pre.inc_valid = 1'b1;
            tok_pre.inc = kmin;
            tok_pre.dec_valid = 1'b1;
            tok_pre.dec = kmax;
          end
        end
        if (changed || dirty_d) begin
          st_d = StScan;
          s_d = '0;
          dirty_d = 1'b0;
          idle_found_d = 1'b0;
          rel_found_d = 1'b0;
          own_found_d = '0;
        end else begin
          st_d = StIdle;
        end
      end
      default: st_d = StIdle;
    endcase
    if (!en_i) st_d = StIdle;
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
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= StIdle;
      s_q <= '0;
      dirty_q <= 1'b0;
      idle_found_q <= 1'b0;
      idle_sm_q <= '0;
      rel_found_q <= 1'b0;
      rel_sm_q <= '0;
      own_found_q <= '0;
      own_sm_q <= '0;
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
    end
  end
endmodule
