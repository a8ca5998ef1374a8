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
// Storage: a MaxKernels*PtbqDepth x CtaIdW memory (8 x 256 x 20 b = 40,960 bits) plus
// per slot an 8 b read pointer and a 9 b count (136 flops). 256 >= the 208 preempted CTAs
// Tanasic's K20c needs per kernel (13 SMs x 16 CTA slots, Sec. 3.3).
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
  localparam int K = gs_pkg::MaxKernels;
  localparam int PW = gs_pkg::PtbqPtrW;
  localparam int CW = gs_pkg::PtbqCntW;
  localparam int AW = gs_pkg::SlotW + gs_pkg::PtbqPtrW;

  gs_pkg::cta_id_t mem_q [K*gs_pkg::PtbqDepth];
  logic [K*PW-1:0] rd_q, rd_d;
  logic [K*CW-1:0] cnt_q, cnt_d;
  logic wr_en;
  logic [AW-1:0] wr_addr;
  logic [PW-1:0] ptr;
  logic [CW-1:0] cnt;

  always_comb begin
    rd_d = rd_q;
    cnt_d = cnt_q;
    wr_en = 1'b0;
    wr_addr = '0;
    for (int k = 0; k < K; k++) begin
      ptr = rd_q[k*PW +: PW];
      cnt = cnt_q[k*CW +: CW];
      if (push_valid_i && push_slot_i == gs_pkg::SlotW'(k)) begin
        wr_addr = {push_slot_i, ptr + cnt[PW-1:0]};
`ifdef GS_MUT_PTBQ_DROP
        // MUTATION: the second handle saved into a queue is lost
        wr_en = (cnt != CW'(1));
`else
        wr_en = 1'b1;
`endif
        if (wr_en) cnt = cnt + 1'b1;
      end
      if (pop_valid_i && pop_slot_i == gs_pkg::SlotW'(k)) begin
        ptr = ptr + 1'b1;
        cnt = cnt - 1'b1;
      end
      rd_d[k*PW +: PW] = ptr;
      cnt_d[k*CW +: CW] = cnt;
    end
  end

  for (genvar k = 0; k < K; k++) begin : g_head
    assign head_o[k*gs_pkg::CtaIdW +: gs_pkg::CtaIdW] =
        mem_q[{gs_pkg::SlotW'(k), rd_q[k*PW +: PW]}];
    assign count_o[k*CW +: CW] = cnt_q[k*CW +: CW];
  end

  // the handle storage is a plain memory with one write port (no reset needed: a handle is
  // only read below the count)
  always_ff @(posedge clk_i) begin
    if (wr_en) mem_q[wr_addr] <= push_cta_i;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rd_q <= '0;
      cnt_q <= '0;
    end else begin
      rd_q <= rd_d;
      cnt_q <= cnt_d;
    end
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
