// gs_quota_table: per-SM per-kernel CTA quotas (Warped-Slicer Sec. III-IV).
// Contract and timing: docs/rtl/gs_quota_table.md
//
// quota[s][k]: at most that many CTAs of KSRT slot k may be resident on SM s while the selected
// policy sets policy_out_t.quota_en (the SM driver enforces it). A policy writes one entry per
// cycle (wr_i); a write that changes its entry is held (pend_q) and reported at the next clock
// edge (rep_o is the registered gs_top quota_*_o), naming the slot's kernel id. One write and
// one report per cycle: at most one change ever waits, so one record holds it -- no mark per
// entry, no search for the next one. A finished kernel's column (slot_free_i) is cleared, and a
// change of it that waits is dropped, without a report. Order within one clock edge: the
// report of the waiting change, then the write, then the column clear.
// Reset: every quota 0 (a kernel waits until its policy has written its quota), nothing waits.
// Storage: quota 132 x 8 x 6 b + waiting change 18 b + report 23 b (MaxSms x MaxKernels x CtaCntW, defaults).
// Latency: a write at edge t is enforced from cycle t+1 and reported at edge t+1.
module gs_quota_table (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  gs_pkg::quota_wr_t    wr_i,
  input  gs_pkg::slot_mask_t   slot_free_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,   // kernel id of a reported slot
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] quota_o,
  output gs_pkg::quota_t       rep_o,
  output gs_pkg::quota_wr_t    pend_o   // the waiting change (lockstep state check; no logic reads it)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;

  logic [N*K*CW-1:0] quota_q, quota_d, quota_a;
  gs_pkg::quota_wr_t pend_q, pend_d, pend_a;   // the change that waits for its report
  gs_pkg::quota_t rep_q, rep_d;
  gs_pkg::ksrt_entry_t e;   // only the kernel id is read

  // Does the write change its entry? One select per entry (the write's decoder) ANDed with that
  // entry's compare, OR-reduced as a tree: no read multiplexer of the table in front of a
  // compare. An index beyond the table (policies write SMs below num_sms) selects nothing.
  logic [N*K-1:0] wr_sel, differs;
  logic wr_changes;
  // (Computed only under wr_i.valid, as the store below: the same gates, and a Verilated model
  // skips both scans in the cycles without a write, which are nearly all.)
  always_comb begin
    wr_sel = '0;
    differs = '0;
    if (wr_i.valid) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < K; k++) begin
          wr_sel[s*K + k] = wr_i.sm == gs_pkg::SmIdW'(s) && wr_i.slot == gs_pkg::SlotW'(k);
          differs[s*K + k] = quota_q[(s*K + k)*CW +: CW] != wr_i.max_ctas;
        end
      end
    end
    wr_changes = (wr_sel & differs) != '0;
  end

  // Report and write read registers and the policy's write only; the column clear of a
  // finishing kernel (slot_free_i, combinational from this cycle's event) comes after, in its
  // own block, so a Verilated model evaluates the large first block once per clock edge.
  always_comb begin
    quota_a = quota_q;

    // report the waiting change (the quota it wrote is still the entry's: a later write of the
    // entry waits in its place, a column clear drops it)
    rep_d = '0;
    rep_d.kernel = gs_pkg::KernelIdW'(gs_pkg::NoKernel);   // an idle report names no kernel
    e = ksrt_i[pend_q.slot*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    if (pend_q.valid) begin
      rep_d.valid = 1'b1;
      rep_d.sm = pend_q.sm;
      rep_d.kernel = e.kernel;
      rep_d.max_ctas = pend_q.max_ctas;
    end

    // a write that changes its entry waits for its report
    pend_a = '0;
`ifdef GS_MUT_QUOTA_NO_REPORT
    // MUTATION: a changed quota is enforced but never reported on the port
`else
`ifdef GS_MUT_QUOTA_REPORT_UNCHANGED
    // MUTATION: a write that leaves its entry as it was is reported too
    if (wr_sel != '0) pend_a = wr_i;
`else
    if (wr_changes) pend_a = wr_i;
`endif
`endif
    // the write itself: a decoder, one enable per entry
    if (wr_i.valid) for (int i = 0; i < N*K; i++) if (wr_sel[i]) quota_a[i*CW +: CW] = wr_i.max_ctas;
  end

  // a finished kernel's column is cleared without a report, its waiting change dropped
  always_comb begin
    quota_d = quota_a;
    pend_d = pend_a;
    for (int k = 0; k < K; k++) begin
      if (slot_free_i[k]) begin
        for (int s = 0; s < N; s++) quota_d[(s*K + k)*CW +: CW] = '0;
      end
    end
`ifndef GS_MUT_QUOTA_CLEAR_KEEPS_PENDING
    // (MUTATION GS_MUT_QUOTA_CLEAR_KEEPS_PENDING keeps it: a freed column's quota is reported)
    // The slot's free bit is picked by the write's slot (a waiting change is the write's), beside
    // the change test, so one AND ends the path.
    if (slot_free_i[wr_i.slot]) pend_d.valid = 1'b0;
`endif
  end

  assign quota_o = quota_q;
  assign rep_o = rep_q;
  assign pend_o = pend_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      // A whole-table reset fill: with MaxKernels 16 (GS_MAX_KERNELS) wider than Verilator's
      // 8k-bit sanity limit (WIDTHCONCAT, waived in rtl/lint.vlt).
      quota_q <= '0;
      pend_q <= '0;
      rep_q <= '0;
      rep_q.kernel <= gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    end else begin
      quota_q <= quota_d;
      pend_q <= pend_d;
      rep_q <= rep_d;
    end
  end
endmodule
