// gsched: gs_policy_even -- Even intra-SM partitioning (Warped-Slicer Sec. III, Fig. 2c).
//
// Each of the K kernels with CTAs left to issue gets 1/K of every SM resource, expressed as a
// per-SM per-kernel CTA quota enforced by the SM driver:
//   quota[s][k] = max(1, min(floor(floor(cap_r[s] / K) / per_cta_r[k]) over r in
//                 {threads, warps, regs, shmem} (a resource a CTA does not use does not
//                 limit), floor(cta_slots[s] / K), MaxCtasPerSm))
// (the floor of 1 keeps a kernel whose CTA exceeds its share from starving; it then runs
// one CTA per SM as its resources allow). Integer division, identical in the golden twin.
// Recomputation starts when the set of such kernels changes and takes one (SM, slot) pair
// per cycle: quotas are final num_sms*MaxKernels cycles after the change (a further change
// restarts it). Until its pair is computed a new kernel's quota is 0 (it waits).
// Every quota that changes is reported on the quota port, one per cycle, lowest (SM, slot)
// first; a kernel's column is cleared silently when it finishes.
// The sequencing is gs_repartition_scan with MaxKernels steps (slots) per SM.
// Storage: quota table 32 x 8 x 6 b + dirty bits 256 + report 21 b + the scan's
// (busy 1, SM 6, slot 3, target 8, done 8, K 4 b).
module gs_policy_even (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::ThreadW-1:0] cfg_sm_threads_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::WarpW-1:0]   cfg_sm_warps_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::RegW-1:0]    cfg_sm_regs_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::ShmemW-1:0]  cfg_sm_shmem_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::CtaCntW-1:0] cfg_sm_ctas_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,
  input  gs_pkg::slot_mask_t pending_i,
  input  gs_pkg::slot_mask_t slot_free_i,
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] quota_o,
  output gs_pkg::quota_t quota_rep_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int KCW = gs_pkg::SlotW + 1;   // holds 0..MaxKernels

  logic [N*K*CW-1:0] quota_q, quota_d, quota_a;
  logic [N*K-1:0] dirty_q, dirty_d, dirty_a;
  gs_pkg::quota_t rep_q, rep_d;

  // one (SM, slot) pair per step
  logic step;
  /* verilator lint_off UNUSEDSIGNAL */
  logic start;   // a restart needs nothing here: the first step rewrites the first pair
  /* verilator lint_on UNUSEDSIGNAL */
  gs_pkg::sm_id_t scan_sm;
  gs_pkg::slot_t scan_slot;
  gs_pkg::slot_mask_t target;
  logic [KCW-1:0] nk;
  gs_repartition_scan #(.Inner(K)) u_scan (
    .clk_i, .rst_ni, .en_i, .cfg_num_sms_i, .pending_i,
    .start_o(start), .step_o(step), .sm_o(scan_sm), .inner_o(scan_slot), .target_o(target), .nk_o(nk)
  );

  /* verilator lint_off UNUSEDSIGNAL */
  gs_pkg::ksrt_entry_t e;
  /* verilator lint_on UNUSEDSIGNAL */
  logic found;
  gs_pkg::threads_t cap_t, q_t;
  gs_pkg::warps_t cap_w, q_w;
  gs_pkg::regs_t cap_r, q_r;
  gs_pkg::shmem_t cap_s, q_s;
  gs_pkg::cta_cnt_t cap_c, q_c, q;

  // Next state in two blocks: the scan step and the report read registers only; the column
  // clear of a finishing kernel (slot_free_i, combinational from this cycle's event) comes
  // after. Kept apart, a Verilated model evaluates the large first block once per clock
  // instead of on every change of an input port.
  always_comb begin
    quota_a = quota_q;
    dirty_a = dirty_q;

    // the quota of pair (scan_sm, scan_slot); only a scan step uses it, so it is not evaluated
    // otherwise (q stays at its default: same outputs, and a Verilated model skips the four
    // divisions while the policy is idle or disabled)
    e = '0;
    cap_t = '0; cap_w = '0; cap_r = '0; cap_s = '0; cap_c = '0;
    q_t = '0; q_w = '0; q_r = '0; q_s = '0; q_c = '0;
    q = CW'(gs_pkg::MaxCtasPerSm);
    if (step) begin
      for (int k = 0; k < K; k++) begin
        if (scan_slot == gs_pkg::SlotW'(k)) e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      end
      for (int s = 0; s < N; s++) begin
        if (scan_sm == gs_pkg::SmIdW'(s)) begin
          cap_t = cfg_sm_threads_i[s*gs_pkg::ThreadW +: gs_pkg::ThreadW];
          cap_w = cfg_sm_warps_i[s*gs_pkg::WarpW +: gs_pkg::WarpW];
          cap_r = cfg_sm_regs_i[s*gs_pkg::RegW +: gs_pkg::RegW];
          cap_s = cfg_sm_shmem_i[s*gs_pkg::ShmemW +: gs_pkg::ShmemW];
          cap_c = cfg_sm_ctas_i[s*CW +: CW];
        end
      end
      if (nk != '0) begin
        q_t = (e.threads == '0) ? gs_pkg::ThreadW'(gs_pkg::MaxCtasPerSm) : (cap_t / gs_pkg::ThreadW'(nk)) / e.threads;
        q_w = (e.warps == '0) ? gs_pkg::WarpW'(gs_pkg::MaxCtasPerSm) : (cap_w / gs_pkg::WarpW'(nk)) / e.warps;
        q_r = (e.regs == '0) ? gs_pkg::RegW'(gs_pkg::MaxCtasPerSm) : (cap_r / gs_pkg::RegW'(nk)) / e.regs;
        q_s = (e.shmem == '0) ? gs_pkg::ShmemW'(gs_pkg::MaxCtasPerSm) : (cap_s / gs_pkg::ShmemW'(nk)) / e.shmem;
        q_c = cap_c / CW'(nk);
        if (q_t < gs_pkg::ThreadW'(q)) q = q_t[CW-1:0];
        if (q_w < gs_pkg::WarpW'(q)) q = q_w[CW-1:0];
        if (q_r < gs_pkg::RegW'(q)) q = q_r[CW-1:0];
        if (q_s < gs_pkg::ShmemW'(q)) q = q_s[CW-1:0];
        if (q_c < q) q = q_c;
        if (q == '0) q = CW'(1);
      end
    end

    // report the lowest changed quota (before this cycle's write, so a quota that changes
    // again while being reported is re-marked and reported once more)
    rep_d = '0;
    rep_d.kernel = gs_pkg::KernelIdW'(gs_pkg::NoKernel);   // an idle report names no kernel
    found = 1'b0;
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

    if (step) begin
      for (int s = 0; s < N; s++) begin
        for (int k = 0; k < K; k++) begin
          if (scan_sm == gs_pkg::SmIdW'(s) && scan_slot == gs_pkg::SlotW'(k) && target[k]) begin
            if (quota_q[(s*K + k)*CW +: CW] != q) dirty_a[s*K + k] = 1'b1;
            quota_a[(s*K + k)*CW +: CW] = q;
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
  assign quota_rep_o = rep_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
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
