// gs_top: the scheduler top: one decision port to the GPU model.
// Contract and timing: docs/rtl/gs_top.md
//
// Composes the Tanasic framework (Fig. 4) -- Command Buffers, Active Queue, KSRT, SMST, PTBQ,
// quota table, SM driver, preemption control -- with the policies of the build (gs_policies,
// generated from the registry in rtl/spec/gs_spec.toml), selected by cfg_policy_i (static
// after reset). Every policy sits behind one contract (policy_cfg_t, policy_view_t,
// policy_event_t -> policy_out_t; docs/adding-a-policy.md), so nothing here names a policy.
// Decision port contract: cmodel/sched/scheduler_port.hpp. One clock = one core cycle = one SchedulerPort::step():
// every decision output is a register loaded from the state at the start of the cycle, and
// the inputs of the cycle (launch, event) are clocked into the tables at the same edge.
// launch_ready_o depends on registered state only. Kernel id 8'hFF = none.
// Per-SM capacity ports are flat packed vectors: SM i's field is bits [i*W +: W].
// The golden twin of this composition is cmodel/sched/golden/golden_scheduler.cpp.
module gs_top #(
  // the policies this build contains, one bit per gs_pkg::policy_e member (Ibex-style build-time
  // selection: synthesize one family alone by clearing the others). Spelled as a replication:
  // Yosys 0.23 reads a '1 default of this typedef'd parameter as 1.
  parameter gs_pkg::policy_set_t PolicySet = {gs_pkg::NumPolicies{1'b1}}
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  // static configuration
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  input  gs_pkg::policy_e        cfg_policy_i,
  input  gs_pkg::preempt_mode_e  cfg_preempt_mode_i,
  input  gs_pkg::cta_cnt_t       cfg_cta_limit_i,     // CTAs of one kernel per SM, any policy (0 = none)
  input  logic                   cfg_sm_exclusive_i,  // one kernel per SM (policies with sm_sharing)
  // the SMs by type: each type's capacities (type t at [t*W +: W]) and each SM's type
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::ThreadW-1:0] cfg_type_threads_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::WarpW-1:0]   cfg_type_warps_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::RegW-1:0]    cfg_type_regs_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::ShmemW-1:0]  cfg_type_shmem_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::CtaCntW-1:0] cfg_type_ctas_i,
  input  logic [gs_pkg::MaxSmTypes-1:0] cfg_type_big_i,    // type t is a big SM (the SM type named big)
  input  logic [gs_pkg::MaxSms*gs_pkg::SmTypeW-1:0] cfg_sm_type_i,  // SM s's type at [s*SmTypeW +: SmTypeW]
  input  gs_pkg::sched_cnt_t     cfg_warp_scheds_i,   // warp schedulers of SM 0
  input  gs_pkg::wf_res_t        cfg_base_sm_i,       // a conventional SM's capacities (HeteroCore's #CTA^base)
  input  gs_pkg::policy_settings_t cfg_settings_i,    // every policy module's settings (the registry's sections)
  // kernel launch
  input  logic                   launch_valid_i,
  input  gs_pkg::kernel_id_t     launch_kernel_i,
  input  gs_pkg::ctx_t           launch_ctx_i,
  input  gs_pkg::prio_t          launch_prio_i,
  input  gs_pkg::tokens_t        launch_tokens_i,
  input  gs_pkg::threads_t       launch_threads_i,
  input  gs_pkg::warps_t         launch_warps_i,
  input  gs_pkg::regs_t          launch_regs_i,
  input  gs_pkg::shmem_t         launch_shmem_i,
  input  gs_pkg::cta_id_t        launch_grid_i,
  output logic                   launch_ready_o,
  // SM event
  input  logic                   event_valid_i,
  input  gs_pkg::sm_event_e      event_type_i,
  input  gs_pkg::sm_id_t         event_sm_i,
  input  gs_pkg::kernel_id_t     event_kernel_i,
  input  gs_pkg::cta_id_t        event_cta_i,
  input  gs_pkg::cycle_t         event_start_cycle_i,  // the CTA's residency began (finished/saved)
  input  gs_pkg::cycle_t         event_end_cycle_i,
  // observation sample: one SM's counters for one kernel over the epoch ending at obs_cycle_i
  input  logic                   obs_valid_i,
  input  gs_pkg::sm_id_t         obs_sm_i,
  input  gs_pkg::kernel_id_t     obs_kernel_i,
  input  gs_pkg::cycle_t         obs_cycle_i,
  input  gs_pkg::obs_cnt_t       obs_insts_i,
  input  gs_pkg::obs_cnt_t       obs_mem_stall_i,
  input  gs_pkg::obs_cnt_t       obs_l1_miss_i,
  input  gs_pkg::obs_cnt_t       obs_l2_miss_i,
  // decisions
  output logic                   dispatch_valid_o,
  output gs_pkg::sm_id_t         dispatch_sm_o,
  output gs_pkg::kernel_id_t     dispatch_kernel_o,
  output gs_pkg::cta_id_t        dispatch_cta_o,
  output logic                   dispatch_resume_o,
  output logic                   preempt_valid_o,
  output gs_pkg::sm_id_t         preempt_sm_o,
  output gs_pkg::preempt_mode_e  preempt_mode_o,
  output gs_pkg::kernel_id_t     preempt_victim_o,
  output gs_pkg::kernel_id_t     preempt_next_o,
  output logic                   quota_valid_o,
  output gs_pkg::sm_id_t         quota_sm_o,
  output gs_pkg::kernel_id_t     quota_kernel_o,
  output gs_pkg::cta_cnt_t       quota_max_ctas_o,
  output logic                   bypass_valid_o,
  output gs_pkg::sm_id_t         bypass_sm_o,
  output gs_pkg::kernel_id_t     bypass_kernel_o,
  output gs_pkg::bypass_level_e  bypass_level_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;


  // ------------------------------------------------------------------ static configuration
  // Registered once more inside the top (loaded every cycle, stable after reset): the logic
  // behind it then depends on flops only, so a Verilated model does not re-evaluate the whole
  // scheduler whenever a launch or event input changes (cost halved), and timing paths start
  // at flops. The wrapper drives the configuration during reset, so these hold it from the
  // first cycle on.
  logic [gs_pkg::SmIdW:0] cfg_num_sms_q;
  gs_pkg::policy_e cfg_policy_q;
  gs_pkg::preempt_mode_e cfg_preempt_mode_q;
  gs_pkg::cta_cnt_t cfg_cta_limit_q;
  logic cfg_sm_exclusive_q;
  logic [gs_pkg::MaxSmTypes*gs_pkg::ThreadW-1:0] cfg_type_threads_q;
  logic [gs_pkg::MaxSmTypes*gs_pkg::WarpW-1:0] cfg_type_warps_q;
  logic [gs_pkg::MaxSmTypes*gs_pkg::RegW-1:0] cfg_type_regs_q;
  logic [gs_pkg::MaxSmTypes*gs_pkg::ShmemW-1:0] cfg_type_shmem_q;
  logic [gs_pkg::MaxSmTypes*gs_pkg::CtaCntW-1:0] cfg_type_ctas_q;
  logic [gs_pkg::MaxSmTypes-1:0] cfg_type_big_q;
  logic [gs_pkg::MaxSms*gs_pkg::SmTypeW-1:0] cfg_sm_type_q;
  gs_pkg::sched_cnt_t cfg_warp_scheds_q;
  gs_pkg::wf_res_t cfg_base_sm_q;
  gs_pkg::policy_settings_t cfg_settings_q;
  always_ff @(posedge clk_i) begin
    cfg_num_sms_q <= cfg_num_sms_i;
    cfg_policy_q <= cfg_policy_i;
    cfg_preempt_mode_q <= cfg_preempt_mode_i;
    cfg_cta_limit_q <= cfg_cta_limit_i;
    cfg_sm_exclusive_q <= cfg_sm_exclusive_i;
    cfg_type_threads_q <= cfg_type_threads_i;
    cfg_type_warps_q <= cfg_type_warps_i;
    cfg_type_regs_q <= cfg_type_regs_i;
    cfg_type_shmem_q <= cfg_type_shmem_i;
    cfg_type_ctas_q <= cfg_type_ctas_i;
    cfg_type_big_q <= cfg_type_big_i;
    cfg_sm_type_q <= cfg_sm_type_i;
    cfg_warp_scheds_q <= cfg_warp_scheds_i;
    cfg_base_sm_q <= cfg_base_sm_i;
    cfg_settings_q <= cfg_settings_i;
  end

  // ------------------------------------------------------------------ command path
  gs_pkg::launch_t launch, cmd_head;
  logic cmd_head_valid, cmd_pop;
  logic alloc_valid;
  gs_pkg::slot_t alloc_slot;
  logic [K*gs_pkg::SlotW-1:0] rank;

  always_comb begin
    launch.kernel = launch_kernel_i;
    launch.ctx = launch_ctx_i;
    launch.prio = launch_prio_i;
    launch.tokens = launch_tokens_i;
    launch.threads = launch_threads_i;
    launch.warps = launch_warps_i;
    launch.regs = launch_regs_i;
    launch.shmem = launch_shmem_i;
    launch.grid = launch_grid_i;
  end

  gs_cmd_buffers u_cmd_buffers (
    .clk_i, .rst_ni,
    .push_i(launch_valid_i), .push_launch_i(launch), .pop_i(cmd_pop),
    .head_valid_o(cmd_head_valid), .head_o(cmd_head), .ready_o(launch_ready_o)
  );

  // ------------------------------------------------------------------ tables
  logic [K*gs_pkg::KsrtW-1:0] ksrt;
  gs_pkg::slot_mask_t ksrt_valid, ksrt_free;
  logic [N*gs_pkg::SmstW-1:0] smst;
  logic [N*K*gs_pkg::CtaCntW-1:0] resident;
  gs_pkg::smst_req_t smst_pend_alloc, smst_pend_free;   // the SMST's resource writes landing at this edge (lockstep state check)
  logic [K*gs_pkg::PtbqCntW-1:0] ptbq_count;
  logic [K*gs_pkg::CtaIdW-1:0] ptbq_head;
  gs_pkg::slot_mask_t ptbq_ready;
  logic [2+gs_pkg::SlotW-1:0] ptbq_fill;   // the PTBQ fill unit, read only by the lockstep state check

  gs_active_queue u_active_queue (
    .clk_i, .rst_ni,
    .head_valid_i(cmd_head_valid), .ksrt_valid_i(ksrt_valid), .free_i(ksrt_free),
    .pop_o(cmd_pop), .alloc_valid_o(alloc_valid), .alloc_slot_o(alloc_slot), .rank_o(rank)
  );

  // event decode: kernel id -> KSRT slot
  logic ev_valid, ev_hit, ev_finished, ev_saved, ev_done;
  gs_pkg::slot_t ev_slot;
  gs_pkg::ksrt_entry_t ev_entry;
  gs_pkg::cta_res_t ev_res;
  assign ev_valid = event_valid_i && (event_type_i != gs_pkg::EV_NONE);
  assign ev_finished = ev_valid && ev_hit && (event_type_i == gs_pkg::EV_CTA_FINISHED);
  assign ev_saved = ev_valid && ev_hit && (event_type_i == gs_pkg::EV_CTA_SAVED);
  assign ev_done = ev_valid && (event_type_i == gs_pkg::EV_PREEMPT_DONE);

  always_comb begin
    ev_entry = '0;
    for (int k = 0; k < K; k++) begin
      if (ev_slot == gs_pkg::SlotW'(k)) ev_entry = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    end
    ev_res.threads = ev_entry.threads;
    ev_res.warps = ev_entry.warps;
    ev_res.regs = ev_entry.regs;
    ev_res.shmem = ev_entry.shmem;
  end

  // SM driver issue
  logic issue_valid, issue_resume;
  gs_pkg::sm_id_t issue_sm;
  gs_pkg::slot_t issue_slot;
  gs_pkg::cta_res_t issue_res;
  gs_pkg::dispatch_t dispatch;

  // the selected policy's decisions; a token update that goes with a preemption request
  // moves only if gs_preempt_ctrl accepts the request (policy contract: out_o never depends
  // on accept_i, which keeps the request -> accept path free of combinational loops)
  gs_pkg::policy_out_t pol;
  logic preempt_accept;
  gs_pkg::token_upd_t tok;
  assign tok = (pol.req.valid && !preempt_accept) ? '0 : pol.tok;

  gs_ksrt u_ksrt (
    .clk_i, .rst_ni,
    .alloc_valid_i(alloc_valid), .alloc_slot_i(alloc_slot), .alloc_launch_i(cmd_head),
    .issue_valid_i(issue_valid && !issue_resume), .issue_slot_i(issue_slot),
    .done_valid_i(ev_finished), .done_slot_i(ev_slot),
    .tok_i(tok),
    .lookup_kernel_i(event_kernel_i), .lookup_hit_o(ev_hit), .lookup_slot_o(ev_slot),
    .entries_o(ksrt), .valid_o(ksrt_valid), .free_o(ksrt_free)
  );

  logic reserve_valid, reserve_next_valid, unreserve_valid, ptbq_push_valid;
  gs_pkg::sm_id_t reserve_sm, unreserve_sm;
  gs_pkg::slot_t reserve_next, ptbq_push_slot;
  gs_pkg::cta_id_t ptbq_push_cta;
  gs_pkg::preempt_t preempt;

  gs_smst u_smst (
    .clk_i, .rst_ni,
    .alloc_valid_i(issue_valid), .alloc_sm_i(issue_sm), .alloc_slot_i(issue_slot), .alloc_res_i(issue_res),
    .free_valid_i(ev_finished || ev_saved), .free_sm_i(event_sm_i), .free_slot_i(ev_slot), .free_res_i(ev_res),
    .unreserve_valid_i(unreserve_valid), .unreserve_sm_i(unreserve_sm),
    .reserve_valid_i(reserve_valid), .reserve_sm_i(reserve_sm),
    .reserve_next_valid_i(reserve_next_valid), .reserve_next_i(reserve_next),
    .owner_wr_i(pol.owner_wr), .slot_free_i(ksrt_free),
    .entries_o(smst), .resident_o(resident), .pend_alloc_o(smst_pend_alloc), .pend_free_o(smst_pend_free)
  );

  gs_ptbq u_ptbq (
    .clk_i, .rst_ni,
    .push_valid_i(ptbq_push_valid), .push_slot_i(ptbq_push_slot), .push_cta_i(ptbq_push_cta),
    .pop_valid_i(issue_valid && issue_resume), .pop_slot_i(issue_slot),
    .count_o(ptbq_count), .head_o(ptbq_head), .ready_o(ptbq_ready), .fill_o(ptbq_fill)
  );

  gs_preempt_ctrl u_preempt_ctrl (
    .clk_i, .rst_ni,
    .cfg_preempt_mode_i(cfg_preempt_mode_q),
    .req_i(pol.req), .accept_o(preempt_accept),
    .smst_i(smst), .ksrt_i(ksrt), .ptbq_count_i(ptbq_count),
    .ev_saved_i(ev_saved), .ev_done_i(ev_done), .ev_sm_i(event_sm_i), .ev_slot_i(ev_slot), .ev_cta_i(event_cta_i),
    .reserve_valid_o(reserve_valid), .reserve_sm_o(reserve_sm),
    .reserve_next_valid_o(reserve_next_valid), .reserve_next_o(reserve_next),
    .unreserve_valid_o(unreserve_valid), .unreserve_sm_o(unreserve_sm),
    .ptbq_push_valid_o(ptbq_push_valid), .ptbq_push_slot_o(ptbq_push_slot), .ptbq_push_cta_o(ptbq_push_cta),
    .preempt_o(preempt)
  );

  // kernels with CTAs left to issue (fresh or preempted)
  gs_pkg::slot_mask_t pending;
  gs_pkg::ksrt_entry_t pe;
  always_comb begin
    for (int k = 0; k < K; k++) begin
      pe = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      pending[k] = pe.valid && (pe.next_cta != pe.grid ||
                                ptbq_count[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW] != '0);
    end
  end

  // ------------------------------------------------------------------ policies
  // The contract's inputs: configuration, a read-only view of the tables (registered state),
  // and this cycle's events (they reach the tables at the coming edge).
  gs_pkg::policy_cfg_t pol_cfg;
  gs_pkg::policy_view_t pol_view;
  gs_pkg::policy_event_t pol_event;
  gs_pkg::ksrt_entry_t oe;
  always_comb begin
    pol_cfg.num_sms = cfg_num_sms_q;
    pol_cfg.cta_limit = cfg_cta_limit_q;
    pol_cfg.sm_exclusive = cfg_sm_exclusive_q;
    pol_cfg.type_threads = cfg_type_threads_q;
    pol_cfg.type_warps = cfg_type_warps_q;
    pol_cfg.type_regs = cfg_type_regs_q;
    pol_cfg.type_shmem = cfg_type_shmem_q;
    pol_cfg.type_ctas = cfg_type_ctas_q;
    pol_cfg.type_big = cfg_type_big_q;
    pol_cfg.sm_type = cfg_sm_type_q;
    pol_cfg.warp_scheds = cfg_warp_scheds_q;
    pol_cfg.base_sm = cfg_base_sm_q;
    pol_view.ksrt = ksrt;
    pol_view.smst = smst;
    pol_view.resident = resident;
    pol_view.ptbq_count = ptbq_count;
    pol_view.rank = rank;
    pol_view.pending = pending;
    pol_event.ev_valid = ev_valid;
    pol_event.ev_type = event_type_i;
    pol_event.ev_sm = event_sm_i;
    pol_event.ev_slot = ev_slot;
    pol_event.alloc_valid = alloc_valid;
    pol_event.alloc_slot = alloc_slot;
    pol_event.slot_free = ksrt_free;
    pol_event.ev_cta = event_cta_i;
    pol_event.ev_start_cycle = event_start_cycle_i;
    pol_event.ev_end_cycle = event_end_cycle_i;
    pol_event.obs.valid = obs_valid_i;
    pol_event.obs.sm = obs_sm_i;
    pol_event.obs.kernel = obs_kernel_i;
    pol_event.obs.cycle = obs_cycle_i;
    pol_event.obs.insts = obs_insts_i;
    pol_event.obs.mem_stall = obs_mem_stall_i;
    pol_event.obs.l1_miss = obs_l1_miss_i;
    pol_event.obs.l2_miss = obs_l2_miss_i;
    // the sample's kernel -> KSRT slot (the KSRT's own lookup port serves the SM event)
    pol_event.obs_hit = 1'b0;
    pol_event.obs_slot = '0;
    for (int k = 0; k < K; k++) begin
      oe = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      if (obs_valid_i && oe.valid && oe.kernel == obs_kernel_i) begin
        pol_event.obs_hit = 1'b1;
        pol_event.obs_slot = gs_pkg::SlotW'(k);
      end
    end
  end

  // policy_state: the selected policy's registers, read only by the lockstep state check
  // (sim_top/rtl_sched/gs_top_state.vlt); nothing here reads it, so synthesis removes it.
  logic [gs_pkg::PolicyStateW-1:0] policy_state;
  gs_policies #(.PolicySet(PolicySet)) u_policies (
    .clk_i, .rst_ni, .policy_i(cfg_policy_q), .cfg_i(pol_cfg), .set_i(cfg_settings_q),
    .view_i(pol_view), .event_i(pol_event),
    .accept_i(preempt_accept), .out_o(pol), .state_o(policy_state)
  );

  // per-SM per-kernel CTA quotas written by the policy (Even) and reported on the quota port
  logic [N*K*gs_pkg::CtaCntW-1:0] quota;
  gs_pkg::quota_t quota_rep;
  // quota_pending: the change waiting for its report, read only by the lockstep state check
  gs_pkg::quota_wr_t quota_pending;
  gs_quota_table u_quota_table (
    .clk_i, .rst_ni, .wr_i(pol.quota_wr), .slot_free_i(ksrt_free), .ksrt_i(ksrt),
    .quota_o(quota), .rep_o(quota_rep), .pend_o(quota_pending)
  );

  // the SM driver's ready bitmap: a kernel admitted into a slot clears and re-sweeps its column.
  // smd_ready, smd_dirty, smd_qdirty, smd_waits, smd_cand, smd_cand_slot: its registers, read only by the
  // lockstep state check.
  gs_pkg::slot_mask_t smd_col_clr;
  logic [N*K-1:0] smd_ready;
  logic [N-1:0] smd_dirty;
  logic [N-1:0] smd_qdirty;
  logic [15:0] smd_waits;
  logic [N-1:0] smd_cand;
  logic [N*gs_pkg::SlotW-1:0] smd_cand_slot;
  always_comb begin
    smd_col_clr = '0;
    for (int k = 0; k < K; k++) smd_col_clr[k] = alloc_valid && alloc_slot == gs_pkg::SlotW'(k);
  end
  gs_sm_driver u_sm_driver (
    .clk_i, .rst_ni, .cfg_num_sms_i(cfg_num_sms_q),
    .cfg_type_threads_i(cfg_type_threads_q), .cfg_type_warps_i(cfg_type_warps_q), .cfg_type_regs_i(cfg_type_regs_q),
    .cfg_type_shmem_i(cfg_type_shmem_q), .cfg_type_ctas_i(cfg_type_ctas_q), .cfg_sm_type_i(cfg_sm_type_q),
    .smst_i(smst), .resident_i(resident), .ksrt_i(ksrt),
    .ptbq_count_i(ptbq_count), .ptbq_head_i(ptbq_head), .ptbq_ready_i(ptbq_ready),
    .cfg_cta_limit_i(cfg_cta_limit_q), .elig_i(pol.elig), .quota_en_i(pol.quota_en), .quota_i(quota), .key_i(pol.key),
    .free_valid_i(ev_finished || ev_saved), .free_sm_i(event_sm_i),
    .quota_wr_valid_i(pol.quota_wr.valid), .quota_wr_sm_i(pol.quota_wr.sm), .col_clr_i(smd_col_clr),
    .issue_valid_o(issue_valid), .issue_sm_o(issue_sm), .issue_slot_o(issue_slot),
    .issue_resume_o(issue_resume), .issue_res_o(issue_res), .dispatch_o(dispatch),
    .ready_o(smd_ready), .dirty_o(smd_dirty), .qdirty_o(smd_qdirty), .cand_o(smd_cand), .cand_slot_o(smd_cand_slot),
    .waits_o(smd_waits)
  );

  // cache bypass: the policy's write is registered onto the bypass port, its slot named by the
  // kernel id (registered KSRT state, as every decision output)
  gs_pkg::bypass_t bypass_d, bypass_q;
  gs_pkg::ksrt_entry_t be;
  always_comb begin
    be = '0;
    for (int k = 0; k < K; k++) begin
      if (pol.bypass.slot == gs_pkg::SlotW'(k)) be = ksrt[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
    end
    bypass_d.valid = pol.bypass.valid;
    bypass_d.sm = pol.bypass.sm;
    bypass_d.kernel = be.kernel;
    bypass_d.level = pol.bypass.level;
  end
  always_ff @(posedge clk_i) begin
    if (!rst_ni) bypass_q <= '0;
    else bypass_q <= bypass_d;
  end

  // ------------------------------------------------------------------ decision port
  assign dispatch_valid_o = dispatch.valid;
  assign dispatch_sm_o = dispatch.sm;
  assign dispatch_kernel_o = dispatch.kernel;
  assign dispatch_cta_o = dispatch.cta;
  assign dispatch_resume_o = dispatch.resume;
  assign preempt_valid_o = preempt.valid;
  assign preempt_sm_o = preempt.sm;
  assign preempt_mode_o = preempt.mode;
  assign preempt_victim_o = preempt.victim;
  assign preempt_next_o = preempt.next;
  assign quota_valid_o = quota_rep.valid;
  assign quota_sm_o = quota_rep.sm;
  assign quota_kernel_o = quota_rep.kernel;
  assign quota_max_ctas_o = quota_rep.max_ctas;
  assign bypass_valid_o = bypass_q.valid;
  assign bypass_sm_o = bypass_q.sm;
  assign bypass_kernel_o = bypass_q.kernel;
  assign bypass_level_o = bypass_q.level;

`ifndef SYNTHESIS
  // record widths used by the flat tables equal the structs
  initial begin
    if ($bits(launch) != gs_pkg::LaunchW) $fatal(1, "gs_pkg::LaunchW %0d != $bits(launch_t) %0d", gs_pkg::LaunchW, $bits(launch));
    if ($bits(ev_entry) != gs_pkg::KsrtW) $fatal(1, "gs_pkg::KsrtW %0d != $bits(ksrt_entry_t) %0d", gs_pkg::KsrtW, $bits(ev_entry));
    if ($bits(gs_pkg::smst_entry_t) != gs_pkg::SmstW) $fatal(1, "gs_pkg::SmstW mismatch");
  end
  // every event names a known kernel (except kPreemptDone)
  assert property (@(posedge clk_i) disable iff (!rst_ni)
      (ev_valid && event_type_i != gs_pkg::EV_PREEMPT_DONE) |-> ev_hit)
    else $error("gs_top: event for kernel %0d that is not active", event_kernel_i);
  // a kernel is finished only when all its CTAs are: no fresh CTA and no saved CTA left
  assert property (@(posedge clk_i) disable iff (!rst_ni) ev_finished && ksrt_free != '0 |-> !pending[ev_slot])
    else $error("gs_top: kernel %0d finished with CTAs still to issue", event_kernel_i);
  assert property (@(posedge clk_i) disable iff (!rst_ni) event_valid_i |-> event_sm_i < gs_pkg::SmIdW'(cfg_num_sms_q))
    else $error("gs_top: event for SM %0d beyond cfg_num_sms", event_sm_i);
  // the selected policy is part of this build (the C++ side refuses others up front)
  assert property (@(posedge clk_i) disable iff (!rst_ni) PolicySet[cfg_policy_q])
    else $error("gs_top: policy %0d is not in this build's PolicySet", cfg_policy_q);
`endif
endmodule
