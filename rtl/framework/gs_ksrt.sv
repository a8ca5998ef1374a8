// gs_ksrt: Kernel Status Register Table (Tanasic Sec. 3.3, Fig. 4).
// Contract and timing: docs/rtl/gs_ksrt.md
//
// One Kernel Status Register per active kernel: kernel id, context, priority, DSS token count,
// per-CTA threads/warps/registers/shared memory, grid size, next fresh CTA id and CTAs done.
// Write ports (all may act in the same cycle, on the same or different slots):
//   alloc  -- the Active Queue admits a launch into a free slot (tokens = launch budget);
//   issue  -- the SM driver issued a fresh CTA of the slot: next_cta + 1;
//   done   -- a CTA of the slot finished: done + 1; the slot is freed in the same edge when
//             done reaches grid (free_o, combinational, tells the other tables);
//   tokens -- DSS: +1 on one slot and -1 on one slot (signed, debt allowed).
// lookup_* maps an event's kernel id to its slot (combinational CAM over valid entries).
// Storage: MaxKernels x KsrtW = 8 x 146 = 1,168 flops.
module gs_ksrt (
  input  logic                    clk_i,
  input  logic                    rst_ni,
  input  logic                    alloc_valid_i,
  input  gs_pkg::slot_t           alloc_slot_i,
  input  gs_pkg::launch_t         alloc_launch_i,
  input  logic                    issue_valid_i,
  input  gs_pkg::slot_t           issue_slot_i,
  input  logic                    done_valid_i,
  input  gs_pkg::slot_t           done_slot_i,
  input  gs_pkg::token_upd_t      tok_i,
  input  gs_pkg::kernel_id_t      lookup_kernel_i,
  output logic                    lookup_hit_o,
  output gs_pkg::slot_t           lookup_slot_o,
  output logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] entries_o,
  output gs_pkg::slot_mask_t      valid_o,
  output gs_pkg::slot_mask_t      free_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_cta_reissue, "GS_MUT_CTA_REISSUE")
  localparam int K = gs_pkg::MaxKernels;
  localparam int W = gs_pkg::KsrtW;

  logic [K*W-1:0] tbl_q, tbl_d;
  gs_pkg::ksrt_entry_t e;
  logic [gs_pkg::TokenW-1:0] tok;

  gs_pkg::ksrt_entry_t r;

  // event lookup: kernel id -> slot. A kernel id is in at most one valid entry (a relaunch
  // enters the KSRT only after its previous instance left it; asserted below), so the match
  // vector is one-hot and the slot is its AND-OR encoding, not a priority chain.
  logic [K-1:0] lookup_match;
  always_comb begin
    lookup_slot_o = '0;
    for (int k = 0; k < K; k++) begin
      r = tbl_q[k*W +: W];
      lookup_match[k] = r.valid && r.kernel == lookup_kernel_i;
      lookup_slot_o = lookup_slot_o | ({gs_pkg::SlotW{lookup_match[k]}} & gs_pkg::SlotW'(k));
    end
    lookup_hit_o = |lookup_match;
  end

  // valid bits and the slot freed by this cycle's finished CTA
  gs_pkg::ksrt_entry_t f;
  always_comb begin
    free_o = '0;
    valid_o = '0;
    for (int k = 0; k < K; k++) begin
      f = tbl_q[k*W +: W];
      valid_o[k] = f.valid;
      if (done_valid_i && done_slot_i == gs_pkg::SlotW'(k) && f.done + 1'b1 == f.grid) free_o[k] = 1'b1;
    end
  end

  // write side. Only the slots a write port addresses are recomputed; the others keep their
  // register value, which is what the full recomputation gives (same function; a Verilated
  // model skips the unaddressed 145-bit entries).
  always_comb begin
    tbl_d = tbl_q;
    e = '0;
    tok = '0;
    for (int k = 0; k < K; k++) begin
      if ((alloc_valid_i && alloc_slot_i == gs_pkg::SlotW'(k)) || (issue_valid_i && issue_slot_i == gs_pkg::SlotW'(k))
          || (done_valid_i && done_slot_i == gs_pkg::SlotW'(k)) || (tok_i.inc_valid && tok_i.inc == gs_pkg::SlotW'(k))
          || (tok_i.dec_valid && tok_i.dec == gs_pkg::SlotW'(k))) begin
        e = tbl_q[k*W +: W];
        if (issue_valid_i && issue_slot_i == gs_pkg::SlotW'(k)) begin
          // (GS_MUT_CTA_REISSUE: the issue write is lost when a CTA of the same kernel retires this cycle)
          if (!(mut_cta_reissue && done_valid_i && done_slot_i == gs_pkg::SlotW'(k))) e.next_cta = e.next_cta + 1'b1;
        end
        if (done_valid_i && done_slot_i == gs_pkg::SlotW'(k)) begin
          e.done = e.done + 1'b1;
          if (e.done == e.grid) e.valid = 1'b0;
        end
        tok = e.tokens;
        if (tok_i.inc_valid && tok_i.inc == gs_pkg::SlotW'(k)) tok = tok + 1'b1;
        if (tok_i.dec_valid && tok_i.dec == gs_pkg::SlotW'(k)) tok = tok - 1'b1;
        e.tokens = tok;
        if (alloc_valid_i && alloc_slot_i == gs_pkg::SlotW'(k)) begin
          e.valid = 1'b1;
          e.kernel = alloc_launch_i.kernel;
          e.ctx = alloc_launch_i.ctx;
          e.prio = alloc_launch_i.prio;
          e.tokens = alloc_launch_i.tokens;
          e.threads = alloc_launch_i.threads;
          e.warps = alloc_launch_i.warps;
          e.regs = alloc_launch_i.regs;
          e.shmem = alloc_launch_i.shmem;
          e.grid = alloc_launch_i.grid;
          e.next_cta = '0;
          e.done = '0;
        end
        tbl_d[k*W +: W] = e;
      end
    end
  end

  assign entries_o = tbl_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) tbl_q <= '0;
    else tbl_q <= tbl_d;
  end

`ifndef SYNTHESIS
  // g_view[k].entry: slot k decoded as ksrt_entry_t, simulation only -- the per-slot rows of
  // verif/waves/ksrt.gtkw and what the invariant reads.
  // Invariant (docs/verification.md): CTAs done <= CTAs issued <= grid for every valid slot
  for (genvar k = 0; k < K; k++) begin : g_view
    gs_pkg::ksrt_entry_t entry;
    assign entry = tbl_q[k*W +: W];
    assert property (@(posedge clk_i) disable iff (!rst_ni)
                     entry.valid |-> (entry.next_cta <= entry.grid && entry.done <= entry.grid))
      else $error("gs_ksrt: slot %0d next_cta %0d done %0d grid %0d", k, entry.next_cta, entry.done, entry.grid);
  end
  assert property (@(posedge clk_i) disable iff (!rst_ni) alloc_valid_i |-> alloc_launch_i.grid != '0)
    else $error("gs_ksrt: kernel with an empty grid admitted");
  assert property (@(posedge clk_i) disable iff (!rst_ni) $onehot0(lookup_match))
    else $error("gs_ksrt: kernel %0d is in two valid entries (%b)", lookup_kernel_i, lookup_match);
`endif
endmodule
