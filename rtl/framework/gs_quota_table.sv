// gs_quota_table: per-SM per-kernel CTA quotas (Warped-Slicer Sec. III-IV).
// Contract and timing: docs/rtl/gs_quota_table.md
//
// quota[s][k]: at most that many CTAs of KSRT slot k may be resident on SM s while the selected
// policy sets policy_out_t.quota_en (the SM driver enforces it). A policy writes one entry per
// cycle (wr_i); an entry whose value changes is marked and reported on the quota port, one
// report per cycle, lowest (SM, slot) first, naming the slot's kernel id (rep_o is the
// registered gs_top quota_*_o). A finished kernel's column (slot_free_i) is cleared without a
// report. Order within one clock edge: the report reads the marks of the registered state,
// then the write (which may mark again), then the column clear.
// Reset: every quota 0 (a kernel waits until its policy has written its quota), no marks.
// Storage: quota 132 x 8 x 6 b + dirty 1,056 b + report 23 b (MaxSms x MaxKernels x CtaCntW, defaults).
// Latency: a write at edge t is enforced from cycle t+1 and reported at the earliest at t+1.
module gs_quota_table (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  gs_pkg::quota_wr_t    wr_i,
  input  gs_pkg::slot_mask_t   slot_free_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,   // kernel id of a reported slot
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] quota_o,
  output gs_pkg::quota_t       rep_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;

  logic [N*K*CW-1:0] quota_q, quota_d, quota_a;
  logic [N*K-1:0] dirty_q, dirty_d, dirty_a;
  gs_pkg::quota_t rep_q, rep_d;
  logic found;
  gs_pkg::ksrt_entry_t e;   // only the kernel id is read

  // Report and write read registers and the policy's write only; the column clear of a
  // finishing kernel (slot_free_i, combinational from this cycle's event) comes after, in its
  // own block, so a Verilated model evaluates the large first block once per clock edge.
  always_comb begin
    quota_a = quota_q;
    dirty_a = dirty_q;

    // report the lowest changed quota (before this cycle's write, so a quota that changes
    // again while being reported is re-marked and reported once more)
    rep_d = '0;
    rep_d.kernel = gs_pkg::KernelIdW'(gs_pkg::NoKernel);   // an idle report names no kernel
    found = 1'b0;
    e = '0;
    if (dirty_q != '0) for (int s = 0; s < N; s++) begin
      for (int k = 0; k < K; k++) begin
        if (!found && dirty_q[s*K + k]) begin
          found = 1'b1;
          dirty_a[s*K + k] = 1'b0;
          e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
          rep_d.valid = 1'b1;
          rep_d.sm = gs_pkg::SmIdW'(s);
          rep_d.kernel = e.kernel;
          rep_d.max_ctas = quota_q[(s*K + k)*CW +: CW];
        end
      end
    end

    if (wr_i.valid) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < K; k++) begin
          if (wr_i.sm == gs_pkg::SmIdW'(s) && wr_i.slot == gs_pkg::SlotW'(k)) begin
`ifdef GS_MUT_QUOTA_NO_REPORT
            // MUTATION: a changed quota is enforced but never reported on the port
`else
            if (quota_q[(s*K + k)*CW +: CW] != wr_i.max_ctas) dirty_a[s*K + k] = 1'b1;
`endif
            quota_a[(s*K + k)*CW +: CW] = wr_i.max_ctas;
          end
        end
      end
    end
  end

  // a finished kernel's column is cleared without a report
  always_comb begin
    quota_d = quota_a;
    dirty_d = dirty_a;
    for (int k = 0; k < K; k++) begin
      if (slot_free_i[k]) begin
        for (int s = 0; s < N; s++) begin
          quota_d[(s*K + k)*CW +: CW] = '0;
          dirty_d[s*K + k] = 1'b0;
        end
      end
    end
  end

  assign quota_o = quota_q;
  assign rep_o = rep_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      // A whole-table reset fill: with MaxKernels 16 (GS_MAX_KERNELS) wider than Verilator's
      // 8k-bit sanity limit (WIDTHCONCAT, waived in rtl/lint.vlt).
      quota_q <= '0;
      dirty_q <= '0;
      rep_q <= '0;
      rep_q.kernel <= gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    end else begin
      quota_q <= quota_d;
      dirty_q <= dirty_d;
      rep_q <= rep_d;
    end
  end
endmodule
