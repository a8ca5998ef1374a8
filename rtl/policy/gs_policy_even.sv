// gs_policy_even: Even intra-SM partitioning (Warped-Slicer Sec. III, Fig. 2c).
// Contract and timing: docs/rtl/gs_policy_even.md
//
// Each of the K kernels with CTAs left to issue gets 1/K of every SM resource, expressed as a
// per-SM per-kernel CTA quota that the framework's quota table (gs_quota_table) holds and
// the SM driver enforces:
//   quota[s][k] = max(1, min(floor(floor(cap_r[s] / K) / per_cta_r[k]) over r in
//                 {threads, warps, regs, shmem} (a resource a CTA does not use does not
//                 limit), floor(cta_slots[s] / K), MaxCtasPerSm))
// (the floor of 1 keeps a kernel whose CTA exceeds its share from starving; it then runs
// one CTA per SM as its resources allow). Integer division, identical in the golden twin.
// Recomputation starts when the set of such kernels changes and writes one (SM, slot) pair
// per cycle: quotas are final num_sms*MaxKernels cycles after the change (a further change
// restarts it). Until its pair is written a new kernel's quota is 0 (it waits). The table
// reports every changed quota on the quota port.
// The sequencing is gs_repartition_scan with MaxKernels steps (slots) per SM.
// Policy contract: docs/adding-a-policy.md. Storage: the scan's (busy 1, SM 8, slot 3,
// target 8, done 8, K 4 b); the quotas live in gs_quota_table.
module gs_policy_even (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::scan_state_t   state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int KCW = gs_pkg::SlotW + 1;   // holds 0..MaxKernels

  // one (SM, slot) pair per step
  logic step;
  logic start;   // a restart needs nothing here: the first step rewrites the first pair
  gs_pkg::sm_id_t scan_sm;
  gs_pkg::slot_t scan_slot;
  gs_pkg::slot_mask_t target;
  logic [KCW-1:0] nk;
  gs_repartition_scan #(.Inner(K)) u_scan (
    .clk_i, .rst_ni, .en_i, .cfg_num_sms_i(cfg_i.num_sms), .pending_i(view_i.pending),
    .start_o(start), .step_o(step), .sm_o(scan_sm), .inner_o(scan_slot), .target_o(target), .nk_o(nk),
    .state_o
  );

  gs_pkg::ksrt_entry_t e;
  gs_pkg::threads_t cap_t, q_t;
  gs_pkg::warps_t cap_w, q_w;
  gs_pkg::regs_t cap_r, q_r;
  gs_pkg::shmem_t cap_s, q_s;
  gs_pkg::cta_cnt_t cap_c, q_c, q;

  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  logic [N*gs_pkg::ThreadW-1:0] sm_threads;
  logic [N*gs_pkg::WarpW-1:0] sm_warps;
  logic [N*gs_pkg::RegW-1:0] sm_regs;
  logic [N*gs_pkg::ShmemW-1:0] sm_shmem;
  logic [N*CW-1:0] sm_ctas;
  assign ksrt = view_i.ksrt;
  assign sm_threads = cfg_i.sm_threads;
  assign sm_warps = cfg_i.sm_warps;
  assign sm_regs = cfg_i.sm_regs;
  assign sm_shmem = cfg_i.sm_shmem;
  assign sm_ctas = cfg_i.sm_ctas;

  // The quota of pair (scan_sm, scan_slot), written into the quota table on a scan step of
  // a target kernel. Only a step uses it, so it is not evaluated otherwise (q stays at its
  // default: same outputs, and a Verilated model skips the four divisions while idle).
  always_comb begin
    e = '0;
    cap_t = '0; cap_w = '0; cap_r = '0; cap_s = '0; cap_c = '0;
    q_t = '0; q_w = '0; q_r = '0; q_s = '0; q_c = '0;
    q = CW'(gs_pkg::MaxCtasPerSm);
    if (step) begin
      for (int k = 0; k < K; k++) begin
        if (scan_slot == gs_pkg::SlotW'(k)) e = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      end
      for (int s = 0; s < N; s++) begin
        if (scan_sm == gs_pkg::SmIdW'(s)) begin
          cap_t = sm_threads[s*gs_pkg::ThreadW +: gs_pkg::ThreadW];
          cap_w = sm_warps[s*gs_pkg::WarpW +: gs_pkg::WarpW];
          cap_r = sm_regs[s*gs_pkg::RegW +: gs_pkg::RegW];
          cap_s = sm_shmem[s*gs_pkg::ShmemW +: gs_pkg::ShmemW];
          cap_c = sm_ctas[s*CW +: CW];
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
  end

  // FIFO order among kernels (as left-over)
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(ksrt), .rank_i(view_i.rank), .key_o(key));

  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = '1;           // every kernel may issue anywhere, within its quota
    out_o.quota_en = 1'b1;
    if (step && target[scan_slot]) begin
      out_o.quota_wr.valid = 1'b1;
      out_o.quota_wr.sm = scan_sm;
      out_o.quota_wr.slot = scan_slot;
      out_o.quota_wr.max_ctas = q;
    end
  end
endmodule
