// gs_cmd_buffers: Command Buffers (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_cmd_buffers.md
//
// One FIFO of kernel launches per context (CmdBufDepth each) plus an arrival-order FIFO of
// context ids, so the Active Queue always admits the globally oldest launch (FIFO across
// contexts by arrival). At most one push (launch port) and one pop (Active Queue) per cycle.
// ready_o is a function of registered state only: every context FIFO has a free entry, so a
// launch presented next cycle is always accepted (the order FIFO holds MaxContexts*CmdBufDepth
// entries and cannot overflow). Latency: a launch pushed in cycle t is head_o in cycle t+1.
// Storage (defaults): 8 x 4 x 105 b launches, 8 x (2 b read pointer + 3 b count),
// order FIFO 32 x 3 b + two 5 b pointers + 6 b count = 3,512 flops.
module gs_cmd_buffers (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             push_i,
  input  gs_pkg::launch_t  push_launch_i,
  input  logic             pop_i,
  output logic             head_valid_o,
  output gs_pkg::launch_t  head_o,
  output logic             ready_o
);
  localparam int Ctx = gs_pkg::MaxContexts;
  localparam int Depth = gs_pkg::CmdBufDepth;
  localparam int PtrW = gs_pkg::CmdPtrW;
  localparam int LW = gs_pkg::LaunchW;
  localparam int OrderDepth = Ctx * Depth;
  localparam int OPtrW = gs_pkg::OrderPtrW;

  // fifo entry (c, i) at bits [(c*Depth + i)*LW +: LW]
  logic [Ctx*Depth*LW-1:0] fifo_q, fifo_d;
  logic [Ctx*PtrW-1:0] rd_q, rd_d;
  logic [Ctx*(PtrW+1)-1:0] cnt_q, cnt_d;
  logic [OrderDepth*gs_pkg::CtxW-1:0] order_q, order_d;
  logic [OPtrW-1:0] ord_rd_q, ord_rd_d, ord_wr_q, ord_wr_d;
  logic [OPtrW:0] ord_cnt_q, ord_cnt_d;

  gs_pkg::ctx_t head_ctx, push_ctx;
  logic [PtrW-1:0] ptr;
  logic [PtrW:0] cnt;
  logic pop;

  // read side: the oldest launch and the ready flag (registered state only). Both reads are
  // one-hot AND-ORs (a decoded pointer selects one entry), not priority chains.
  logic [Ctx*Depth-1:0] head_oh;   // the head entry: context head_ctx, its read pointer
  logic [Ctx-1:0] full;
  always_comb begin
    head_ctx = '0;
    for (int i = 0; i < OrderDepth; i++)
      head_ctx = head_ctx | ({gs_pkg::CtxW{OPtrW'(i) == ord_rd_q}} & order_q[i*gs_pkg::CtxW +: gs_pkg::CtxW]);
    head_valid_o = (ord_cnt_q != '0);
    head_o = '0;
    for (int c = 0; c < Ctx; c++) begin
      full[c] = cnt_q[c*(PtrW+1) +: PtrW+1] == (PtrW+1)'(Depth);
      for (int i = 0; i < Depth; i++) begin
        head_oh[c*Depth + i] = gs_pkg::CtxW'(c) == head_ctx && PtrW'(i) == rd_q[c*PtrW +: PtrW];
        head_o = head_o | ({LW{head_oh[c*Depth + i]}} & fifo_q[(c*Depth + i)*LW +: LW]);
      end
    end
    ready_o = ~|full;
  end

  always_comb begin
    fifo_d = fifo_q;
    rd_d = rd_q;
    cnt_d = cnt_q;
    order_d = order_q;
    ord_rd_d = ord_rd_q;
    ord_wr_d = ord_wr_q;
    ord_cnt_d = ord_cnt_q;
    // Tables are read and written through loops with constant part-selects: a dynamic
    // part-select into a wide vector becomes a full barrel shifter in Yosys.
    pop = pop_i && head_valid_o;
    push_ctx = push_launch_i.ctx;
    for (int c = 0; c < Ctx; c++) begin
      ptr = rd_q[c*PtrW +: PtrW];
      cnt = cnt_q[c*(PtrW+1) +: PtrW+1];
      if (gs_pkg::CtxW'(c) == head_ctx) begin
        // pop: the oldest launch leaves its context FIFO
        if (pop) begin
          ptr = ptr + 1'b1;
          cnt = cnt - 1'b1;
        end
      end
      rd_d[c*PtrW +: PtrW] = ptr;
      // push: written behind the context's tail
      if (push_i && gs_pkg::CtxW'(c) == push_ctx) begin
        for (int i = 0; i < Depth; i++) begin
          if (PtrW'(i) == ptr + cnt[PtrW-1:0]) fifo_d[(c*Depth + i)*LW +: LW] = push_launch_i;
        end
        cnt = cnt + 1'b1;
      end
      cnt_d[c*(PtrW+1) +: PtrW+1] = cnt;
    end
    // order FIFO of context ids
    if (pop) ord_rd_d = ord_rd_q + 1'b1;
    if (push_i) begin
      for (int i = 0; i < OrderDepth; i++) begin
        if (OPtrW'(i) == ord_wr_q) order_d[i*gs_pkg::CtxW +: gs_pkg::CtxW] = push_ctx;
      end
      ord_wr_d = ord_wr_q + 1'b1;
    end
    ord_cnt_d = ord_cnt_q + (OPtrW+1)'(push_i) - (OPtrW+1)'(pop);
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      fifo_q <= '0;
      rd_q <= '0;
      cnt_q <= '0;
      order_q <= '0;
      ord_rd_q <= '0;
      ord_wr_q <= '0;
      ord_cnt_q <= '0;
    end else begin
      fifo_q <= fifo_d;
      rd_q <= rd_d;
      cnt_q <= cnt_d;
      order_q <= order_d;
      ord_rd_q <= ord_rd_d;
      ord_wr_q <= ord_wr_d;
      ord_cnt_q <= ord_cnt_d;
    end
  end

`ifndef SYNTHESIS
  // the model presents a launch only after ready_o, so a context FIFO never overflows
  assert property (@(posedge clk_i) disable iff (!rst_ni) push_i |-> ready_o)
    else $error("gs_cmd_buffers: launch pushed while a command buffer was full");
`endif
endmodule
