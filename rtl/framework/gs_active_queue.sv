// gs_active_queue: the Active Queue (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_active_queue.md
//
// Admits the oldest launch of the Command Buffers into the lowest free KSRT slot (at most one
// per cycle) and keeps the arrival order of the active kernels as a rank per slot
// (0 = oldest active kernel). The SM driver and the policies order kernels by this rank.
// A kernel arriving while every KSRT slot is in use waits in its command buffer.
// Timing: a slot freed in cycle t (its last CTA finished) can be reused in cycle t+1; the
// admitted kernel is visible in the KSRT in the cycle after admission.
// Ranks: on admission rank = number of active kernels left after this cycle's free; when a
// slot frees, every rank above it moves down by one (ranks stay dense 0..K-1).
// Storage: MaxKernels x SlotW rank bits (8 x 3 = 24 flops).
module gs_active_queue (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        head_valid_i,  // command buffers hold a launch
  input  gs_pkg::slot_mask_t          ksrt_valid_i,  // registered KSRT valid bits
  input  gs_pkg::slot_mask_t          free_i,        // slot freed this cycle (one-hot or 0)
  output logic                        pop_o,         // take the head launch
  output logic                        alloc_valid_o,
  output gs_pkg::slot_t               alloc_slot_o,
  output logic [gs_pkg::MaxKernels*gs_pkg::SlotW-1:0] rank_o
);
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;

  logic [K*SW-1:0] rank_q, rank_d;
  logic found;
  logic [((K > 1) ? $clog2(K) : 1)-1:0] free_slot;
  gs_pkg::slot_t freed_rank, r;
  logic [SW:0] active_after;

  // the lowest free slot (log depth)
  gs_ffs #(.Width(K)) u_free_slot (.req_i(~ksrt_valid_i), .data_i('0), .valid_o(found), .idx_o(free_slot), .data_o());
  always_comb begin
    alloc_slot_o = SW'(free_slot);
    alloc_valid_o = head_valid_i && found;
    pop_o = alloc_valid_o;
  end

  always_comb begin
    rank_d = rank_q;

    // rank of the slot freed this cycle
    freed_rank = '0;
    for (int k = 0; k < K; k++) begin
      if (free_i[k]) freed_rank = rank_q[k*SW +: SW];
    end
    active_after = '0;
    for (int k = 0; k < K; k++) begin
      if (ksrt_valid_i[k] && !free_i[k]) active_after = active_after + 1'b1;
    end
    for (int k = 0; k < K; k++) begin
      r = rank_q[k*SW +: SW];
      if (free_i[k]) r = '0;
      else if (|free_i && ksrt_valid_i[k] && r > freed_rank) r = r - 1'b1;
      if (alloc_valid_o && alloc_slot_o == SW'(k)) r = active_after[SW-1:0];
      rank_d[k*SW +: SW] = r;
    end
  end

  assign rank_o = rank_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) rank_q <= '0;
    else rank_q <= rank_d;
  end

`ifndef SYNTHESIS
  assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(free_i))
    else $error("gs_active_queue: more than one KSRT slot freed in one cycle");
  assert property (@(posedge clk_i) disable iff (!rst_ni) (free_i & ~ksrt_valid_i) == '0)
    else $error("gs_active_queue: an invalid KSRT slot was freed");
`endif
endmodule
