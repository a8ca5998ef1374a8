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

  // The entry the write replaces, read once: an indexed read (a log-depth multiplexer) rather
  // than a compare per entry. wr_hit: the write is inside the table (policies write SMs below
  // num_sms; an index beyond it reads entry 0 and writes nothing).
  logic wr_hit;
  logic [CW-1:0] wr_old;
  always_comb begin
    wr_hit = wr_i.valid && 32'(wr_i.sm) < 32'(N) && 32'(wr_i.slot) < 32'(K);
    wr_old = quota_q[(wr_hit ? 32'(wr_i.sm) * 32'(K) + 32'(wr_i.slot) : 32'd0) * 32'(CW) +: CW];
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
    if (wr_hit) pend_a = wr_i;
`else
    if (wr_hit && wr_old != wr_i.max_ctas) pend_a = wr_i;
`endif
`endif
    // the write itself: a decoder, one enable per entry
    for (int s = 0; s < N; s++) begin
      for (int k = 0; k < K; k++) begin
        if (wr_i.valid && wr_i.sm == gs_pkg::SmIdW'(s) && wr_i.slot == gs_pkg::SlotW'(k))
          quota_a[(s*K + k)*CW +: CW] = wr_i.max_ctas;
      end
    end
  end

  // a finished kernel's column is cleared without a report, its waiting change dropped
  always_comb begin
    quota_d = quota_a;
    pend_d = pend_a;
    for (int k = 0; k < K; k++) begin
      if (slot_free_i[k]) begin
        for (int s = 0; s < N; s++) quota_d[(s*K + k)*CW +: CW] = '0;
`ifndef GS_MUT_QUOTA_CLEAR_KEEPS_PENDING
        // (MUTATION GS_MUT_QUOTA_CLEAR_KEEPS_PENDING keeps it: a freed column's quota is reported)
        if (pend_a.slot == gs_pkg::SlotW'(k)) pend_d.valid = 1'b0;
`endif
      end
    end
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
