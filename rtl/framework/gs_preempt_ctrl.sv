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
// Timing: request in cycle t -> SMST reserved and preempt_o valid in cycle t+1.
// Storage (MaxSms 132): preempt record (26 b) + save credit (13 b) + per SM credited CTAs (132 x 6 b).
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
  localparam int SCW = gs_pkg::SaveCreditW;

  gs_pkg::preempt_t preempt_q, preempt_d;
  logic [SCW-1:0] credit_q, credit_d;
  logic [N*CW-1:0] credited_q, credited_d;

  gs_pkg::smst_entry_t m;
  gs_pkg::ksrt_entry_t e;
  logic [PW-1:0] occ_max;
  logic switch_ok;
  gs_pkg::preempt_mode_e mode;
  gs_pkg::cta_cnt_t released;

  // the requested SM and the event's SM, one-hot: their rows are read through AND-OR trees
  logic [N-1:0] req_oh, ev_oh;
  for (genvar s = 0; s < N; s++) begin : g_sm_oh
    assign req_oh[s] = req_i.sm == gs_pkg::SmIdW'(s);
    assign ev_oh[s] = ev_sm_i == gs_pkg::SmIdW'(s);
  end

  // the requested SM's entry and the acceptance (registered state and the request only)
  always_comb begin
    m = '0;
    for (int s = 0; s < N; s++) m = m | ({gs_pkg::SmstW{req_oh[s]}} & smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW]);
    accept_o = req_i.valid && (m.state != gs_pkg::SM_RESERVED);
  end

  // the fullest PTBQ: a tree of pairwise maxima (node n of the heap: 1 = root, 2n and 2n+1 its
  // children, leaves at KL .. 2*KL-1); split_var: Verilator orders the nodes bit by bit
  localparam int KL = 1 << $clog2(K);
  logic [2*KL*PW-1:PW] occ_node /* verilator split_var */;
  for (genvar i = 0; i < KL; i++) begin : g_occ_leaf
    if (i < K) begin : g_count
      assign occ_node[(KL + i)*PW +: PW] = ptbq_count_i[i*PW +: PW];
    end else begin : g_pad
      assign occ_node[(KL + i)*PW +: PW] = '0;
    end
  end
  for (genvar n = KL - 1; n >= 1; n--) begin : g_occ_node
    assign occ_node[n*PW +: PW] = (occ_node[(2*n + 1)*PW +: PW] > occ_node[2*n*PW +: PW])
                                  ? occ_node[(2*n + 1)*PW +: PW] : occ_node[2*n*PW +: PW];
  end
  assign occ_max = occ_node[PW +: PW];

  always_comb begin
    preempt_d = '0;
    credit_d = credit_q;
    credited_d = credited_q;

    // the request's own mechanism (HeteroCore's adaptive preemption) or the configured one
    mode = req_i.mode_sel ? req_i.mode : cfg_preempt_mode_i;
`ifdef GS_MUT_PCTRL_ROOM_STRICT
    // MUTATION: a switch whose CTAs would fill the fullest PTBQ exactly falls back to drain
    switch_ok = (mode == gs_pkg::PREEMPT_SWITCH) &&
                ({{(SCW+1-PW){1'b0}}, occ_max} + {1'b0, credit_q} + {{(SCW+1-CW){1'b0}}, m.ctas}
                 < (SCW+1)'(gs_pkg::PtbqDepth));
`else
`ifdef GS_MUT_PCTRL_NO_CREDIT
    // MUTATION: the room test forgets the save credit (CTAs of switches in flight), so
    // concurrent switches may promise a PTBQ more entries than it has
    switch_ok = (mode == gs_pkg::PREEMPT_SWITCH) &&
                ({{(SCW+1-PW){1'b0}}, occ_max} + {{(SCW+1-CW){1'b0}}, m.ctas}
                 <= (SCW+1)'(gs_pkg::PtbqDepth));
`else
    switch_ok = (mode == gs_pkg::PREEMPT_SWITCH) &&
                ({{(SCW+1-PW){1'b0}}, occ_max} + {1'b0, credit_q} + {{(SCW+1-CW){1'b0}}, m.ctas}
                 <= (SCW+1)'(gs_pkg::PtbqDepth));
`endif
`endif

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

    // save credit: promised PTBQ entries of context switches in flight
    released = '0;
    for (int s = 0; s < N; s++) begin
`ifndef GS_MUT_PCTRL_NO_RELEASE
      // (MUTATION GS_MUT_PCTRL_NO_RELEASE drops this: kPreemptDone releases no credit)
      released = released | ({CW{ev_done_i && ev_oh[s]}} & credited_q[s*CW +: CW]);
`endif
`ifndef GS_MUT_PCTRL_KEEP_CREDITED
      // (MUTATION GS_MUT_PCTRL_KEEP_CREDITED drops this: the SM's credited CTAs outlive its
      // kPreemptDone and are released again when a later drain of the SM is done)
      if (ev_done_i && ev_oh[s]) credited_d[s*CW +: CW] = '0;
`endif
      if (accept_o && switch_ok && req_oh[s]) credited_d[s*CW +: CW] = m.ctas;
    end
    credit_d = credit_q - {{(SCW-CW){1'b0}}, released}
             + ((accept_o && switch_ok) ? {{(SCW-CW){1'b0}}, m.ctas} : '0);

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
      credit_q <= '0;
      credited_q <= '0;
    end else begin
      preempt_q <= preempt_d;
      credit_q <= credit_d;
      credited_q <= credited_d;
    end
  end
endmodule
