// gs_sm_driver: the SM driver (Tanasic Sec. 3.2, Fig. 3; Sec. 3.3).
// Contract and timing: docs/rtl/gs_sm_driver.md
//
// Each cycle picks at most one (SM, kernel) pair and issues one CTA of that kernel:
//   * kernel k has work: valid, and a preempted CTA in its PTBQ or next_cta < grid;
//   * SM s is usable: s < cfg_num_sms, not reserved (a reserved SM waits for its preemption);
//   * the policy makes k eligible on s (elig_i bit s*MaxKernels+k: an owned SM, PPQ's
//     exclusive top priority, ...);
//   * the CTA fits the SM's free threads, warps, registers, shared memory and CTA slots;
//   * with quota_en_i, the kernel's resident CTAs on s stay below quota_i[s][k]
//     (gs_quota_table); with cfg_cta_limit_i != 0 also below cfg_cta_limit_i (any policy);
//   * per SM the kernel with the lowest key_i wins (the policy's order: FIFO rank or priority);
//   * SMs are scanned round-robin from the one after the last dispatch.
// A preempted CTA (PTBQ head) is issued before fresh CTAs of the same kernel (resume = 1).
// The decision is made from registered state only; the SMST/KSRT/PTBQ updates it causes
// happen in the same clock edge that loads dispatch_o, so the model sees the dispatch in the
// cycle after the decision (latency 1) and the next decision already accounts for it.
// Storage (MaxSms 132): rr pointer (8 b) + dispatch record (38 b).
module gs_sm_driver (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::ThreadW-1:0] cfg_sm_threads_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::WarpW-1:0]   cfg_sm_warps_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::RegW-1:0]    cfg_sm_regs_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::ShmemW-1:0]  cfg_sm_shmem_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::CtaCntW-1:0] cfg_sm_ctas_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::SmstW-1:0]   smst_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::PtbqCntW-1:0] ptbq_count_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::CtaIdW-1:0]   ptbq_head_i,
  input  gs_pkg::cta_cnt_t      cfg_cta_limit_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0] elig_i,
  input  logic                  quota_en_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] quota_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::OrderKeyW-1:0] key_i,
  output logic                  issue_valid_o,
  output gs_pkg::sm_id_t        issue_sm_o,
  output gs_pkg::slot_t         issue_slot_o,
  output logic                  issue_resume_o,
  output gs_pkg::cta_res_t      issue_res_o,
  output gs_pkg::dispatch_t     dispatch_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int KW = gs_pkg::OrderKeyW;

  gs_pkg::sm_id_t rr_q, rr_d;
  gs_pkg::dispatch_t dispatch_q, dispatch_d;

  gs_pkg::slot_mask_t work;
  gs_pkg::ksrt_entry_t e, ei;   // scratch entry reads (not every field is needed here)
  gs_pkg::smst_entry_t m;
  logic [N-1:0] cand;
  logic [N*gs_pkg::SlotW-1:0] cand_slot;
  logic has, fits, usable, quota_ok, owner_ok;   // owner_ok: the policy's elig_i bit
  logic [N-1:0] from_rr, cand_rr;
  logic found, found_rr;
  logic [((N > 1) ? $clog2(N) : 1)-1:0] first_rr, first_any;
  gs_pkg::slot_t best;
  logic [KW-1:0] best_key, key;
  gs_pkg::cta_cnt_t resid, quota, cap_ctas;

  // per-kernel CTA demand, extracted from the KSRT once (not once per SM). Flat vectors, not
  // packed arrays of the field typedefs (Yosys 0.23 drops that dimension; gs_pkg.sv).
  logic [K*gs_pkg::ThreadW-1:0] k_threads;
  logic [K*gs_pkg::WarpW-1:0] k_warps;
  logic [K*gs_pkg::RegW-1:0] k_regs;
  logic [K*gs_pkg::ShmemW-1:0] k_shmem;   // unread in the GS_MUT_SKIP_CAPACITY_CHECK mutant

  always_comb begin
    // kernels with CTAs to issue
    work = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      work[k] = e.valid &&
                (ptbq_count_i[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW] != '0 || e.next_cta != e.grid);
      k_threads[k*gs_pkg::ThreadW +: gs_pkg::ThreadW] = e.threads;
      k_warps[k*gs_pkg::WarpW +: gs_pkg::WarpW] = e.warps;
      k_regs[k*gs_pkg::RegW +: gs_pkg::RegW] = e.regs;
      k_shmem[k*gs_pkg::ShmemW +: gs_pkg::ShmemW] = e.shmem;
    end

    // per SM: the best kernel (lowest key) whose next CTA fits. An SM that is not usable, or
    // a kernel without work, cannot be a candidate: those iterations are skipped (same
    // result; it keeps a Verilated model from evaluating 256 fit checks every cycle).
    cand = '0;
    cand_slot = '0;
    key = '0;
    resid = '0;
    quota = '0;
    owner_ok = 1'b0;
    quota_ok = 1'b0;
    fits = 1'b0;
    m = '0;
    cap_ctas = '0;
    usable = 1'b0;
    for (int s = 0; s < N; s++) begin
      has = 1'b0;
      best = '0;
      best_key = '0;
      // SMs beyond cfg_num_sms are not read at all
      if ((gs_pkg::SmIdW+1)'(s) < cfg_num_sms_i && work != '0) begin
        m = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
        cap_ctas = cfg_sm_ctas_i[s*CW +: CW];
`ifdef GS_MUT_DISPATCH_RESERVED
        // MUTATION: a reserved SM keeps receiving CTAs while it is being preempted
        usable = 1'b1;
`else
        usable = (m.state != gs_pkg::SM_RESERVED);
`endif
      end else begin
        usable = 1'b0;
      end
      if (usable) begin
        for (int k = 0; k < K; k++) begin
          if (work[k]) begin
            key = key_i[k*KW +: KW];
            resid = resident_i[(s*K + k)*CW +: CW];
            quota = quota_i[(s*K + k)*CW +: CW];
            owner_ok = elig_i[s*K + k];
            quota_ok = (!quota_en_i || (resid < quota)) && (cfg_cta_limit_i == '0 || resid < cfg_cta_limit_i);
            fits = ({1'b0, m.threads} + {1'b0, k_threads[k*gs_pkg::ThreadW +: gs_pkg::ThreadW]} <= {1'b0, cfg_sm_threads_i[s*gs_pkg::ThreadW +: gs_pkg::ThreadW]})
                && ({1'b0, m.warps} + {1'b0, k_warps[k*gs_pkg::WarpW +: gs_pkg::WarpW]} <= {1'b0, cfg_sm_warps_i[s*gs_pkg::WarpW +: gs_pkg::WarpW]})
                && ({1'b0, m.regs} + {1'b0, k_regs[k*gs_pkg::RegW +: gs_pkg::RegW]} <= {1'b0, cfg_sm_regs_i[s*gs_pkg::RegW +: gs_pkg::RegW]})
`ifndef GS_MUT_SKIP_CAPACITY_CHECK
                // (MUTATION GS_MUT_SKIP_CAPACITY_CHECK drops this shared-memory check)
                && ({1'b0, m.shmem} + {1'b0, k_shmem[k*gs_pkg::ShmemW +: gs_pkg::ShmemW]} <= {1'b0, cfg_sm_shmem_i[s*gs_pkg::ShmemW +: gs_pkg::ShmemW]})
`endif
                && (m.ctas < cap_ctas);
            if (owner_ok && quota_ok && fits && (!has || key < best_key)) begin
              has = 1'b1;
              best = gs_pkg::SlotW'(k);
              best_key = key;
            end
          end
        end
      end
      cand[s] = has;
      cand_slot[s*gs_pkg::SlotW +: gs_pkg::SlotW] = best;
    end

    cand_rr = cand & from_rr;
  end

  // round robin over SMs: the first candidate at or after rr_q, else the first one (two
  // log-depth find-first-set trees instead of a scan)
  for (genvar s = 0; s < N; s++) begin : g_from_rr
    assign from_rr[s] = gs_pkg::SmIdW'(s) >= rr_q;
  end
  gs_ffs #(.Width(N)) u_first_from_rr (.req_i(cand_rr), .valid_o(found_rr), .idx_o(first_rr));
  gs_ffs #(.Width(N)) u_first_any (.req_i(cand), .valid_o(found), .idx_o(first_any));

  always_comb begin
    issue_sm_o = gs_pkg::SmIdW'(found_rr ? first_rr : first_any);
    issue_slot_o = cand_slot[issue_sm_o*gs_pkg::SlotW +: gs_pkg::SlotW];
    issue_valid_o = found;

    // the chosen kernel's record: PTBQ head first, else the next fresh CTA
    ei = '0;
    issue_resume_o = 1'b0;
    dispatch_d = '0;
    for (int k = 0; k < K; k++) begin
      if (issue_slot_o == gs_pkg::SlotW'(k)) begin
        ei = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
        issue_resume_o = found && (ptbq_count_i[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW] != '0);
        dispatch_d.cta = issue_resume_o ? ptbq_head_i[k*gs_pkg::CtaIdW +: gs_pkg::CtaIdW] : ei.next_cta;
      end
    end
    issue_res_o.threads = ei.threads;
    issue_res_o.warps = ei.warps;
    issue_res_o.regs = ei.regs;
    issue_res_o.shmem = ei.shmem;
    dispatch_d.valid = found;
    dispatch_d.sm = issue_sm_o;
    dispatch_d.kernel = found ? ei.kernel : gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    dispatch_d.resume = issue_resume_o;
    if (!found) dispatch_d.cta = '0;

    rr_d = rr_q;
    if (found) begin
      rr_d = issue_sm_o + 1'b1;
      if ({1'b0, rr_d} >= cfg_num_sms_i) rr_d = '0;
    end
  end

  assign dispatch_o = dispatch_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      rr_q <= '0;
      dispatch_q <= '0;
      dispatch_q.kernel <= gs_pkg::KernelIdW'(gs_pkg::NoKernel);   // an idle record names no kernel
    end else begin
      rr_q <= rr_d;
      dispatch_q <= dispatch_d;
    end
  end

`ifndef SYNTHESIS
  // invariants (docs/verification.md): no SM over any capacity; no CTA issued to a reserved SM
  for (genvar s = 0; s < N; s++) begin : g_inv
    gs_pkg::smst_entry_t ent;
    assign ent = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
    assert property (@(posedge clk_i) disable iff (!rst_ni)
        ent.threads <= cfg_sm_threads_i[s*gs_pkg::ThreadW +: gs_pkg::ThreadW]
        && ent.warps <= cfg_sm_warps_i[s*gs_pkg::WarpW +: gs_pkg::WarpW]
        && ent.regs <= cfg_sm_regs_i[s*gs_pkg::RegW +: gs_pkg::RegW]
        && ent.shmem <= cfg_sm_shmem_i[s*gs_pkg::ShmemW +: gs_pkg::ShmemW]
        && ent.ctas <= cfg_sm_ctas_i[s*CW +: CW])
      else $error("gs_sm_driver: SM %0d over capacity: threads %0d warps %0d regs %0d shmem %0d ctas %0d",
                  s, ent.threads, ent.warps, ent.regs, ent.shmem, ent.ctas);
  end
  gs_pkg::smst_entry_t issued_m;
  always_comb begin
    issued_m = '0;
    for (int s = 0; s < N; s++) begin
      if (issue_sm_o == gs_pkg::SmIdW'(s)) issued_m = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
    end
  end
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      issue_valid_o |-> issued_m.state != gs_pkg::SM_RESERVED)
    else $error("gs_sm_driver: CTA issued to reserved SM %0d", issue_sm_o);
`endif
endmodule
