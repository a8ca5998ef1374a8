// gs_policy_even: Even intra-SM partitioning (Warped-Slicer Sec. III, Fig. 2c).
// Contract and timing: docs/rtl/gs_policy_even.md
//
// Each of the K kernels with CTAs left to issue gets 1/K of every SM resource, expressed as a
// per-SM per-kernel CTA quota that the framework's quota table (gs_quota_table) holds and
// the SM driver enforces:
//   quota[s][k] = max(1, min(floor(cap_r[s] / (K * per_cta_r[k])) over r in
//                 {threads, warps, regs, shmem} (a resource a CTA does not use does not
//                 limit), floor(cta_slots[s] / K), MaxCtasPerSm))
// (floor(floor(c / K) / p) = floor(c / (K p)) for positive integers: the paper's share of 1/K,
// then whole CTAs; the floor of 1 keeps a kernel whose CTA exceeds its share from starving).
// When the set of such kernels changes, gs_repartition_scan walks the (SM, slot) pairs and
// writes one quota per cycle into the quota table (registered: a step's write is on out_o the
// cycle after). The quotas depend on the SM only through
// its capacities, so a small sequential unit computes the K quotas once for the capacities of
// the first SM and again only where the next SM's capacities differ (an SM type boundary:
// sm_types are contiguous), holding the scan meanwhile: per target kernel and resource one
// product K x use (gs_seq_mul, SlotW + 1 cycles) and one division (gs_seq_div, a quotient of
// CtaCntW bits, saturating), then the minimum. The next SM's capacities are read one scan
// step ahead into a register (capsel), so the N:1 read and the compare are in separate cycles.
// Timing and the latency formula: docs/rtl/gs_policy_even.md. Requires MaxKernels >= 2 (the
// read ahead needs two steps per SM).
// Policy contract: docs/adding-a-policy.md. Storage: even_state_t (gs_spec.toml); the quotas
// the SM driver enforces live in gs_quota_table.
module gs_policy_even (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::even_state_t   state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int AW = gs_pkg::EvenCapW;
  localparam int DW = gs_pkg::EvenDenW;
  localparam int KCW = gs_pkg::SlotW + 1;   // holds 0..MaxKernels

  // quota unit FSM

  // ---- the scan, held while the quota unit runs
  logic step, start, hold;
  gs_pkg::sm_id_t scan_sm;
  gs_pkg::slot_t scan_slot;
  gs_pkg::slot_mask_t target;
  logic [KCW-1:0] nk;
  gs_pkg::scan_state_t scan_state;
  gs_repartition_scan #(.Inner(K)) u_scan (
    .clk_i, .rst_ni, .en_i, .cfg_num_sms_i(cfg_i.num_sms), .pending_i(view_i.pending), .hold_i(hold),
    .start_o(start), .step_o(step), .sm_o(scan_sm), .inner_o(scan_slot), .target_o(target), .nk_o(nk),
    .state_o(scan_state)
  );

  // ---- registers
  gs_pkg::even_st_e st_q, st_d;
  gs_pkg::sm_id_t pf_q, pf_d;
  gs_pkg::sm_caps_t capsel_q, capsel_d, cap_q, cap_d;
  gs_pkg::slot_t j_q, j_d;
  logic [1:0] r_q, r_d;
  gs_pkg::cta_cnt_t qcta_q, qcta_d, qmin_q, qmin_d;
  logic [K*CW-1:0] quota_q, quota_d;
  gs_pkg::quota_wr_t wr_q, wr_d;   // the write of the last step (out_o from a register)

  // ---- the one multiplier and the one divider
  logic mul_start, mul_busy, div_start, div_busy;
  logic [AW-1:0] mul_a, div_num;
  logic [DW-1:0] mul_prod, div_den;
  gs_pkg::cta_cnt_t div_quo;
  gs_pkg::even_mul_state_t mul_state;
  gs_pkg::even_div_state_t div_state;
  gs_seq_mul #(.AW(AW), .BW(KCW)) u_mul (
    .clk_i, .rst_ni, .start_i(mul_start), .a_i(mul_a), .b_i(nk), .busy_o(mul_busy), .prod_o(mul_prod),
    .state_o(mul_state)
  );
  gs_seq_div #(.NumW(AW), .DenW(DW), .QuoW(CW)) u_div (
    .clk_i, .rst_ni, .start_i(div_start), .num_i(div_num), .den_i(div_den), .busy_o(div_busy),
    .quo_o(div_quo), .state_o(div_state)
  );

  // ---- SM pf's capacities: its type's (the SM's type read, then the type's entry; registered
  // into capsel); none for an SM outside the GPU (pf = num_sms at a scan's end)
  localparam int NT = gs_pkg::MaxSmTypes;
  localparam int TyW = gs_pkg::SmTypeW;
  logic [NT*gs_pkg::ThreadW-1:0] type_threads;
  logic [NT*gs_pkg::WarpW-1:0] type_warps;
  logic [NT*gs_pkg::RegW-1:0] type_regs;
  logic [NT*gs_pkg::ShmemW-1:0] type_shmem;
  logic [NT*CW-1:0] type_ctas;
  logic [N*TyW-1:0] sm_type;
  logic [TyW-1:0] pf_type;
  assign type_threads = cfg_i.type_threads;
  assign type_warps = cfg_i.type_warps;
  assign type_regs = cfg_i.type_regs;
  assign type_shmem = cfg_i.type_shmem;
  assign type_ctas = cfg_i.type_ctas;
  assign sm_type = cfg_i.sm_type;
  always_comb begin
    pf_type = '0;
    for (int s = 0; s < N; s++) if (pf_q == gs_pkg::SmIdW'(s)) pf_type = sm_type[s*TyW +: TyW];
    capsel_d = '0;
    for (int t = 0; t < NT; t++) begin
      if (pf_type == TyW'(t) && (gs_pkg::SmIdW+1)'(pf_q) < cfg_i.num_sms) begin
        capsel_d.threads = type_threads[t*gs_pkg::ThreadW +: gs_pkg::ThreadW];
        capsel_d.warps = type_warps[t*gs_pkg::WarpW +: gs_pkg::WarpW];
        capsel_d.regs = type_regs[t*gs_pkg::RegW +: gs_pkg::RegW];
        capsel_d.shmem = type_shmem[t*gs_pkg::ShmemW +: gs_pkg::ShmemW];
        capsel_d.ctas = type_ctas[t*CW +: CW];
      end
    end
  end

  // ---- slot j's use of resource r, and cap's amount of it
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  gs_pkg::ksrt_entry_t e;
  logic [AW-1:0] use_r, cap_r;
  assign ksrt = view_i.ksrt;
  always_comb begin
    e = '0;
    for (int k = 0; k < K; k++) begin
      if (j_q == gs_pkg::SlotW'(k)) e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    end
    case (r_q)
      2'd0: begin use_r = AW'(e.threads); cap_r = AW'(cap_q.threads); end
      2'd1: begin use_r = AW'(e.warps); cap_r = AW'(cap_q.warps); end
      2'd2: begin use_r = AW'(e.regs); cap_r = AW'(cap_q.regs); end
      default: begin use_r = AW'(e.shmem); cap_r = AW'(cap_q.shmem); end
    endcase
  end

  // ---- the quota unit
  logic last_step, next_sm, differs, skip, res_done, slot_done;
  gs_pkg::cta_cnt_t qv, qmin_div;
  always_comb begin
    st_d = st_q;
    pf_d = pf_q;
    cap_d = cap_q;
    j_d = j_q;
    r_d = r_q;
    qcta_d = qcta_q;
    qmin_d = qmin_q;
    quota_d = quota_q;
    mul_start = 1'b0;
    mul_a = use_r;
    div_start = 1'b0;
    div_num = cap_r;
    div_den = mul_prod;
    skip = 1'b0;
    res_done = 1'b0;
    slot_done = 1'b0;
    qv = qmin_q;

    hold = st_q != gs_pkg::EVEN_IDLE;
    // the scan's step at the last slot of an SM, in the branch below where it is neither
    // restarting nor held (from registers only: the start test reads pending_i)
    last_step = scan_state.busy && scan_slot == gs_pkg::SlotW'(K - 1);
    next_sm = {1'b0, scan_sm} + 1'b1 < cfg_i.num_sms;
`ifdef GS_MUT_EVEN_NO_RECALC
    differs = 1'b0;   // MUTATION: every SM gets the first SM's quotas
`else
    differs = capsel_q != cap_q;
`endif
    qmin_div = div_quo < qmin_q ? div_quo : qmin_q;

    if (!en_i) begin
      st_d = gs_pkg::EVEN_IDLE;
    end else if (start) begin
      st_d = gs_pkg::EVEN_LOAD;
      pf_d = '0;
    end else begin
      case (st_q)
        gs_pkg::EVEN_IDLE: begin
          // the scan leaves an SM: the next one's capacities (capsel) decide
          if (last_step) begin
            if (next_sm && differs) st_d = gs_pkg::EVEN_START;
            else pf_d = pf_q + 1'b1;
          end
        end
        gs_pkg::EVEN_LOAD: st_d = gs_pkg::EVEN_START;
        gs_pkg::EVEN_START: begin
          cap_d = capsel_q;
          pf_d = pf_q + 1'b1;
          div_start = 1'b1;
          div_num = AW'(capsel_q.ctas);
          div_den = DW'(nk);
          j_d = '0;
          st_d = gs_pkg::EVEN_CTA;
        end
        gs_pkg::EVEN_CTA: begin
          if (!div_busy) begin
`ifdef GS_MUT_EVEN_CTA_TERM
            qcta_d = CW'(gs_pkg::MaxCtasPerSm);   // MUTATION: the CTA slots do not limit
`else
            qcta_d = div_quo < CW'(gs_pkg::MaxCtasPerSm) ? div_quo : CW'(gs_pkg::MaxCtasPerSm);
`endif
            qmin_d = qcta_d;
            r_d = '0;
            st_d = gs_pkg::EVEN_RES;
          end
        end
        gs_pkg::EVEN_RES: begin
          if (!target[j_q]) begin
            skip = 1'b1;       // not in the set: no quota (none is written for it)
          end else if (use_r == '0) begin
            res_done = 1'b1;   // the CTA does not use it: no limit
          end else begin
            mul_start = 1'b1;
            st_d = gs_pkg::EVEN_MUL;
          end
        end
        gs_pkg::EVEN_MUL: begin
          if (!mul_busy) begin
            div_start = 1'b1;
            st_d = gs_pkg::EVEN_DIV;
          end
        end
        gs_pkg::EVEN_DIV: begin
          if (!div_busy) begin
            res_done = 1'b1;
            qv = qmin_div;
          end
        end
        default: st_d = gs_pkg::EVEN_IDLE;
      endcase

      // a resource is done: the next one, or the slot's quota and the next slot
      slot_done = skip || res_done && r_q == 2'd3;
      if (res_done && !slot_done) begin
        r_d = r_q + 1'b1;
        qmin_d = qv;
        st_d = gs_pkg::EVEN_RES;
      end
      if (res_done && slot_done) begin
`ifdef GS_MUT_EVEN_FLOOR0
        quota_d[j_q*CW +: CW] = qv;   // MUTATION: no floor of 1
`else
        quota_d[j_q*CW +: CW] = qv == '0 ? CW'(1) : qv;
`endif
      end
      if (slot_done) begin
        r_d = '0;
        qmin_d = qcta_q;
        if (j_q == gs_pkg::SlotW'(K - 1)) begin
          st_d = gs_pkg::EVEN_IDLE;
        end else begin
          j_d = j_q + 1'b1;
          st_d = gs_pkg::EVEN_RES;
        end
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      st_q <= gs_pkg::EVEN_IDLE;
      pf_q <= '0;
      capsel_q <= '0;
      cap_q <= '0;
      j_q <= '0;
      r_q <= '0;
      qcta_q <= '0;
      qmin_q <= '0;
      quota_q <= '0;
      wr_q <= '0;
    end else begin
      st_q <= st_d;
      pf_q <= pf_d;
      capsel_q <= capsel_d;
      cap_q <= cap_d;
      j_q <= j_d;
      r_q <= r_d;
      qcta_q <= qcta_d;
      qmin_q <= qmin_d;
      quota_q <= quota_d;
      wr_q <= wr_d;
    end
  end

  // FIFO order among kernels (as left-over)
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(ksrt), .rank_i(view_i.rank), .key_o(key));

  // a step of a kernel in the set writes its pair the cycle after (registered: the step
  // depends on pending_i through the scan's start test)
  always_comb begin
    wr_d = '0;
    if (step && target[scan_slot]) begin
      wr_d.valid = 1'b1;
      wr_d.sm = scan_sm;
      wr_d.slot = scan_slot;
      wr_d.max_ctas = quota_q[scan_slot*CW +: CW];
    end
  end

  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = '1;           // every kernel may issue anywhere, within its quota
    out_o.quota_en = 1'b1;
    out_o.quota_wr = wr_q;
  end

  always_comb begin
    state_o = '0;
    state_o.scan = scan_state;
    state_o.st = st_q;
    state_o.pf = pf_q;
    state_o.capsel = capsel_q;
    state_o.cap = cap_q;
    state_o.j = j_q;
    state_o.r = r_q;
    state_o.qcta = qcta_q;
    state_o.qmin = qmin_q;
    state_o.quota = quota_q;
    state_o.wr = wr_q;
    state_o.mul = mul_state;
    state_o.div = div_state;
  end
endmodule
