// gs_preempt_ctrl: preemption control (Tanasic Sec. 3.2).
// Contract and timing: docs/rtl/gs_preempt_ctrl.md
//
// Turns a policy's preemption request (SM, victim slot or all, next slot) into
//   * the SMST reservation (the SM driver stops issuing to a reserved SM),
//   * the registered preempt command of the decision port (kernel ids, mechanism),
// and handles the SM events of a preemption:
//   * kCtaSaved   -- the saved CTA's handle is pushed into its kernel's PTBQ (its storage is
//                    freed in the SMST by gs_top, as for a finished CTA);
//   * kPreemptDone -- the SM leaves `reserved` (SMST unreserve; owner := next if requested).
// Mechanism: the request's (req_i.mode_sel: HeteroCore's adaptive preemption) or the configured
// one (drain or context switch). A context switch saves at most the
// SM's resident CTAs; it is started only when every PTBQ can take them on top of the CTAs
// already promised to switches in flight (save credit); otherwise the SM is drained instead,
// so a PTBQ never overflows. A request for an SM that is already reserved is ignored
// (accept_o low); policies only request non-reserved SMs.
// Timing: request in cycle t -> SMST reserved and preempt_o valid in cycle t+1; the decision
// uses cycle t's PTBQ counts and save credit. Closes 4 ns at 132 SMs: the credit is held as
// registered PTBQ room (room_q, rel_q, ctas_q below), the room test runs per PTBQ in parallel,
// a switch's credited row is written the cycle after, per-SM reads are two-level AND-ORs.
// Storage (MaxSms 132): preempt record (26 b) + room_q (9 b) + rel_q, ctas_q (6 b each)
// + per SM credited CTAs (132 x 6 b).
module gs_preempt_ctrl (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  gs_pkg::preempt_mode_e cfg_preempt_mode_i,
  input  gs_pkg::preempt_req_t  req_i,
  output logic                  accept_o,
  input  logic [gs_pkg::MaxSms*gs_pkg::SmstW-1:0]        smst_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0]    ksrt_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::PtbqCntW-1:0] ptbq_count_i,
  input  logic                  ev_saved_i,       // kCtaSaved of a known kernel
  input  logic                  ev_done_i,        // kPreemptDone
  input  gs_pkg::sm_id_t        ev_sm_i,
  input  gs_pkg::slot_t         ev_slot_i,
  input  gs_pkg::cta_id_t       ev_cta_i,
  output logic                  reserve_valid_o,
  output gs_pkg::sm_id_t        reserve_sm_o,
  output logic                  reserve_next_valid_o,
  output gs_pkg::slot_t         reserve_next_o,
  output logic                  unreserve_valid_o,
  output gs_pkg::sm_id_t        unreserve_sm_o,
  output logic                  ptbq_push_valid_o,
  output gs_pkg::slot_t         ptbq_push_slot_o,
  output gs_pkg::cta_id_t       ptbq_push_cta_o,
  output gs_pkg::preempt_t      preempt_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int PW = gs_pkg::PtbqCntW;

  // Registers (docs/rtl/gs_preempt_ctrl.md, Timing). The save credit is held as PTBQ room,
  // room = PtbqDepth - credit, split so that no input-to-flop path adds:
  //   preempt_q  -- the port record; its mode says whether the last cycle's request switched
  //   ctas_q     -- that request's resident CTAs (0 when none was accepted)
  //   rel_q      -- the CTAs the last cycle's kPreemptDone released (0 when none)
  //   room_q     -- the last cycle's room; this cycle's is
  //                 room_q + rel_q - (the last cycle's request switched ? ctas_q : 0)
  //   credited_q -- per SM, the CTAs credited to its switch; a switch's row is written the cycle
  //                 after its request (from preempt_q, ctas_q), so a kPreemptDone of that SM in
  //                 that cycle releases ctas_q (forwarded) instead of the row
  gs_pkg::preempt_t preempt_q, preempt_d;
  gs_pkg::cta_cnt_t ctas_q, ctas_d;
  gs_pkg::cta_cnt_t rel_q, rel_d;
  logic [PW-1:0] room_q, room_d;
  logic [N*CW-1:0] credited_q, credited_d;

  gs_pkg::smst_entry_t m;
  gs_pkg::ksrt_entry_t e;
  logic [PW-1:0] room;        // this cycle's room: PtbqDepth - save credit
  logic last_switch;          // the last cycle's accepted request was switched
  logic [K-1:0] fits;         // PTBQ k takes the requested SM's CTAs on top of the promised ones
  logic switch_ok;
  gs_pkg::preempt_mode_e mode;
  gs_pkg::cta_cnt_t released;
  logic pend_hit;             // kPreemptDone of the SM whose switch row is written this cycle

  // The requested SM, the event's SM and the last switch's SM, one-hot, each decoded in two
  // halves (the SM id's low LoW bits and the rest): a row is read by an AND-OR over the NL
  // rows of each group, then over the NG groups, so an id bit drives NL or NG gates, not N.
  localparam int LoW = 4;
  localparam int NL = 1 << LoW;
  localparam int NG = (N + NL - 1) / NL;
  localparam int HiW = gs_pkg::SmIdW - LoW;
  logic [NL-1:0] req_lo, ev_lo;
  logic [NG-1:0] req_hi, ev_hi;
  logic [N-1:0] ev_oh, last_oh;
  for (genvar l = 0; l < NL; l++) begin : g_lo
    assign req_lo[l] = req_i.sm[LoW-1:0] == LoW'(l);
    assign ev_lo[l] = ev_sm_i[LoW-1:0] == LoW'(l);
  end
  for (genvar g = 0; g < NG; g++) begin : g_hi
    assign req_hi[g] = req_i.sm[gs_pkg::SmIdW-1:LoW] == HiW'(g);
    assign ev_hi[g] = ev_sm_i[gs_pkg::SmIdW-1:LoW] == HiW'(g);
  end
  for (genvar s = 0; s < N; s++) begin : g_sm_oh
    assign ev_oh[s] = ev_hi[s / NL] && ev_lo[s % NL];
    assign last_oh[s] = preempt_q.sm == gs_pkg::SmIdW'(s);
  end

  // the requested SM's SMST entry and the event SM's credited CTAs (two-level AND-OR reads)
  logic [NG*gs_pkg::SmstW-1:0] m_grp;
  logic [NG*CW-1:0] cr_grp;
  for (genvar g = 0; g < NG; g++) begin : g_grp
    always_comb begin
      m_grp[g*gs_pkg::SmstW +: gs_pkg::SmstW] = '0;
      cr_grp[g*CW +: CW] = '0;
      for (int l = 0; l < NL; l++) begin
        if (g*NL + l < N) begin
          m_grp[g*gs_pkg::SmstW +: gs_pkg::SmstW] = m_grp[g*gs_pkg::SmstW +: gs_pkg::SmstW]
              | ({gs_pkg::SmstW{req_lo[l]}} & smst_i[(g*NL + l)*gs_pkg::SmstW +: gs_pkg::SmstW]);
          cr_grp[g*CW +: CW] = cr_grp[g*CW +: CW] | ({CW{ev_lo[l]}} & credited_q[(g*NL + l)*CW +: CW]);
        end
      end
    end
  end
  gs_pkg::cta_cnt_t cr_ev;    // the event SM's row of credited_q
  always_comb begin
    m = '0;
    cr_ev = '0;
    for (int g = 0; g < NG; g++) begin
      m = m | ({gs_pkg::SmstW{req_hi[g]}} & m_grp[g*gs_pkg::SmstW +: gs_pkg::SmstW]);
      cr_ev = cr_ev | ({CW{ev_hi[g]}} & cr_grp[g*CW +: CW]);
    end
  end

  // acceptance: the requested SM's reserved bit, read the other way round (over the groups by
  // the id's high part first, then by its low bits), so the low decode's fan-out into the CTA
  // count read above is not on this port-to-port path; keep: abc maps the two levels apart
  logic [N-1:0] rsv;
  (* keep *) logic [NL-1:0] rsv_col;
  gs_pkg::smst_entry_t rs;
  always_comb begin
    for (int s = 0; s < N; s++) begin
      rs = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
      rsv[s] = rs.state == gs_pkg::SM_RESERVED;
    end
    rsv_col = '0;
    for (int l = 0; l < NL; l++)
      for (int g = 0; g < NG; g++)
        if (g*NL + l < N) rsv_col[l] = rsv_col[l] | (req_hi[g] && rsv[g*NL + l]);
    accept_o = req_i.valid && !(|(req_lo & rsv_col));
  end

  // this cycle's room, from registers only
  assign last_switch = preempt_q.valid && (preempt_q.mode == gs_pkg::PREEMPT_SWITCH);
`ifdef GS_MUT_PCTRL_NO_CREDIT
  // MUTATION: the room test forgets the save credit (CTAs of switches in flight), so
  // concurrent switches may promise a PTBQ more entries than it has
  assign room = PW'(gs_pkg::PtbqDepth);
`else
  assign room = room_q + {{(PW-CW){1'b0}}, rel_q} - (last_switch ? {{(PW-CW){1'b0}}, ctas_q} : '0);
`endif

  // the room test, per PTBQ in parallel: count_k + ctas <= room, i.e. ctas <= room - count_k
  // (a PW+1-bit subtraction on the count, then a compare with the CTA count); AND over the PTBQs
  for (genvar k = 0; k < K; k++) begin : g_fit
    logic [PW:0] head;        // room - count_k; bit PW: negative
    assign head = {1'b0, room} - {1'b0, ptbq_count_i[k*PW +: PW]};
`ifdef GS_MUT_PCTRL_ROOM_STRICT
    // MUTATION: a switch whose CTAs would fill the fullest PTBQ exactly falls back to drain
    assign fits[k] = !head[PW] && ({{(PW-CW){1'b0}}, m.ctas} < head[PW-1:0]);
`else
    assign fits[k] = !head[PW] && ({{(PW-CW){1'b0}}, m.ctas} <= head[PW-1:0]);
`endif
  end

  always_comb begin
    preempt_d = '0;

    // the request's own mechanism (HeteroCore's adaptive preemption) or the configured one
    mode = req_i.mode_sel ? req_i.mode : cfg_preempt_mode_i;
    switch_ok = (mode == gs_pkg::PREEMPT_SWITCH) && (&fits);

    reserve_valid_o = accept_o;
    reserve_sm_o = req_i.sm;
    reserve_next_valid_o = req_i.next_valid && req_i.assign_next;
    reserve_next_o = req_i.next;

    preempt_d.valid = accept_o;
    preempt_d.sm = req_i.sm;
    preempt_d.mode = switch_ok ? gs_pkg::PREEMPT_SWITCH : gs_pkg::PREEMPT_DRAIN;
    preempt_d.victim = gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    preempt_d.next = gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    for (int k = 0; k < K; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (!req_i.victim_all && req_i.victim == gs_pkg::SlotW'(k)) preempt_d.victim = e.kernel;
      if (req_i.next_valid && req_i.next == gs_pkg::SlotW'(k)) preempt_d.next = e.kernel;
    end
    if (!accept_o) begin   // an idle record: zeros, and no kernel
      preempt_d = '0;
      preempt_d.victim = gs_pkg::KernelIdW'(gs_pkg::NoKernel);
      preempt_d.next = gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    end
    ctas_d = accept_o ? m.ctas : '0;

    // kPreemptDone releases the SM's credited CTAs: its row, or ctas_q when the SM's switch row
    // is written this cycle (the switch was requested last cycle)
    pend_hit = last_switch && (ev_sm_i == preempt_q.sm);
    released = '0;
`ifndef GS_MUT_PCTRL_NO_RELEASE
    // (MUTATION GS_MUT_PCTRL_NO_RELEASE drops this: kPreemptDone releases no credit)
`ifdef GS_MUT_PCTRL_NO_FORWARD
    // MUTATION: a kPreemptDone the cycle after its switch reads the SM's row, not yet written,
    // so the switch's CTAs are never released
    if (ev_done_i) released = cr_ev;
`else
    if (ev_done_i) released = pend_hit ? ctas_q : cr_ev;
`endif
`endif
    room_d = room;
    rel_d = released;

    credited_d = credited_q;
    for (int s = 0; s < N; s++) begin
      if (last_switch && last_oh[s]) credited_d[s*CW +: CW] = ctas_q;
`ifndef GS_MUT_PCTRL_KEEP_CREDITED
      // (MUTATION GS_MUT_PCTRL_KEEP_CREDITED drops this: the SM's credited CTAs outlive its
      // kPreemptDone and are released again when a later drain of the SM is done)
      if (ev_done_i && ev_oh[s]) credited_d[s*CW +: CW] = '0;
`endif
    end

    unreserve_valid_o = ev_done_i;
    unreserve_sm_o = ev_sm_i;
    ptbq_push_valid_o = ev_saved_i;
    ptbq_push_slot_o = ev_slot_i;
    ptbq_push_cta_o = ev_cta_i;
  end

  assign preempt_o = preempt_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      preempt_q <= '0;
      preempt_q.victim <= gs_pkg::KernelIdW'(gs_pkg::NoKernel);
      preempt_q.next <= gs_pkg::KernelIdW'(gs_pkg::NoKernel);
      ctas_q <= '0;
      rel_q <= '0;
      room_q <= PW'(gs_pkg::PtbqDepth);
      credited_q <= '0;
    end else begin
      preempt_q <= preempt_d;
      ctas_q <= ctas_d;
      rel_q <= rel_d;
      room_q <= room_d;
      credited_q <= credited_d;
    end
  end
endmodule
