// gs_ptbq: Preempted Thread Block Queues (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_ptbq.md
//
// One FIFO of preempted CTA ids per KSRT slot. A context-switched CTA (kCtaSaved) is pushed;
// the SM driver issues the head of a slot's queue before any fresh CTA of that kernel (pop),
// so the number of saved CTAs stays bounded and the handles stay on chip. One push and one
// pop per cycle (same or different slots). count_o / head_o / ready_o are registered state.
// gs_preempt_ctrl only starts a context switch when the saved CTAs are sure to fit
// (falls back to draining otherwise), so a push never finds its queue full.
//
// Storage: the handles in one gs_ram_1r1w macro (MaxKernels*PtbqDepth x CtaIdW, 8 x 256 x 20 b,
// ReadCycles 2: the 180 nm macro's access time is longer than the 4 ns period), written by the
// push; every slot's head in a register beside it (ready_o: the register holds the head), so
// the driver sees all heads at once through no read port. A pop takes the head register; the
// next entry is fetched by the fill unit: at an edge with the port free it reads the entry of
// the lowest slot whose head register is empty (from registered state only), the word is on
// the port from the next edge and lands in the head register at the one after. So a slot pops at
// most every fourth cycle and the port reads at most every other edge. A push into an empty
// queue, or behind the only entry a pop removes at the same edge, writes the head register.
module gs_ptbq (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 push_valid_i,
  input  gs_pkg::slot_t        push_slot_i,
  input  gs_pkg::cta_id_t      push_cta_i,
  input  logic                 pop_valid_i,   // only for a slot with ready_o set
  input  gs_pkg::slot_t        pop_slot_i,
  output logic [gs_pkg::MaxKernels*gs_pkg::PtbqCntW-1:0] count_o,
  output logic [gs_pkg::MaxKernels*gs_pkg::CtaIdW-1:0]   head_o,
  output gs_pkg::slot_mask_t   ready_o,       // head_o[k] holds slot k's head (count_o[k] != 0)
  output logic [2+gs_pkg::SlotW-1:0] fill_o   // the fill unit {rd, data, slot}, for the state check
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_ptbq_drop, "GS_MUT_PTBQ_DROP")
  localparam int K = gs_pkg::MaxKernels;
  localparam int PW = gs_pkg::PtbqPtrW;
  localparam int CW = gs_pkg::PtbqCntW;
  localparam int IW = gs_pkg::CtaIdW;
  localparam int AW = gs_pkg::SlotW + gs_pkg::PtbqPtrW;

  logic [K*PW-1:0] rd_q, rd_d;      // per slot: the head's entry
  logic [K*CW-1:0] cnt_q, cnt_d;    // per slot: handles queued
  logic [K*IW-1:0] head_q, head_d;  // per slot: the head's handle, while hv_q has its bit
  logic [K-1:0] hv_q, hv_d;         // per slot: head_q holds the head
  logic frd_q, frd_d;               // the fill read at the last edge (the port takes no read now)
  logic fdat_q, fdat_d;             // the fill's word is on the port now
  gs_pkg::slot_t fslot_q, fslot_d;  // the slot being filled

  logic wr_en, rd_en;
  logic [AW-1:0] wr_addr, rd_addr;
  gs_pkg::cta_id_t rd_data;
  logic [PW-1:0] ptr;
  logic [CW-1:0] cnt;
  logic push_k, pop_k;

  gs_ram_1r1w #(.Depth(K * gs_pkg::PtbqDepth), .Width(IW), .ReadCycles(2)) u_mem (
    .clk_i, .we_i(wr_en), .waddr_i(wr_addr), .wdata_i(push_cta_i),
    .re_i(rd_en), .raddr_i(rd_addr), .rdata_o(rd_data));

  assign count_o = cnt_q;
  assign head_o = head_q;
  assign ready_o = hv_q;
  assign fill_o = {frd_q, fdat_q, fslot_q};

  // the fill: the lowest slot with handles queued and its head register empty, not under way
  logic [K-1:0] need;
  logic need_any;
  gs_pkg::slot_t need_slot;
  for (genvar k = 0; k < K; k++) begin : g_need
    assign need[k] = cnt_q[k*CW +: CW] != '0 && !hv_q[k] && !((frd_q || fdat_q) && fslot_q == gs_pkg::SlotW'(k));
  end
  gs_ffs #(.Width(K)) u_need (.req_i(need), .data_i('0), .valid_o(need_any), .idx_o(need_slot), .data_o());

  always_comb begin
    rd_d = rd_q;
    cnt_d = cnt_q;
    head_d = head_q;
    hv_d = hv_q;
    wr_en = 1'b0;
    wr_addr = '0;
    // the port reads at most every other edge: not at the edge after a read
`ifdef GS_MUT_PTBQ_HEAD_READ_BACK_TO_BACK
    // MUTATION: the fill reads again at the edge after a read, while the macro is still busy
    rd_en = need_any;
`else
    rd_en = need_any && !frd_q;
`endif
    rd_addr = {need_slot, rd_q[32'(need_slot)*PW +: PW]};
    frd_d = rd_en;
    fdat_d = frd_q;
    fslot_d = rd_en ? need_slot : fslot_q;
    // the fill's word lands in its slot's head register
    if (fdat_q) begin
`ifndef GS_MUT_PTBQ_HEAD_FILL_LOST
      // (MUTATION GS_MUT_PTBQ_HEAD_FILL_LOST: the word is not copied; the head register keeps the old head)
      head_d[32'(fslot_q)*IW +: IW] = rd_data;
`endif
      hv_d[fslot_q] = 1'b1;
    end
`ifdef GS_MUT_PTBQ_HEAD_READY_EARLY
    // MUTATION: the head is marked ready when the fill reads, two edges before its word lands
    if (rd_en) hv_d[need_slot] = 1'b1;
`endif
    for (int k = 0; k < K; k++) begin
      ptr = rd_q[k*PW +: PW];
      cnt = cnt_q[k*CW +: CW];
      push_k = 1'b0;
      pop_k = pop_valid_i && pop_slot_i == gs_pkg::SlotW'(k);
      if (push_valid_i && push_slot_i == gs_pkg::SlotW'(k)) begin
        wr_addr = {push_slot_i, ptr + cnt[PW-1:0]};
        wr_en = !(mut_ptbq_drop && cnt == CW'(1));   // (GS_MUT_PTBQ_DROP: the second handle saved is lost)
        push_k = wr_en;
      end
      if (pop_k) hv_d[k] = 1'b0;   // the head leaves; the fill fetches the next one
`ifndef GS_MUT_PTBQ_HEAD_EMPTY_PUSH
      // (MUTATION GS_MUT_PTBQ_HEAD_EMPTY_PUSH: a push into an empty queue leaves the head register empty)
      if (push_k && (cnt == '0 || (cnt == CW'(1) && pop_k))) begin
        head_d[k*IW +: IW] = push_cta_i;   // the only entry after this edge: it is the head
        hv_d[k] = 1'b1;
      end
`endif
      if (push_k) cnt = cnt + 1'b1;
      if (pop_k) begin
        ptr = ptr + 1'b1;
        cnt = cnt - 1'b1;
      end
      rd_d[k*PW +: PW] = ptr;
      cnt_d[k*CW +: CW] = cnt;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q <= '0;
      cnt_q <= '0;
      hv_q <= '0;
      frd_q <= 1'b0;
      fdat_q <= 1'b0;
      fslot_q <= '0;
    end else begin
      rd_q <= rd_d;
      cnt_q <= cnt_d;
      hv_q <= hv_d;
      frd_q <= frd_d;
      fdat_q <= fdat_d;
      fslot_q <= fslot_d;
    end
  end

  // no reset: a head is only read while hv_q has its bit
  always_ff @(posedge clk_i) head_q <= head_d;

`ifndef SYNTHESIS
  for (genvar k = 0; k < K; k++) begin : g_inv
    logic [CW-1:0] c;
    assign c = cnt_q[k*CW +: CW];
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     (push_valid_i && push_slot_i == gs_pkg::SlotW'(k)) |-> c != CW'(gs_pkg::PtbqDepth))
      else $error("gs_ptbq: push into the full queue of slot %0d", k);
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     (pop_valid_i && pop_slot_i == gs_pkg::SlotW'(k)) |-> c != '0)
      else $error("gs_ptbq: pop from the empty queue of slot %0d", k);
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     (pop_valid_i && pop_slot_i == gs_pkg::SlotW'(k)) |-> hv_q[k])
      else $error("gs_ptbq: pop of slot %0d before its head is ready", k);
  end
`endif
endmodule
