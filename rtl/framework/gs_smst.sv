// gs_smst: SM Status Table (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_smst.md
//
// Per SM: state (idle / running / reserved), owner kernel slot (spatial and DSS assign whole
// SMs), the slot the SM is reserved for (`next`), the resources in use (threads, warps,
// registers, shared memory, CTA slots) and the resident CTA count of every kernel slot.
// Write ports, applied in this order when several hit one SM in the same cycle:
//   alloc     -- the SM driver issued a CTA: add its resources, resident[slot] + 1;
//   free      -- a CTA finished or was saved (event): subtract, resident[slot] - 1;
//   unreserve -- kPreemptDone: the SM leaves `reserved`; owner := next (when the preemption
//                request asked for it, otherwise none);
//   reserve   -- gs_preempt_ctrl issued a preemption: state reserved, next := request's next;
//   owner_wr  -- a policy assigns or releases the SM (DSS, spatial);
//   slot_free -- a kernel finished: owner / next fields naming its slot are cleared.
// State: reserved while a preemption is pending, else running if the SM has an owner or a
// resident CTA, else idle. Registered outputs only; an update of cycle t is seen in t+1.
// Storage: MaxSms x (SmstW + MaxKernels x CtaCntW) = 132 x (70 + 48) = 15,576 flops. The
// resources in use change through one read-modify-write per port (alloc, free), not an adder on
// every row.
module gs_smst (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic                alloc_valid_i,
  input  gs_pkg::sm_id_t      alloc_sm_i,
  input  gs_pkg::slot_t       alloc_slot_i,
  input  gs_pkg::cta_res_t    alloc_res_i,
  input  logic                free_valid_i,
  input  gs_pkg::sm_id_t      free_sm_i,
  input  gs_pkg::slot_t       free_slot_i,
  input  gs_pkg::cta_res_t    free_res_i,
  input  logic                unreserve_valid_i,
  input  gs_pkg::sm_id_t      unreserve_sm_i,
  input  logic                reserve_valid_i,
  input  gs_pkg::sm_id_t      reserve_sm_i,
  input  logic                reserve_next_valid_i,
  input  gs_pkg::slot_t       reserve_next_i,
  input  gs_pkg::owner_wr_t   owner_wr_i,
  input  gs_pkg::slot_mask_t  slot_free_i,
  output logic [gs_pkg::MaxSms*gs_pkg::SmstW-1:0] entries_o,
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_double_free, "GS_MUT_DOUBLE_FREE")
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int W = gs_pkg::SmstW;
  localparam int CW = gs_pkg::CtaCntW;

  logic [N*W-1:0] tbl_q, tbl_d;
  logic [N*K*CW-1:0] res_q, res_d;
  gs_pkg::smst_entry_t e;
  logic reserved;
  gs_pkg::cta_cnt_t cnt;

  // ---- the resources in use: one read-modify-write per port, not an adder on every row ----
  // The alloc and free ports each read their SM's row through a one-hot AND-OR, add or subtract
  // the CTA once, and the row loop below writes the result back; when both hit one SM the alloc
  // result carries both.
  logic [N-1:0] alloc_oh, free_oh;
  for (genvar s = 0; s < N; s++) begin : g_port_oh
    assign alloc_oh[s] = alloc_valid_i && alloc_sm_i == gs_pkg::SmIdW'(s);
    assign free_oh[s] = free_valid_i && free_sm_i == gs_pkg::SmIdW'(s);
  end
  gs_pkg::smst_entry_t alloc_row, free_row, alloc_new, free_new;
  gs_pkg::cta_res_t freed, freed_here, delta;
  logic same_sm;
  always_comb begin
    alloc_row = '0;
    free_row = '0;
    for (int s = 0; s < N; s++) begin
      alloc_row = alloc_row | ({W{alloc_oh[s]}} & tbl_q[s*W +: W]);
      free_row = free_row | ({W{free_oh[s]}} & tbl_q[s*W +: W]);
    end
    freed = free_res_i;
    if (mut_double_free) begin   // (GS_MUT_DOUBLE_FREE: the CTA's storage is released twice)
      freed.threads = free_res_i.threads + free_res_i.threads;
      freed.warps = free_res_i.warps + free_res_i.warps;
      freed.regs = free_res_i.regs + free_res_i.regs;
      freed.shmem = free_res_i.shmem + free_res_i.shmem;
    end
    // the change of the alloc port's row, from the ports alone (beside the row read, so one
    // adder follows the read): the CTA, minus the freed one when both hit one SM
    same_sm = alloc_valid_i && free_valid_i && alloc_sm_i == free_sm_i;
    freed_here = same_sm ? freed : '0;
    delta.threads = alloc_res_i.threads - freed_here.threads;
    delta.warps = alloc_res_i.warps - freed_here.warps;
    delta.regs = alloc_res_i.regs - freed_here.regs;
    delta.shmem = alloc_res_i.shmem - freed_here.shmem;
    alloc_new = alloc_row;
    alloc_new.threads = alloc_row.threads + delta.threads;
    alloc_new.warps = alloc_row.warps + delta.warps;
    alloc_new.regs = alloc_row.regs + delta.regs;
    alloc_new.shmem = alloc_row.shmem + delta.shmem;
    alloc_new.ctas = alloc_row.ctas + gs_pkg::CtaCntW'(!same_sm);
    free_new = free_row;
    free_new.threads = free_row.threads - freed.threads;
    free_new.warps = free_row.warps - freed.warps;
    free_new.regs = free_row.regs - freed.regs;
    free_new.shmem = free_row.shmem - freed.shmem;
    free_new.ctas = free_row.ctas - 1'b1;
  end

  // Only the SMs a write port addresses (or every SM, in a cycle that frees a slot) are
  // recomputed; any other entry keeps its register value, which equals what the recomputation
  // would give (its state was derived from the same fields when it was last written, and the
  // reset value is a consistent idle entry). Same function as recomputing all N entries, but a
  // Verilated model skips the unaddressed ones: this loop dominated the cost of a cycle.
  logic [N-1:0] touched;
  logic any_write;
  always_comb begin
    any_write = alloc_valid_i || free_valid_i || unreserve_valid_i || reserve_valid_i || owner_wr_i.valid
             || (slot_free_i != '0);
    touched = '0;
    if (any_write) for (int s = 0; s < N; s++) begin
      touched[s] = (alloc_valid_i && alloc_sm_i == gs_pkg::SmIdW'(s))
                || (free_valid_i && free_sm_i == gs_pkg::SmIdW'(s))
                || (unreserve_valid_i && unreserve_sm_i == gs_pkg::SmIdW'(s))
                || (reserve_valid_i && reserve_sm_i == gs_pkg::SmIdW'(s))
                || (owner_wr_i.valid && owner_wr_i.sm == gs_pkg::SmIdW'(s))
                || (slot_free_i != '0);
    end
  end

  always_comb begin
    tbl_d = tbl_q;
    res_d = res_q;
    e = '0;
    reserved = 1'b0;
    cnt = '0;
    for (int s = 0; s < N; s++) begin
      if (touched[s]) begin
        e = tbl_q[s*W +: W];
        reserved = (e.state == gs_pkg::SM_RESERVED);
        if (alloc_oh[s]) begin
          e.threads = alloc_new.threads;
          e.warps = alloc_new.warps;
          e.regs = alloc_new.regs;
          e.shmem = alloc_new.shmem;
          e.ctas = alloc_new.ctas;
        end else if (free_oh[s]) begin
          e.threads = free_new.threads;
          e.warps = free_new.warps;
          e.regs = free_new.regs;
          e.shmem = free_new.shmem;
          e.ctas = free_new.ctas;
        end
        if (unreserve_valid_i && unreserve_sm_i == gs_pkg::SmIdW'(s)) begin
          reserved = 1'b0;
          e.owner_valid = e.next_valid;
          e.owner = e.next;
          e.next_valid = 1'b0;
          e.next = '0;
        end
        if (reserve_valid_i && reserve_sm_i == gs_pkg::SmIdW'(s)) begin
          reserved = 1'b1;
          e.next_valid = reserve_next_valid_i;
          e.next = reserve_next_valid_i ? reserve_next_i : '0;
        end
        if (owner_wr_i.valid && owner_wr_i.sm == gs_pkg::SmIdW'(s)) begin
          e.owner_valid = owner_wr_i.owner_valid;
          e.owner = owner_wr_i.owner_valid ? owner_wr_i.owner : '0;
        end
        for (int k = 0; k < K; k++) begin
          if (slot_free_i[k] && e.owner_valid && e.owner == gs_pkg::SlotW'(k)) begin
            e.owner_valid = 1'b0;
            e.owner = '0;
          end
          if (slot_free_i[k] && e.next_valid && e.next == gs_pkg::SlotW'(k)) begin
            e.next_valid = 1'b0;
            e.next = '0;
          end
          cnt = res_q[(s*K + k)*CW +: CW];
          if (alloc_valid_i && alloc_sm_i == gs_pkg::SmIdW'(s) && alloc_slot_i == gs_pkg::SlotW'(k))
            cnt = cnt + 1'b1;
          if (free_valid_i && free_sm_i == gs_pkg::SmIdW'(s) && free_slot_i == gs_pkg::SlotW'(k))
            cnt = cnt - 1'b1;
          res_d[(s*K + k)*CW +: CW] = cnt;
        end
        if (reserved) e.state = gs_pkg::SM_RESERVED;
        else if (e.owner_valid || e.ctas != '0) e.state = gs_pkg::SM_RUNNING;
        else e.state = gs_pkg::SM_IDLE;
        tbl_d[s*W +: W] = e;
      end
    end
  end

  assign entries_o = tbl_q;
  assign resident_o = res_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      // Whole-table reset fills: at MaxSms 132 (and MaxKernels 16) wider than Verilator's 8k-bit
      // sanity limit (WIDTHCONCAT, waived in rtl/lint.vlt).
      tbl_q <= '0;
      res_q <= '0;
    end else begin
      tbl_q <= tbl_d;
      res_q <= res_d;
    end
  end

`ifndef SYNTHESIS
  // g_view[s].entry: SM s's entry decoded as smst_entry_t, simulation only. It is the per-SM
  // row of verif/waves/smst.gtkw (the flat table is one 9,240-bit vector) and what the
  // invariants below read.
  // Invariants: a preemption is only started on an SM that is not already being preempted,
  // and only a reserved SM reports kPreemptDone
  for (genvar s = 0; s < N; s++) begin : g_view
    gs_pkg::smst_entry_t entry;
    assign entry = tbl_q[s*W +: W];
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     (reserve_valid_i && reserve_sm_i == gs_pkg::SmIdW'(s)) |-> entry.state != gs_pkg::SM_RESERVED)
      else $error("gs_smst: SM %0d reserved twice", s);
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     (unreserve_valid_i && unreserve_sm_i == gs_pkg::SmIdW'(s)) |-> entry.state == gs_pkg::SM_RESERVED)
      else $error("gs_smst: kPreemptDone for SM %0d that was not reserved", s);
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     (free_valid_i && free_sm_i == gs_pkg::SmIdW'(s)) |-> entry.ctas != '0)
      else $error("gs_smst: CTA freed on SM %0d that has none", s);
  end
`endif
endmodule
