// gs_smst: SM Status Table (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_smst.md
//
// Per SM: state (idle / running / reserved), owner kernel slot (spatial and DSS assign whole
// SMs), the slot the SM is reserved for (`next`), the resources in use (threads, warps,
// registers, shared memory, CTA slots) and the resident CTA count of every kernel slot.
// Write ports, applied in this order when several hit one SM in the same cycle:
//   alloc     -- the SM driver issued a CTA: CTA count and resident[slot] + 1 now, its resources
//                added a cycle later;
//   free      -- a CTA finished or was saved (event): the same, minus;
//   unreserve -- kPreemptDone: the SM leaves `reserved`; owner := next (when the preemption
//                request asked for it, otherwise none);
//   reserve   -- gs_preempt_ctrl issued a preemption: state reserved, next := request's next;
//   owner_wr  -- a policy assigns or releases the SM (DSS, spatial);
//   slot_free -- a kernel finished: owner / next fields naming its slot are cleared.
// State: reserved while a preemption is pending, else running if the SM has an owner or a
// resident CTA, else idle. Registered outputs only; an update of cycle t is seen in t+1, except
// the resources in use (threads, warps, registers, shared memory), seen in t+2: an alloc or free
// request reads its SM's row in its cycle and is registered with it (pend_alloc_o,
// pend_free_o); the CTA is added or subtracted and the row written in the next cycle, so no
// path runs from a port through a 132-way row read and an adder into the table. Only the SM driver reads those fields (its fit
// checks; gs_sm_driver.sv says how it keeps them exact).
// Storage: MaxSms x (SmstW + MaxKernels x CtaCntW) + 2 x SmstReqW = 132 x (70 + 48) + 2 x 117 flops.
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
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_o,
  output gs_pkg::smst_req_t   pend_alloc_o, // the resource writes that land at this cycle's edge
  output gs_pkg::smst_req_t   pend_free_o
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

  // ---- the resources in use: read at the port, added and written a cycle later ----
  // In the cycle of an alloc or free request, its SM's resources are read (a one-hot AND-OR
  // over the rows, the write landing at this edge forwarded) and registered with the request
  // (pa_q, pf_q); in the next cycle the CTA is added to or subtracted from the registered row and
  // the row loop below writes the result back; when both hit one SM the alloc's change carries
  // both (formed in the request's cycle) and the free writes nothing. So no path runs from a port through a 132-way read and an adder into the table. The
  // CTA count, the resident counts and the state take the ports at once (an increment per
  // row), so only the SM driver's fit checks see the lag (docs/rtl/gs_smst.md).
  gs_pkg::smst_req_t pa_q, pa_d, pf_q, pf_d;   // the alloc and the free request of the last cycle
  gs_pkg::cta_res_t freed;
  logic [N-1:0] alloc_oh, free_oh, palloc_oh, pfree_oh;
  for (genvar s = 0; s < N; s++) begin : g_port_oh
    assign alloc_oh[s] = alloc_valid_i && alloc_sm_i == gs_pkg::SmIdW'(s);
    assign free_oh[s] = free_valid_i && free_sm_i == gs_pkg::SmIdW'(s);
    assign palloc_oh[s] = pa_q.valid && pa_q.sm == gs_pkg::SmIdW'(s);
    assign pfree_oh[s] = pf_q.valid && pf_q.sm == gs_pkg::SmIdW'(s);
  end

  // the write landing at this edge: the alloc request's row (its change already carries a free
  // of the same SM, which then writes nothing), the free request's row
  gs_pkg::cta_res_t alloc_new, free_new;
  always_comb begin
    alloc_new.threads = pa_q.used_threads + pa_q.threads;
    alloc_new.warps = pa_q.used_warps + pa_q.warps;
    alloc_new.regs = pa_q.used_regs + pa_q.regs;
    alloc_new.shmem = pa_q.used_shmem + pa_q.shmem;
    free_new.threads = pf_q.used_threads - pf_q.threads;
    free_new.warps = pf_q.used_warps - pf_q.warps;
    free_new.regs = pf_q.used_regs - pf_q.regs;
    free_new.shmem = pf_q.used_shmem - pf_q.shmem;
  end

  // this cycle's requests: the CTA and its SM's resources as they are after this edge (the
  // table's, read through a one-hot AND-OR, or the write landing now: the alloc's row carries a
  // free of its SM)
  gs_pkg::smst_entry_t arow, frow;
  gs_pkg::cta_res_t net;
  logic same_sm;
  logic a_on_a, a_on_f, f_on_a, f_on_f;   // <request>_on_<write landing now>: the same SM
  always_comb begin
    freed = free_res_i;
    if (mut_double_free) begin   // (GS_MUT_DOUBLE_FREE: the CTA's storage is released twice)
      freed.threads = free_res_i.threads + free_res_i.threads;
      freed.warps = free_res_i.warps + free_res_i.warps;
      freed.regs = free_res_i.regs + free_res_i.regs;
      freed.shmem = free_res_i.shmem + free_res_i.shmem;
    end
    arow = '0;
    frow = '0;
    for (int s = 0; s < N; s++) begin
      arow = arow | ({W{alloc_oh[s]}} & tbl_q[s*W +: W]);
      frow = frow | ({W{free_oh[s]}} & tbl_q[s*W +: W]);
    end
`ifdef GS_MUT_SMST_NO_FORWARD
    // MUTATION: a request reads its SM's row as the table holds it, without the write landing now
    a_on_a = 1'b0;
    a_on_f = 1'b0;
    f_on_a = 1'b0;
    f_on_f = 1'b0;
`else
    a_on_a = pa_q.valid && pa_q.sm == alloc_sm_i;
    a_on_f = pf_q.valid && pf_q.sm == alloc_sm_i;
    f_on_a = pa_q.valid && pa_q.sm == free_sm_i;
    f_on_f = pf_q.valid && pf_q.sm == free_sm_i;
`endif
    // the alloc's change: its CTA, less a CTA freed on the same SM in the same cycle (the
    // difference formed beside the SM compare, which selects it)
    same_sm = free_valid_i && alloc_sm_i == free_sm_i;
    net.threads = alloc_res_i.threads - freed.threads;
    net.warps = alloc_res_i.warps - freed.warps;
    net.regs = alloc_res_i.regs - freed.regs;
    net.shmem = alloc_res_i.shmem - freed.shmem;
    pa_d = '0;
    if (alloc_valid_i) begin
      pa_d.valid = 1'b1;
      pa_d.sm = alloc_sm_i;
      pa_d.threads = same_sm ? net.threads : alloc_res_i.threads;
      pa_d.warps = same_sm ? net.warps : alloc_res_i.warps;
      pa_d.regs = same_sm ? net.regs : alloc_res_i.regs;
      pa_d.shmem = same_sm ? net.shmem : alloc_res_i.shmem;
      pa_d.used_threads = a_on_a ? alloc_new.threads : a_on_f ? free_new.threads : arow.threads;
      pa_d.used_warps = a_on_a ? alloc_new.warps : a_on_f ? free_new.warps : arow.warps;
      pa_d.used_regs = a_on_a ? alloc_new.regs : a_on_f ? free_new.regs : arow.regs;
      pa_d.used_shmem = a_on_a ? alloc_new.shmem : a_on_f ? free_new.shmem : arow.shmem;
    end
    pf_d = '0;
    if (free_valid_i) begin
      pf_d.valid = 1'b1;
      pf_d.sm = free_sm_i;
      pf_d.threads = freed.threads;
      pf_d.warps = freed.warps;
      pf_d.regs = freed.regs;
      pf_d.shmem = freed.shmem;
      pf_d.used_threads = f_on_a ? alloc_new.threads : f_on_f ? free_new.threads : frow.threads;
      pf_d.used_warps = f_on_a ? alloc_new.warps : f_on_f ? free_new.warps : frow.warps;
      pf_d.used_regs = f_on_a ? alloc_new.regs : f_on_f ? free_new.regs : frow.regs;
      pf_d.used_shmem = f_on_a ? alloc_new.shmem : f_on_f ? free_new.shmem : frow.shmem;
    end
  end

  // Only the SMs a write port or a pending resource write addresses (or every SM, in a cycle that
  // frees a slot) are recomputed; any other entry keeps its register value, which equals what
  // the recomputation would give (its state was derived from the same fields when it was last
  // written, and the reset value is a consistent idle entry). Same function as recomputing all N
  // entries, but a Verilated model skips the unaddressed ones: this loop dominated the cost of a
  // cycle.
  logic [N-1:0] touched;
  logic any_write;
  always_comb begin
    any_write = alloc_valid_i || free_valid_i || pa_q.valid || pf_q.valid || unreserve_valid_i
             || reserve_valid_i || owner_wr_i.valid || (slot_free_i != '0);
    touched = '0;
    if (any_write) for (int s = 0; s < N; s++) begin
      touched[s] = alloc_oh[s] || free_oh[s] || palloc_oh[s] || pfree_oh[s]
                || (unreserve_valid_i && unreserve_sm_i == gs_pkg::SmIdW'(s))
                || (reserve_valid_i && reserve_sm_i == gs_pkg::SmIdW'(s))
                || (owner_wr_i.valid && owner_wr_i.sm == gs_pkg::SmIdW'(s))
                || (slot_free_i != '0);
    end
  end

  // the slot free of the owner and the next slot that a write names
  logic gone_wr, gone_rsv;
  assign gone_wr = slot_free_i[owner_wr_i.owner];
  assign gone_rsv = slot_free_i[reserve_next_i];
  logic hit_unres, hit_res, hit_own, gone_owner, gone_next;
  always_comb begin
    tbl_d = tbl_q;
    res_d = res_q;
    e = '0;
    reserved = 1'b0;
    cnt = '0;
    hit_unres = 1'b0;
    hit_res = 1'b0;
    hit_own = 1'b0;
    gone_owner = 1'b0;
    gone_next = 1'b0;
    for (int s = 0; s < N; s++) begin
      if (touched[s]) begin
        e = tbl_q[s*W +: W];
        reserved = (e.state == gs_pkg::SM_RESERVED);
`ifdef GS_MUT_SMST_RES_AT_ONCE
        // MUTATION: the resources follow the ports at once, as the CTA count does (no lag)
        if (alloc_oh[s]) begin
          e.threads = e.threads + alloc_res_i.threads;
          e.warps = e.warps + alloc_res_i.warps;
          e.regs = e.regs + alloc_res_i.regs;
          e.shmem = e.shmem + alloc_res_i.shmem;
        end
        if (free_oh[s]) begin
          e.threads = e.threads - freed.threads;
          e.warps = e.warps - freed.warps;
          e.regs = e.regs - freed.regs;
          e.shmem = e.shmem - freed.shmem;
        end
`else
        if (palloc_oh[s]) begin
          e.threads = alloc_new.threads;
          e.warps = alloc_new.warps;
          e.regs = alloc_new.regs;
          e.shmem = alloc_new.shmem;
        end else if (pfree_oh[s]) begin
          e.threads = free_new.threads;
          e.warps = free_new.warps;
          e.regs = free_new.regs;
          e.shmem = free_new.shmem;
        end
`endif
        // the CTA count at once: an increment or a decrement per row
        e.ctas = e.ctas + gs_pkg::CtaCntW'(alloc_oh[s]) - gs_pkg::CtaCntW'(free_oh[s]);
        // owner and next after the writes, in the order unreserve (owner := next, next
        // cleared), reserve (next), owner write, then the slot free (a field naming a freed
        // slot cleared). Each a select of terms formed beside it (the slot free of the
        // entry's own owner and next, of the written ones), not a chain through the K slots.
        hit_unres = unreserve_valid_i && unreserve_sm_i == gs_pkg::SmIdW'(s);
        hit_res = reserve_valid_i && reserve_sm_i == gs_pkg::SmIdW'(s);
        hit_own = owner_wr_i.valid && owner_wr_i.sm == gs_pkg::SmIdW'(s);
        gone_owner = slot_free_i[e.owner];
        gone_next = slot_free_i[e.next];
        if (hit_own) begin
          e.owner_valid = owner_wr_i.owner_valid && !gone_wr;
          e.owner = e.owner_valid ? owner_wr_i.owner : '0;
        end else if (hit_unres) begin
          e.owner_valid = e.next_valid && !gone_next;
          e.owner = e.owner_valid ? e.next : '0;
        end else if (e.owner_valid && gone_owner) begin
          e.owner_valid = 1'b0;
          e.owner = '0;
        end
        if (hit_res) begin
          e.next_valid = reserve_next_valid_i && !gone_rsv;
          e.next = e.next_valid ? reserve_next_i : '0;
        end else if (hit_unres || (e.next_valid && gone_next)) begin
          e.next_valid = 1'b0;
          e.next = '0;
        end
        reserved = hit_res || (reserved && !hit_unres);
        for (int k = 0; k < K; k++) begin
          cnt = res_q[(s*K + k)*CW +: CW];
          if (alloc_oh[s] && alloc_slot_i == gs_pkg::SlotW'(k)) cnt = cnt + 1'b1;
          if (free_oh[s] && free_slot_i == gs_pkg::SlotW'(k)) cnt = cnt - 1'b1;
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
  assign pend_alloc_o = pa_q;
  assign pend_free_o = pf_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      // Whole-table reset fills: at MaxSms 132 (and MaxKernels 16) wider than Verilator's 8k-bit
      // sanity limit (WIDTHCONCAT, waived in rtl/lint.vlt).
      tbl_q <= '0;
      res_q <= '0;
      pa_q <= '0;
      pf_q <= '0;
    end else begin
      tbl_q <= tbl_d;
      res_q <= res_d;
      pa_q <= pa_d;
      pf_q <= pf_d;
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
