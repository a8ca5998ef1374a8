// gs_ptbq: Preempted Thread Block Queues (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_ptbq.md
//
// One FIFO of preempted CTA ids per KSRT slot. A context-switched CTA (kCtaSaved) is pushed;
// the SM driver issues the head of a slot's queue before any fresh CTA of that kernel (pop),
// so the number of saved CTAs stays bounded and the handles stay on chip. One push and one
// pop per cycle (same or different slots). count_o / head_o are registered state: a CTA
// pushed in cycle t can be issued in cycle t+1 at the earliest.
// gs_preempt_ctrl only starts a context switch when the saved CTAs are sure to fit
// (falls back to draining otherwise), so a push never finds its queue full.
//
// Storage: the handles in one gs_ram_1r1w macro (MaxKernels*PtbqDepth x CtaIdW, 8 x 256 x 20 b),
// written by the push, read by the pop; every slot's head in a register beside it, so that
// the driver sees all heads at once through no read port. A pop reads the entry behind the
// head (registered read: the word is on the RAM's port the next cycle, where head_o takes it
// and the head register copies it at the following edge); a push into an empty queue, or
// behind the only entry a pop removes at the same edge, writes the head register directly
// (the RAM reads the old word during a write of the same address).
module gs_ptbq (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 push_valid_i,
  input  gs_pkg::slot_t        push_slot_i,
  input  gs_pkg::cta_id_t      push_cta_i,
  input  logic                 pop_valid_i,
  input  gs_pkg::slot_t        pop_slot_i,
  output logic [gs_pkg::MaxKernels*gs_pkg::PtbqCntW-1:0] count_o,
  output logic [gs_pkg::MaxKernels*gs_pkg::CtaIdW-1:0]   head_o
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
  logic [K*IW-1:0] head_q, head_d;  // per slot: the head's handle (unless it is on the RAM's port)
  logic fill_q, fill_d;             // the RAM's read port holds the head of slot fill_slot_q
  gs_pkg::slot_t fill_slot_q, fill_slot_d;

  logic wr_en, rd_en;
  logic [AW-1:0] wr_addr, rd_addr;
  gs_pkg::cta_id_t rd_data;
  logic [PW-1:0] ptr;
  logic [CW-1:0] cnt;
  logic push_k, pop_k;

  gs_ram_1r1w #(.Depth(K * gs_pkg::PtbqDepth), .Width(IW)) u_mem (
    .clk_i, .we_i(wr_en), .waddr_i(wr_addr), .wdata_i(push_cta_i),
    .re_i(rd_en), .raddr_i(rd_addr), .rdata_o(rd_data));

  // the heads: a slot's register, or the RAM's port for the slot whose entry it read last edge
  for (genvar k = 0; k < K; k++) begin : g_head
    assign head_o[k*IW +: IW] = (fill_q && fill_slot_q == gs_pkg::SlotW'(k)) ? rd_data : head_q[k*IW +: IW];
    assign count_o[k*CW +: CW] = cnt_q[k*CW +: CW];
  end

  always_comb begin
    rd_d = rd_q;
    cnt_d = cnt_q;
`ifdef GS_MUT_PTBQ_HEAD_FILL_LOST
    // MUTATION: the word read for a popped slot stays on the RAM's port only; the head register
    // keeps the old head, which shows once the port reads for another pop
    head_d = head_q;
`else
    head_d = head_o;  // the word on the RAM's port lands in its slot's head register
`endif
    wr_en = 1'b0;
    wr_addr = '0;
    rd_en = 1'b0;
    rd_addr = '0;
    fill_d = 1'b0;
    fill_slot_d = pop_slot_i;
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
      if (pop_k) begin
        if (cnt > CW'(1)) begin
          // the entry behind the head becomes the head: read it now, on the port next cycle
          rd_en = 1'b1;
          rd_addr = {pop_slot_i, ptr + 1'b1};
          fill_d = 1'b1;
`ifdef GS_MUT_PTBQ_HEAD_READ_PUSHED
        end else if (push_k) begin
          // MUTATION: the handle pushed behind the only entry is read back from the RAM at the
          // edge that writes it, which returns the old word
          rd_en = 1'b1;
          rd_addr = {pop_slot_i, ptr + 1'b1};
          fill_d = 1'b1;
`else
        end else if (push_k) begin
          head_d[k*IW +: IW] = push_cta_i;  // pushed behind the only entry: the new head
`endif
        end
      end else if (push_k && cnt == '0) begin
`ifndef GS_MUT_PTBQ_HEAD_EMPTY_PUSH
        head_d[k*IW +: IW] = push_cta_i;  // pushed into an empty queue: the new head
`endif
      end
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
      fill_q <= 1'b0;
    end else begin
      rd_q <= rd_d;
      cnt_q <= cnt_d;
      fill_q <= fill_d;
    end
  end

  // no reset: a head is only read below the count, and fill_q qualifies fill_slot_q
  always_ff @(posedge clk_i) begin
    head_q <= head_d;
    fill_slot_q <= fill_slot_d;
  end

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
  end
`endif
endmodule
