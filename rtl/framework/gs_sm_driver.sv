// gs_sm_driver: the SM driver (Tanasic Sec. 3.2, Fig. 3; Sec. 3.3), a pipeline: candidates, pick, issue.
// Contract and timing: docs/rtl/gs_sm_driver.md
//
// Each cycle issues at most one CTA of one (SM, kernel) pair such that
//   * kernel k has work: valid, and a preempted CTA at its PTBQ head (ptbq_ready_i), or an empty
//     PTBQ and next_cta < grid (a queue whose head is being fetched waits);
//   * SM s is usable: s < cfg_num_sms, not reserved (a reserved SM waits for its preemption);
//   * the policy makes k eligible on s (elig_i bit s*MaxKernels+k);
//   * the CTA fits the SM's free threads, warps, registers, shared memory and CTA slots;
//   * with quota_en_i, the kernel's resident CTAs on s stay below quota_i[s][k]
//     (gs_quota_table); with cfg_cta_limit_i != 0 also below cfg_cta_limit_i;
//   * per SM the kernel with the lowest key_i wins (registered: the order lags key_i one cycle);
//   * SMs are taken round-robin from the one after the last pick.
// A preempted CTA (PTBQ head) is issued before fresh CTAs of the same kernel (resume = 1).
//
// Storage instead of MaxSms x MaxKernels fit checks per cycle:
//   ready    ready bitmap, bit s*K+k: a CTA of slot k fits SM s, under its quota and the CTA
//            limit (what depends on SM row s and slot k's per-CTA demand). Held as r_q with
//            the last cycle's fit checks laid over it (the overlay: the refreshed rows and the
//            issued SM's row, olo/ohi/opk, a row index and K bits each; the sweep's lanes, osw):
//            a check lands in a small register, not in the bitmap through a MaxSms-row write
//            decoder in the same cycle; r_q takes it at the next edge. `ready` is bit for bit
//            the bitmap written at once (the twin's);
//   dirty_q  rows whose inputs changed (an SM event's free, a quota write, a configuration
//            change): masked until refreshed; the lowest and the highest dirty row are
//            refreshed per cycle (read in one cycle, K fit checks each in the next: f*_q);
//   qdirty_q rows whose bits may predate a quota write or a configuration change: stage 2
//            does not issue on them until a refresh that read the row after the write lands;
//   a column of a newly admitted kernel (col_clr_i) is cleared and swept SmdSweepSms SMs per
//   cycle (swait_q: columns waiting, sact_q/scol_q/sptr_q: the sweep under way);
//   beats_q  bit j*K+k: slot j goes before slot k (key_j < key_k, ties by index), from key_i.
// Stage 1a (candidates): per SM the best ready kernel (ready & work & elig, not admitted now;
//   the SM usable, its row not dirty), registered: cand_q / cslot_q.
// Stage 1b (pick): the round robin (gs_ffs) picks one candidate, not the SM picked last cycle:
//   pv_q / psm_q / pslot_q. A search over registers only: nothing from the inputs reaches it.
// Stage 2 (issue): the pick holds if its ready bit still holds (the candidate is a cycle old:
//   its SM may have been issued a CTA in the candidate's cycle) and no quota write or
//   configuration change is pending on its row (qdirty_q, the last cycle's events: the bit
//   holds the quota and the CTA limit otherwise), the SM is usable, the slot has work, is
//   eligible and is not being admitted: all from registers and the policy's inputs, no row
//   read. Then it issues; the SM's row is read now and rewritten as it will be after this CTA
//   (its demand added) a cycle later, so the SM can be picked again in the next cycle and
//   issue in the one after: two ready SMs sustain one CTA per cycle.
// Row events (a free, a quota write, a configuration change) mark their rows dirty a cycle
// after their input (evf_oh_q, evq_*, chg_q): the dirty search starts from registers. A row whose
// bits a free made stale only misses room until then; one a quota write or a configuration
// change made stale is held back by stage 2 (qdirty_q) until its refresh lands.
// The SMST writes a CTA's resources a cycle after its alloc or free (gs_smst), so a row read is
// exact only when neither happened in the cycle before: the refresh leaves out the row picked
// in that cycle (it waits a cycle more, masked as dirty; a free marks its row only a cycle
// later, so a row refreshed before its free landed is marked again), the sweep's bit of the row
// of the SM issued in that cycle lands under that issue's row (rewritten with the CTA at the
// same edge), and an issue leaves its row dirty (the row it writes may miss a free the SMST has
// yet to apply: the refresh writes it again). The picked SM's own row needs no such care: no
// CTA goes to the SM picked in the cycle before.
// Every row is read through a one-hot AND-OR (no variable part-select of a whole table) whose
// select comes straight from a register (the used resources from a copy of their own) into a
// register (the fit stage: used resources, and per slot under the quota and the CTA limit); a
// row's SM type comes registered with its select (carried by the search that finds the row,
// gs_ffs data), and each fit check is one gs_cta_fit (a carry-save comparison, no sum formed
// first) on registers. A refresh and an issue read in the same cycle land at the same edge
// (the issue's row above), as they did when both were checked in the cycle of their read.
// Outputs issue_*_o update SMST/KSRT/PTBQ at the edge that loads dispatch_o: a candidate of cycle
// t-1 is picked in t, issues in t+1 and is on dispatch_o in t+2.
module gs_sm_driver (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  // each SM type's capacities (type t at [t*W +: W]) and each SM's type
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::ThreadW-1:0] cfg_type_threads_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::WarpW-1:0]   cfg_type_warps_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::RegW-1:0]    cfg_type_regs_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::ShmemW-1:0]  cfg_type_shmem_i,
  input  logic [gs_pkg::MaxSmTypes*gs_pkg::CtaCntW-1:0] cfg_type_ctas_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::SmTypeW-1:0]     cfg_sm_type_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::SmstW-1:0]   smst_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] resident_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::PtbqCntW-1:0] ptbq_count_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::CtaIdW-1:0]   ptbq_head_i,
  input  gs_pkg::slot_mask_t    ptbq_ready_i,
  input  gs_pkg::cta_cnt_t      cfg_cta_limit_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0] elig_i,
  input  logic                  quota_en_i,
  input  logic [gs_pkg::MaxSms*gs_pkg::MaxKernels*gs_pkg::CtaCntW-1:0] quota_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::OrderKeyW-1:0] key_i,
  // rows and columns whose inputs change at the coming clock edge (besides this driver's issue)
  input  logic                  free_valid_i,      // an SM event frees a CTA on free_sm_i
  input  gs_pkg::sm_id_t        free_sm_i,
  input  logic                  quota_wr_valid_i,  // the quota table writes an entry of SM quota_wr_sm_i
  input  gs_pkg::sm_id_t        quota_wr_sm_i,
  input  gs_pkg::slot_mask_t    col_clr_i,         // slots admitting a kernel (KSRT alloc)
  output logic                  issue_valid_o,
  output gs_pkg::sm_id_t        issue_sm_o,
  output gs_pkg::slot_t         issue_slot_o,
  output logic                  issue_resume_o,
  output gs_pkg::cta_res_t      issue_res_o,
  output gs_pkg::dispatch_t     dispatch_o,
  // registers for the lockstep state check (no logic reads them)
  output logic [gs_pkg::MaxSms*gs_pkg::MaxKernels-1:0] ready_o,
  output logic [gs_pkg::MaxSms-1:0] dirty_o,
  output logic [gs_pkg::MaxSms-1:0] qdirty_o,                // rows whose limits may be stale (stage 2 waits)
  output logic [gs_pkg::MaxSms-1:0] cand_o,                  // stage 1a: SM s has a candidate
  output logic [gs_pkg::MaxSms*gs_pkg::SlotW-1:0] cand_slot_o,  // and its slot
  output logic [15:0]           waits_o
);
  // lockstep mutant switches (`GS_MUTANT: gs_pkg.sv; docs/rtl/mutations.md)
  `GS_MUTANT(mut_dispatch_reserved, "GS_MUT_DISPATCH_RESERVED")
  `GS_MUTANT(mut_skip_capacity_check, "GS_MUT_SKIP_CAPACITY_CHECK")
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int KW = gs_pkg::OrderKeyW;
  localparam int SW = gs_pkg::SlotW;
  localparam int RW = gs_pkg::WfResW;
  localparam int G = gs_pkg::SmdSweepSms;
  localparam int NG = (N + G - 1) / G;   // sweep groups
  localparam int GW = (NG > 1) ? $clog2(NG) : 1;
  localparam int IW = (N > 1) ? $clog2(N) : 1;
  localparam int T = gs_pkg::MaxSmTypes;
  localparam int TW = gs_pkg::SmTypeW;
  // one SM's row as the fit checks read it: used (wf_res_t), then the resident counts and the
  // quotas of the K slots (the SM's type, static, is registered with the row's select)
  localparam int RowW = RW + 2 * K * CW;
  localparam logic [RowW-1:0] UsedMask = {{RW{1'b1}}, {(2 * K * CW){1'b0}}};   // used, in a row

  // ---------------------------------------------------------------- registers
  logic [N*K-1:0] r_q, r_d;
  logic [N*K-1:0] ready;             // the ready bitmap: r_q with the overlay rows below laid over it
  // the overlay: the rows the refresh (lowest, highest) and the issue computed last cycle, each
  // an SM index, a valid bit and the row's K ready bits (the column clear of that cycle applied)
  // (and below them the column sweep's row group, with its column and its lanes' bits)
  logic olo_v_q, ohi_v_q, opk_v_q, osw_v_q;
  logic [NG-1:0] osw_grp_q;          // the swept group, one-hot
  logic [K-1:0] osw_col_q;           // the swept column, one-hot
  logic [G-1:0] osw_ok_q;            // lane j's bit
  logic [IW-1:0] olo_idx_q, ohi_idx_q, opk_idx_q;
  logic [K-1:0] olo_ok_q, ohi_ok_q, opk_ok_q;
  logic rlo_v_q, rhi_v_q;            // rlo_q / rhi_q name a row, and which (rhi: reversed)
  logic [IW-1:0] rlo_idx_q, rhi_ridx_q;
  // the fit stage: the rows read in the last cycle (the refresh's lowest and highest, the issued
  // SM's), each its index, its SM's type, its used resources and per slot whether it is under
  // the quota and the CTA limit (formed at the read); their fit checks land in the overlay
  logic flo_v_q, fhi_v_q, fpk_v_q;
  logic [IW-1:0] flo_idx_q, fhi_idx_q, fpk_idx_q;   // fhi: forward again (rhi's index is reversed)
  logic [TW-1:0] flo_ty_q, fhi_ty_q, fpk_ty_q;
  gs_pkg::wf_res_t flo_used_q, fhi_used_q, fpk_used_q;
  logic [K-1:0] flo_ul_q, fhi_ul_q, fpk_ul_q;
  gs_pkg::wf_res_t fpk_dem_q;        // the issued CTA's demand (added to the row), read with it
  logic [N-1:0] qdirty_q, qdirty_d;  // rows whose ready bits may predate a quota write or a configuration change
  logic [N-1:0] dirty_q, dirty_d;
  logic [N-1:0] rlo_q, rlo_d, rhi_q, rhi_d;   // the dirty rows to refresh next: lowest, highest (one-hot)
  logic [K*K-1:0] beats_q, beats_d;
  logic [N-1:0] cand_q, cand_d;      // stage 1a: per SM a candidate and its best slot
  logic [N*SW-1:0] cslot_q, cslot_d;
  logic pv_q, pv_d;                  // stage 1b's pick: valid, SM, slot
  gs_pkg::sm_id_t psm_q, psm_d;
  gs_pkg::slot_t pslot_q, pslot_d;
  logic [K-1:0] pslot_oh_q;          // pslot_q one-hot (stage 2's ready bit read)
  logic [N-1:0] poh_q;               // the pick one-hot (psm_q when pv_q), for stage 2's row read
  // inverted copies of rlo_q, rhi_q and poh_q that select only the used resources of a row (a
  // one-hot select drives every bit of the row it reads: the copies halve that fanout on the fit
  // checks' path; inverted, so that synthesis does not merge them with the registers they copy)
  logic [N-1:0] rlo_un_q, rhi_un_q, poh_un_q;
  logic [NG-1:0] sgrp_q, sgrp_d;     // sptr_q one-hot: the sweep lanes' row select
  logic [TW-1:0] ptype_q, ptype_d;   // the picked SM's type
  // the types of the rows the refresh and the sweep lanes read next (registered with their
  // selects: an SM's capacities are looked up from a register, not through the row read)
  logic [TW-1:0] lo_ty_q, lo_ty_d, hi_ty_q, hi_ty_d;
  logic [G*TW-1:0] lane_ty_q, lane_ty_d;
  logic [K-1:0] swait_q, swait_d;
  logic sact_q, sact_d;
  gs_pkg::slot_t scol_q, scol_d;
  logic [K-1:0] scol_p_q, scol_n_q;  // scol_q one-hot, and inverted: the sweep lanes' demand selects
  logic [GW-1:0] sptr_q, sptr_d;
  logic qen_q;
  gs_pkg::cta_cnt_t limit_q;
  // the row events of the last cycle, marked dirty in this one
  // (one-hot per SM, decoded from the ports: the dirty search starts from an OR of registers; the
  // quota write's SM also as an index, for stage 2's compare with the pick)
  logic evq_v_q, chg_q;
  logic [N-1:0] evf_oh_q, evq_oh_q;
  gs_pkg::sm_id_t evq_sm_q;
  // from cfg_num_sms_i (static configuration, registered like in_gpu_q): the last SM, the last
  // sweep group
  logic [IW-1:0] last_sm_q;
  logic [GW-1:0] last_grp_q;
  logic [15:0] waits_q, waits_d;
  gs_pkg::sm_id_t rr_q, rr_d;
  gs_pkg::dispatch_t dispatch_q, dispatch_d;

  // ---------------------------------------------------------------- per-kernel values
  gs_pkg::slot_mask_t work;
  gs_pkg::ksrt_entry_t e, ei;   // scratch entry reads (not every field is needed here)
  logic [K*RW-1:0] k_dem;       // per slot: what one CTA takes (wf_res_t, a CTA slot each)
  gs_pkg::wf_res_t dem;
  logic cfg_chg;   // quota_en_i or cfg_cta_limit_i differ from last cycle: every row is stale
  always_comb begin
    work = '0;
    dem = '0;
    for (int k = 0; k < K; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      work[k] = e.valid && (ptbq_count_i[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW] != '0 ? ptbq_ready_i[k]
                                                                                  : e.next_cta != e.grid);
      dem.threads = e.threads;
      dem.warps = e.warps;
      dem.regs = e.regs;
      dem.shmem = mut_skip_capacity_check ? '0 : e.shmem;   // (GS_MUT_SKIP_CAPACITY_CHECK: shmem not counted)
      dem.slots = CW'(1);
      k_dem[k*RW +: RW] = dem;
    end
    cfg_chg = (quota_en_i != qen_q) || (cfg_cta_limit_i != limit_q);
  end

  // SM s: usable (inside the GPU, not reserved) and its row
  logic [N-1:0] usable, in_gpu, in_gpu_q;   // in_gpu_q: s < cfg_num_sms_i, registered (static)
  logic [N*RowW-1:0] rows;
  gs_pkg::smst_entry_t um;
  gs_pkg::wf_res_t used, tcap;
  logic [T*RW-1:0] type_cap;   // type t's capacities (wf_res_t) at [t*RW +: RW]
  always_comb begin
    tcap = '0;
    for (int t = 0; t < T; t++) begin
      tcap.threads = cfg_type_threads_i[t*gs_pkg::ThreadW +: gs_pkg::ThreadW];
      tcap.warps = cfg_type_warps_i[t*gs_pkg::WarpW +: gs_pkg::WarpW];
      tcap.regs = cfg_type_regs_i[t*gs_pkg::RegW +: gs_pkg::RegW];
      tcap.shmem = cfg_type_shmem_i[t*gs_pkg::ShmemW +: gs_pkg::ShmemW];
      tcap.slots = cfg_type_ctas_i[t*CW +: CW];
      type_cap[t*RW +: RW] = tcap;
    end
  end
  always_comb begin
    um = '0;
    used = '0;
    for (int s = 0; s < N; s++) begin
      um = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
      in_gpu[s] = (gs_pkg::SmIdW+1)'(s) < cfg_num_sms_i;
      // (GS_MUT_DISPATCH_RESERVED: a reserved SM keeps receiving CTAs while it is being preempted)
      usable[s] = in_gpu_q[s] && (mut_dispatch_reserved || um.state != gs_pkg::SM_RESERVED);
      used.threads = um.threads;
      used.warps = um.warps;
      used.regs = um.regs;
      used.shmem = um.shmem;
      used.slots = um.ctas;
      rows[s*RowW +: RowW] = {used, resident_i[s*K*CW +: K*CW], quota_i[s*K*CW +: K*CW]};
    end
  end

  // the capacities of SM type `ty`
  function automatic logic [RW-1:0] type_cap_of(input logic [TW-1:0] ty, input logic [T*RW-1:0] caps);
    logic [RW-1:0] c;
    c = '0;
    for (int t = 0; t < T; t++) if (ty == TW'(t)) c = caps[t*RW +: RW];
    type_cap_of = c;
  endfunction

  // a row read through a one-hot select (an AND-OR tree)
  function automatic logic [RowW-1:0] row_of(input logic [N-1:0] oh, input logic [N*RowW-1:0] all);
    logic [RowW-1:0] r;
    r = '0;
    for (int s = 0; s < N; s++) r = r | ({RowW{oh[s]}} & all[s*RowW +: RowW]);
    row_of = r;
  endfunction

  // slot `k`'s resident count and quota in a row
  function automatic gs_pkg::cta_cnt_t row_resident(input logic [RowW-1:0] row, input gs_pkg::slot_t k);
    gs_pkg::cta_cnt_t c;
    c = '0;
    for (int j = 0; j < K; j++) if (k == SW'(j)) c = row[K*CW + j*CW +: CW];
    row_resident = c;
  endfunction
  function automatic gs_pkg::cta_cnt_t row_quota(input logic [RowW-1:0] row, input gs_pkg::slot_t k);
    gs_pkg::cta_cnt_t c;
    c = '0;
    for (int j = 0; j < K; j++) if (k == SW'(j)) c = row[j*CW +: CW];
    row_quota = c;
  endfunction

  // under the quota and the CTA limit with `resid` CTAs resident. The ready bits and stage 2 take
  // the registered quota_en / CTA limit (qen_q, limit_q): in a cycle where the inputs differ
  // from them (cfg_chg) nothing is picked or issued and every row becomes dirty, so no bit
  // computed then is used before a refresh recomputes it
  function automatic logic under_limits(input logic [CW:0] resid, input gs_pkg::cta_cnt_t quota,
                                        input logic qen, input gs_pkg::cta_cnt_t limit);
    under_limits = (!qen || resid < (CW+1)'(quota)) && (limit == '0 || resid < (CW+1)'(limit));
  endfunction

  // ---------------------------------------------------------------- refresh of dirty rows
  // the lowest and the highest dirty row, K fit checks each; which rows they are is registered
  // (rlo_q, rhi_q: one-hot, found at the edge that writes dirty_q, from its next value), so a
  // refresh starts from a register instead of a search over dirty_q: the same rows, cycle for
  // cycle, as searching dirty_q itself
  logic [N-1:0] lo_oh, hi_oh, refreshed;
  assign lo_oh = rlo_q;
  assign hi_oh = rhi_q;
  assign refreshed = lo_oh | hi_oh;

  // fit checks of one row against every slot's demand, with `extra` CTAs of slot `xslot` added
  logic [RowW-1:0] lo_row, hi_row, pk_row;
  logic [K-1:0] lo_ok, hi_ok, pk_ok;
  logic [RW-1:0] lo_cap, hi_cap, pk_cap;
  // the used resources through the copies, the resident counts and quotas through the registers
  // themselves
  assign lo_row = (row_of(~rlo_un_q, rows) & UsedMask) | (row_of(lo_oh, rows) & ~UsedMask);
  assign hi_row = (row_of(~rhi_un_q, rows) & UsedMask) | (row_of(hi_oh, rows) & ~UsedMask);

  // ---------------------------------------------------------------- stage 2 (issue) inputs
  logic [N-1:0] pick_oh;   // the registered pick, one-hot
  assign pick_oh = poh_q;
  assign pk_row = (row_of(~poh_un_q, rows) & UsedMask) | (row_of(pick_oh, rows) & ~UsedMask);

  // Two stages per row: in the cycle a row is read (the refresh's two, the issued SM's) its used
  // resources are registered and, per slot, whether the slot is under its quota and the CTA
  // limit (the issued SM's with its CTA counted: resident + 1 for the issued slot, and the CTA's
  // demand registered beside it, fpk_dem_q); in the next
  // cycle (the fit stage, f*_q) every slot's demand is checked against the registered row, and
  // the bits land in the overlay at the edge after it. So the 132-way row read and the fit
  // checks are a cycle apart. The issued SM's row after its CTA is exact (also when a free or a
  // quota write dirtied it): a CTA of slot k fits on top of used + the issued slot's demand
  // (gs_cta_fit with TwoCtas: no sum of the row formed first).
  logic [K-1:0] lo_ul, hi_ul, pk_ul;   // read stage: under the quota and the CTA limit
  for (genvar k = 0; k < K; k++) begin : g_row_limits
    localparam int RO = K * CW + k * CW;   // slot k's resident count in a row
    localparam int QO = k * CW;            // slot k's quota in a row
    assign lo_ul[k] = under_limits({1'b0, lo_row[RO +: CW]}, lo_row[QO +: CW], qen_q, limit_q);
    assign hi_ul[k] = under_limits({1'b0, hi_row[RO +: CW]}, hi_row[QO +: CW], qen_q, limit_q);
    assign pk_ul[k] = under_limits({1'b0, pk_row[RO +: CW]} + (CW+1)'(pslot_q == SW'(k)), pk_row[QO +: CW],
                                   qen_q, limit_q);
  end

  gs_pkg::wf_res_t pk_dem;   // read stage: the issued CTA's demand
  always_comb begin
    pk_dem = '0;
    for (int k = 0; k < K; k++) pk_dem = pk_dem | ({RW{pslot_oh_q[k]}} & k_dem[k*RW +: RW]);
  end
  assign lo_cap = type_cap_of(flo_ty_q, type_cap);
  assign hi_cap = type_cap_of(fhi_ty_q, type_cap);
  assign pk_cap = type_cap_of(fpk_ty_q, type_cap);
  for (genvar k = 0; k < K; k++) begin : g_row_fit
    logic lo_fit, hi_fit, pk_fit;
    gs_pkg::wf_res_t lo_sum, hi_sum, pk_sum;
    gs_cta_fit u_lo (.acc_i(flo_used_q), .cta_i(k_dem[k*RW +: RW]), .cta2_i('0), .cap_i(lo_cap),
                     .sum_o(lo_sum), .fits_o(lo_fit));
    gs_cta_fit u_hi (.acc_i(fhi_used_q), .cta_i(k_dem[k*RW +: RW]), .cta2_i('0), .cap_i(hi_cap),
                     .sum_o(hi_sum), .fits_o(hi_fit));
    gs_cta_fit #(.TwoCtas(1'b1)) u_pk (.acc_i(fpk_used_q), .cta_i(k_dem[k*RW +: RW]), .cta2_i(fpk_dem_q), .cap_i(pk_cap),
                     .sum_o(pk_sum), .fits_o(pk_fit));
    assign lo_ok[k] = lo_fit && flo_ul_q[k];
    assign hi_ok[k] = hi_fit && fhi_ul_q[k];
    assign pk_ok[k] = pk_fit && fpk_ul_q[k];
  end

  // ---------------------------------------------------------------- column sweep
  // lane j checks SM sptr_q*G + j against slot scol_q's demand
  logic [NG-1:0] grp_oh;
  for (genvar g = 0; g < NG; g++) begin : g_grp
    assign grp_oh[g] = sptr_q == GW'(g);
  end
  logic [G-1:0] sw_ok;
  for (genvar j = 0; j < G; j++) begin : g_lane
    logic [N-1:0] lane_oh;   // the lane's SM in the group under way
    logic [RowW-1:0] lane_row;
    logic [RW-1:0] lane_cap;
    logic lane_fit;
    gs_pkg::wf_res_t lane_sum;
    gs_pkg::cta_cnt_t lane_res, lane_quota;
    for (genvar s = 0; s < N; s++) begin : g_sel
      if (s % G == j) begin : g_in
        assign lane_oh[s] = sgrp_q[s / G];
      end else begin : g_out
        assign lane_oh[s] = 1'b0;
      end
    end
    assign lane_row = row_of(lane_oh, rows);
    assign lane_cap = type_cap_of(lane_ty_q[j*TW +: TW], type_cap);
    assign lane_res = row_resident(lane_row, scol_q);
    assign lane_quota = row_quota(lane_row, scol_q);
    // the swept slot's demand: the lower half of the lanes select it by scol_p_q, the upper half
    // by scol_n_q (two registers, each driving half the lanes' fit checks)
    gs_pkg::wf_res_t lane_dem;
    if (j < G / 2) begin : g_dem_p
      always_comb begin
        lane_dem = '0;
        for (int k = 0; k < K; k++) lane_dem = lane_dem | ({RW{scol_p_q[k]}} & k_dem[k*RW +: RW]);
      end
    end else begin : g_dem_n
      always_comb begin
        lane_dem = '0;
        for (int k = 0; k < K; k++) lane_dem = lane_dem | ({RW{!scol_n_q[k]}} & k_dem[k*RW +: RW]);
      end
    end
    gs_cta_fit u_sw (.acc_i(lane_row[RowW-1 -: RW]), .cta_i(lane_dem),
                     .cta2_i('0), .cap_i(lane_cap), .sum_o(lane_sum), .fits_o(lane_fit));
    assign sw_ok[j] = lane_fit && under_limits({1'b0, lane_res}, lane_quota, qen_q, limit_q);
  end

  // ---------------------------------------------------------------- stage 1a: candidates
  // bcol bit k*K+j: slot j goes before slot k (column k of the order)
  logic [K*K-1:0] bcol;
  always_comb begin
    for (int j = 0; j < K; j++) begin
      for (int k = 0; k < K; k++) begin
`ifdef GS_MUT_SMD_ORDER_IGNORED
        // MUTATION: the policy's order is ignored; the lowest ready slot wins
        bcol[k*K + j] = (j < k);
`else
        bcol[k*K + j] = beats_q[j*K + k];
`endif
      end
    end
  end
  logic [K-1:0] rdy, sel;
  gs_pkg::slot_t best;
  always_comb begin
    rdy = '0;
    sel = '0;
    best = '0;
    for (int s = 0; s < N; s++) begin
      rdy = ready[s*K +: K] & work & elig_i[s*K +: K] & ~col_clr_i;
      // the ready kernel no other ready kernel goes before (beats_q is a total order)
      for (int k = 0; k < K; k++) sel[k] = rdy[k] && ((rdy & bcol[k*K +: K]) == '0);
      best = '0;
      for (int k = 0; k < K; k++) if (sel[k]) best = best | SW'(k);
      cand_d[s] = (rdy != '0) && usable[s] && !dirty_q[s];
      cslot_d[s*SW +: SW] = best;
    end
  end

  // ---------------------------------------------------------------- stage 1b: pick
  // the registered candidates but the SM picked last cycle (issuing now: a CTA must land in the
  // SMST before its SM issues again). The searches carry each SM's best slot and type beside
  // its index (gs_ffs data), so the pick's slot and type come out of the same tree instead of
  // a 132-way read after it
  logic [N-1:0] cand;
`ifdef GS_MUT_SMD_REPICK
  // MUTATION: the SM picked last cycle may be picked again, before its CTA reaches the SMST
  assign cand = cand_q;
`else
  assign cand = cand_q & ~pick_oh;
`endif
  logic [N-1:0] from_rr, cand_rr, new_oh;
  logic found, found_rr, picked;
  logic [IW-1:0] first_rr, first_any, pick_idx;
  logic [N*(SW+TW)-1:0] cdata;               // SM s's {best slot, type} at [s*(SW+TW) +: SW+TW]
  logic [SW+TW-1:0] data_rr, data_any, pick_data;
  for (genvar s = 0; s < N; s++) begin : g_from_rr
    assign from_rr[s] = gs_pkg::SmIdW'(s) >= rr_q;
    assign new_oh[s] = picked && pick_idx == IW'(s);
    assign cdata[s*(SW+TW) +: SW+TW] = {cslot_q[s*SW +: SW], cfg_sm_type_i[s*TW +: TW]};
  end
  assign cand_rr = cand & from_rr;
  gs_ffs #(.Width(N), .DataW(SW+TW)) u_first_from_rr (.req_i(cand_rr), .data_i(cdata), .valid_o(found_rr),
                                                      .idx_o(first_rr), .data_o(data_rr));
  gs_ffs #(.Width(N), .DataW(SW+TW)) u_first_any (.req_i(cand), .data_i(cdata), .valid_o(found),
                                                  .idx_o(first_any), .data_o(data_any));
  assign pick_idx = found_rr ? first_rr : first_any;
  assign pick_data = found_rr ? data_rr : data_any;
  // a configuration change picks nothing (masked after the search, off the candidates' path)
  assign picked = found && !cfg_chg;

  always_comb begin
    pv_d = picked;
    psm_d = picked ? gs_pkg::SmIdW'(pick_idx) : '0;
    {pslot_d, ptype_d} = picked ? pick_data : '0;
    // the SM after the pick; the pick is below cfg_num_sms_i, so it wraps exactly at the last
    // SM (an equality formed beside the search, not a compare after the increment)
    rr_d = rr_q;
    if (picked) rr_d = (pick_idx == last_sm_q) ? '0 : gs_pkg::SmIdW'(pick_idx) + 1'b1;
  end

  // ---------------------------------------------------------------- stage 2: issue
  // the pick still holds on its SM now. Its resources, its quota and the CTA limit: its ready bit
  // now (the candidate was formed a cycle before the pick, when its SM may have been issued a
  // CTA whose row had yet to land; the bit now holds every CTA issued to the SM but the last
  // cycle's, and no CTA went to the SM in that cycle; a free only adds room; an admission of
  // its slot clears it), unless a quota write or a configuration change may have lowered a
  // limit under the bit: the row is marked (qdirty_q) until a refresh that read it after the
  // write lands, and in the cycle before the mark (the last cycle's quota write, chg_q) the
  // event registers say it. All from registers: no row is read here (the capacity assertion
  // below, and the golden twin's invariant, check every issue). The ready bit is read as the
  // overlay defines it but from its registers: the overlay rows are matched against the pick's
  // index (register to register compares), the sweep lanes and r_q through the pick's one-hot,
  // not through the bitmap's per-row decode of every overlay index (132 loads each).
  logic pk_limits, pk_usable, pk_elig, pk_ready, pk_nonempty;
  gs_pkg::cta_id_t pk_head;
  logic rd_base, rd_sw_row, rd_sw_bit, rd_hit_lo, rd_hit_hi, rd_hit_pk;
  always_comb begin
    rd_base = 1'b0;
    rd_sw_row = 1'b0;
    rd_sw_bit = 1'b0;
    for (int s = 0; s < N; s++) begin
      rd_base = rd_base | (pick_oh[s] && (r_q[s*K +: K] & pslot_oh_q) != '0);
      rd_sw_row = rd_sw_row | (pick_oh[s] && osw_grp_q[s / G]);
      rd_sw_bit = rd_sw_bit | (pick_oh[s] && osw_ok_q[s % G]);
    end
    rd_hit_lo = olo_v_q && olo_idx_q == IW'(psm_q);
    rd_hit_hi = ohi_v_q && ohi_idx_q == IW'(psm_q);
    rd_hit_pk = opk_v_q && opk_idx_q == IW'(psm_q);
    // the overlay's order: the issue's row, the highest refreshed, the lowest, the sweep's bit, r_q
    pk_ready = rd_hit_pk ? (opk_ok_q & pslot_oh_q) != '0
             : rd_hit_hi ? (ohi_ok_q & pslot_oh_q) != '0
             : rd_hit_lo ? (olo_ok_q & pslot_oh_q) != '0
             : (osw_v_q && rd_sw_row && (osw_col_q & pslot_oh_q) != '0) ? rd_sw_bit
             : rd_base;
`ifdef GS_MUT_SMD_NO_READY_RECHECK
    // MUTATION: the pick issues on its candidate's ready bit, a cycle old
    pk_ready = 1'b1;
`endif
`ifdef GS_MUT_SMD_QUOTA_WRITE_IGNORED
    // MUTATION: stage 2 trusts the ready bit while a quota write or a configuration change is pending on the row
    pk_limits = 1'b1;
`else
    // (the last cycle's quota write: its SM against the pick's, register to register)
    pk_limits = !chg_q && !(evq_v_q && evq_sm_q == psm_q) && (pick_oh & qdirty_q) == '0;
`endif
    pk_usable = (pick_oh & usable) != '0;
    pk_elig = 1'b0;
    for (int s = 0; s < N; s++) pk_elig = pk_elig | (pick_oh[s] && (elig_i[s*K +: K] & pslot_oh_q) != '0);

    issue_valid_o = pv_q && pk_ready && pk_limits && pk_usable && (work & pslot_oh_q) != '0 && pk_elig
                 && (col_clr_i & pslot_oh_q) == '0 && !cfg_chg;
    issue_sm_o = psm_q;
    issue_slot_o = pslot_q;

    // the chosen kernel's record: PTBQ head first, else the next fresh CTA. The record is
    // registered whole and masked after the register when no CTA issued (dispatch_o), so the
    // issue decision drives only the valid bit, not every field of the record
    ei = '0;
    pk_nonempty = 1'b0;
    pk_head = '0;
    for (int k = 0; k < K; k++) begin
      ei = ei | ({gs_pkg::KsrtW{pslot_oh_q[k]}} & ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW]);
      pk_nonempty = pk_nonempty | (pslot_oh_q[k] && ptbq_count_i[k*gs_pkg::PtbqCntW +: gs_pkg::PtbqCntW] != '0);
      pk_head = pk_head | ({gs_pkg::CtaIdW{pslot_oh_q[k]}} & ptbq_head_i[k*gs_pkg::CtaIdW +: gs_pkg::CtaIdW]);
    end
    issue_resume_o = issue_valid_o && pk_nonempty;
    issue_res_o.threads = ei.threads;
    issue_res_o.warps = ei.warps;
    issue_res_o.regs = ei.regs;
    issue_res_o.shmem = ei.shmem;
    dispatch_d.valid = issue_valid_o;
    dispatch_d.sm = psm_q;
    dispatch_d.kernel = ei.kernel;
    dispatch_d.resume = pk_nonempty;
    dispatch_d.cta = pk_nonempty ? pk_head : ei.next_cta;
  end

  // ---------------------------------------------------------------- next state of the bitmap
  logic [N-1:0] free_oh, qwr_oh;   // the last cycle's row events
  assign free_oh = evf_oh_q;
  assign qwr_oh = evq_oh_q;
  logic [N-1:0] dirty_new, search;
  logic [N-1:0] landing;   // the rows whose refresh is in the fit stage
  for (genvar s = 0; s < N; s++) begin : g_landing
    assign landing[s] = (flo_v_q && flo_idx_q == IW'(s)) || (fhi_v_q && fhi_idx_q == IW'(s));
  end
  logic [N-1:0] lo_nx, hi_nx;   // one-hot lowest / highest row to refresh next cycle
  // dirty rows: the refreshed ones leave, the rows of the last cycle's events enter
  always_comb begin
    for (int s = 0; s < N; s++) begin
`ifdef GS_MUT_SMD_NO_DIRTY_ON_FREE
      // MUTATION: a freed CTA does not mark its SM's row: the room it leaves is seen only when
      // the row changes for another reason
      dirty_new[s] = qwr_oh[s];
`else
      dirty_new[s] = free_oh[s] || qwr_oh[s];
`endif
    end
    dirty_d = ((dirty_q & ~refreshed) | dirty_new | {N{chg_q}}) & in_gpu_q;
    // a row's limits are current again when a refresh that read it after the quota write lands
    // (the write of the last cycle, qwr_oh, was not seen by a read of the last cycle)
`ifdef GS_MUT_SMD_QDIRTY_AT_READ
    // MUTATION: the mark leaves when the row is read, a cycle before its bits land
    qdirty_d = ((qdirty_q & ~refreshed) | qwr_oh | {N{chg_q}}) & in_gpu_q;
`else
    qdirty_d = ((qdirty_q & ~landing) | qwr_oh | {N{chg_q}}) & in_gpu_q;
`endif
    // the rows refreshed next cycle come from the dirty ones whose SMST resources do not change
    // at the next edge: the SMST writes this cycle's issue (the pick's SM) a cycle late, so that
    // row waits a cycle more. (A free of this cycle marks its row only in the next one; a row
    // refreshed before that is marked again then.)
`ifdef GS_MUT_SMD_REFRESH_PENDING
    // MUTATION: a row whose resources the SMST has yet to write is refreshed from its old row
    search = dirty_d;
`else
    search = dirty_d & ~pick_oh;
`endif
  end
  // its lowest row (gs_ffs) and highest (gs_ffs on the reversed vector), one-hot, each with its
  // SM's type (the search's data: no read of the types after it)
  logic [N-1:0] search_rev;
  logic [N*TW-1:0] types_rev;
  logic lo_v, hi_v;
  logic [IW-1:0] lo_idx, hi_rev_idx;
  for (genvar s = 0; s < N; s++) begin : g_ends
    assign search_rev[s] = search[N-1-s];
    assign types_rev[s*TW +: TW] = cfg_sm_type_i[(N-1-s)*TW +: TW];
    assign lo_nx[s] = lo_v && lo_idx == IW'(s);
    assign hi_nx[s] = hi_v && hi_rev_idx == IW'(N - 1 - s);
  end
  gs_ffs #(.Width(N), .DataW(TW)) u_lo (.req_i(search), .data_i(cfg_sm_type_i), .valid_o(lo_v), .idx_o(lo_idx),
                                        .data_o(lo_ty_d));
  gs_ffs #(.Width(N), .DataW(TW)) u_hi (.req_i(search_rev), .data_i(types_rev), .valid_o(hi_v), .idx_o(hi_rev_idx),
                                        .data_o(hi_ty_d));
  assign rlo_d = lo_nx;
  assign rhi_d = hi_nx;
  // the sweep's next group is group 0 (a start or a restart), the one after sptr_q, or sptr_q's:
  // its select and its lanes' SM types are formed for the first two from registers and picked
  // by the sweep's flags (an admission decides only the pick, not a read of the types)
  logic sweep_zero, sweep_inc;
  logic [NG-1:0] sgrp_nx;
  logic [G*TW-1:0] lane_ty_g0, lane_ty_nx;
  assign sgrp_nx = sgrp_q << 1;
  always_comb begin
    lane_ty_g0 = '0;
    lane_ty_nx = '0;
    for (int g = 0; g < NG; g++) begin
      for (int j = 0; j < G; j++) begin
        if (g * G + j < N) begin
          if (g == 0) lane_ty_g0[j*TW +: TW] = cfg_sm_type_i[j*TW +: TW];
          lane_ty_nx[j*TW +: TW] = lane_ty_nx[j*TW +: TW] | ({TW{sgrp_nx[g]}} & cfg_sm_type_i[(g*G + j)*TW +: TW]);
        end
      end
    end
    sgrp_d = sweep_zero ? NG'(1) : sweep_inc ? sgrp_nx : sgrp_q;
    lane_ty_d = sweep_zero ? lane_ty_g0 : sweep_inc ? lane_ty_nx : lane_ty_q;
  end
  logic [K-1:0] scol_1h;
  logic sweep_last, restart;
  always_comb begin
    // the order: slot j before slot k
    for (int j = 0; j < K; j++) begin
      for (int k = 0; k < K; k++) begin
        beats_d[j*K + k] = (key_i[j*KW +: KW] < key_i[k*KW +: KW]) || (key_i[j*KW +: KW] == key_i[k*KW +: KW] && j < k);
      end
    end

    // ready bits: the admitted columns cleared, into r_q; the sweep's bits, the refreshed rows'
    // and the issued SM's row after its CTA (in that order of precedence) into the overlay, with
    // the same columns cleared
    r_d = ready;
    for (int s = 0; s < N; s++) begin
      for (int k = 0; k < K; k++) begin
        if (col_clr_i[k]) r_d[s*K + k] = 1'b0;
      end
    end

    waits_d = waits_q;
    if ((dirty_q & ~refreshed) != '0 && waits_q != '1) waits_d = waits_q + 1'b1;

    // the column sweep: one column at a time; a column admitted again while it is swept restarts
    scol_1h = '0;
    for (int k = 0; k < K; k++) scol_1h[k] = (scol_q == SW'(k));
    restart = sact_q && ((col_clr_i & scol_1h) != '0);
    sweep_last = sptr_q >= last_grp_q;   // sptr_q*G + G >= cfg_num_sms_i
    sact_d = sact_q;
    scol_d = scol_q;
    sptr_d = sptr_q;
    sweep_inc = sact_q && !restart && !sweep_last;
    sweep_zero = restart;
    if (restart) begin
      sptr_d = '0;
    end else if (sact_q) begin
      if (sweep_last) sact_d = 1'b0;
      else sptr_d = sptr_q + 1'b1;
    end
    // columns to sweep besides the one under way: the waiting ones and the newly admitted ones
    // (an idle sweep starts the lowest of them at once)
    swait_d = swait_q | (col_clr_i & ~(restart ? scol_1h : '0));
    if (!sact_d && swait_d != '0) begin
      sact_d = 1'b1;
      sptr_d = '0;
      sweep_zero = 1'b1;
      for (int k = K - 1; k >= 0; k--) begin
        if (swait_d[k]) scol_d = SW'(k);
      end
      for (int k = 0; k < K; k++) if (scol_d == SW'(k)) swait_d[k] = 1'b0;
    end
  end

  // the registered record, idle (no kernel named) when no CTA issued
  always_comb begin
    dispatch_o = '0;
    dispatch_o.kernel = gs_pkg::KernelIdW'(gs_pkg::NoKernel);
    if (dispatch_q.valid) dispatch_o = dispatch_q;
  end
  // the ready bitmap: the overlay above r_q (the issue's row above the highest refreshed row's
  // above the lowest's above the sweep's bits, as they were written in that order)
  always_comb begin
    for (int s = 0; s < N; s++) begin
      ready[s*K +: K] = r_q[s*K +: K];
      for (int k = 0; k < K; k++) begin
        if (osw_v_q && osw_grp_q[s / G] && osw_col_q[k]) ready[s*K + k] = osw_ok_q[s % G];
      end
      if (olo_v_q && olo_idx_q == IW'(s)) ready[s*K +: K] = olo_ok_q;
      if (ohi_v_q && ohi_idx_q == IW'(s)) ready[s*K +: K] = ohi_ok_q;
      if (opk_v_q && opk_idx_q == IW'(s)) ready[s*K +: K] = opk_ok_q;
    end
  end
  assign ready_o = ready;
  assign dirty_o = dirty_q;
  assign qdirty_o = qdirty_q;
  assign cand_o = cand_q;
  assign cand_slot_o = cslot_q;
  assign waits_o = waits_q;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      r_q <= '0;
      olo_v_q <= 1'b0;
      ohi_v_q <= 1'b0;
      osw_v_q <= 1'b0;
      osw_grp_q <= '0;
      osw_col_q <= '0;
      osw_ok_q <= '0;
      opk_v_q <= 1'b0;
      olo_idx_q <= '0;
      ohi_idx_q <= '0;
      opk_idx_q <= '0;
      olo_ok_q <= '0;
      ohi_ok_q <= '0;
      opk_ok_q <= '0;
      rlo_v_q <= 1'b0;
      rhi_v_q <= 1'b0;
      rlo_idx_q <= '0;
      rhi_ridx_q <= '0;
      flo_v_q <= 1'b0;
      fhi_v_q <= 1'b0;
      fpk_v_q <= 1'b0;
      flo_idx_q <= '0;
      fhi_idx_q <= '0;
      fpk_idx_q <= '0;
      flo_ul_q <= '0;
      fhi_ul_q <= '0;
      fpk_ul_q <= '0;
      dirty_q <= '0;
      qdirty_q <= '0;
      rlo_q <= '0;
      rhi_q <= '0;
      rlo_un_q <= '1;
      rhi_un_q <= '1;
      poh_un_q <= '1;
      sgrp_q <= '0;
      sgrp_q[0] <= 1'b1;
      lane_ty_q <= lane_ty_g0;
      for (int j = 0; j < K; j++) begin
        for (int k = 0; k < K; k++) beats_q[j*K + k] <= (j < k);
      end
      cand_q <= '0;
      cslot_q <= '0;
      pv_q <= 1'b0;
      psm_q <= '0;
      pslot_q <= '0;
      pslot_oh_q <= '0;
      poh_q <= '0;
      ptype_q <= '0;
      swait_q <= '0;
      sact_q <= 1'b0;
      scol_q <= '0;
      scol_p_q <= K'(1);
      scol_n_q <= ~K'(1);
      sptr_q <= '0;
      qen_q <= 1'b0;
      limit_q <= '0;
      evq_v_q <= 1'b0;
      chg_q <= 1'b0;
      evf_oh_q <= '0;
      evq_oh_q <= '0;
      evq_sm_q <= '0;
      waits_q <= '0;
      rr_q <= '0;
      dispatch_q <= '0;
    end else begin
      r_q <= r_d;
      olo_v_q <= flo_v_q;
      ohi_v_q <= fhi_v_q;
      osw_v_q <= sact_q;
      osw_grp_q <= grp_oh;
      osw_col_q <= scol_1h;
      osw_ok_q <= sw_ok & ~{G{(col_clr_i & scol_1h) != '0}};
      olo_idx_q <= flo_idx_q;
      ohi_idx_q <= fhi_idx_q;
      olo_ok_q <= lo_ok & ~col_clr_i;
      ohi_ok_q <= hi_ok & ~col_clr_i;
`ifdef GS_MUT_SMD_STALE_ROW
      // MUTATION: the issued SM's row keeps its bits from before the CTA
      opk_v_q <= 1'b0;
`else
      opk_v_q <= fpk_v_q;
`endif
      opk_idx_q <= fpk_idx_q;
      opk_ok_q <= pk_ok & ~col_clr_i;
      flo_v_q <= rlo_v_q;
      fhi_v_q <= rhi_v_q;
      fpk_v_q <= issue_valid_o;
      flo_idx_q <= rlo_idx_q;
      fhi_idx_q <= IW'(N - 1) - rhi_ridx_q;
      fpk_idx_q <= IW'(psm_q);
      flo_ul_q <= lo_ul;
      fhi_ul_q <= hi_ul;
      fpk_ul_q <= pk_ul;
      rlo_v_q <= lo_v;
      rhi_v_q <= hi_v;
      rlo_idx_q <= lo_idx;
      rhi_ridx_q <= hi_rev_idx;
      dirty_q <= dirty_d;
      qdirty_q <= qdirty_d;
      rlo_q <= rlo_d;
      rhi_q <= rhi_d;
      rlo_un_q <= ~rlo_d;
      rhi_un_q <= ~rhi_d;
      poh_un_q <= ~new_oh;
      sgrp_q <= sgrp_d;
      lane_ty_q <= lane_ty_d;
      beats_q <= beats_d;
      cand_q <= cand_d;
      cslot_q <= cslot_d;
      pv_q <= pv_d;
      psm_q <= psm_d;
      pslot_q <= pslot_d;
      for (int k = 0; k < K; k++) pslot_oh_q[k] <= pv_d && pslot_d == SW'(k);
      poh_q <= new_oh;
      ptype_q <= ptype_d;
      swait_q <= swait_d;
      sact_q <= sact_d;
      scol_q <= scol_d;
      for (int k = 0; k < K; k++) begin
        scol_p_q[k] <= scol_d == SW'(k);
        scol_n_q[k] <= scol_d != SW'(k);
      end
      sptr_q <= sptr_d;
      qen_q <= quota_en_i;
      limit_q <= cfg_cta_limit_i;
      evq_v_q <= quota_wr_valid_i;
      chg_q <= cfg_chg;
      for (int s = 0; s < N; s++) begin
        evf_oh_q[s] <= free_valid_i && free_sm_i == gs_pkg::SmIdW'(s);
        evq_oh_q[s] <= quota_wr_valid_i && quota_wr_sm_i == gs_pkg::SmIdW'(s);
      end
      evq_sm_q <= quota_wr_sm_i;
      waits_q <= waits_d;
      rr_q <= rr_d;
      dispatch_q <= dispatch_d;
    end
  end
  // the types follow their selects in every cycle, in_gpu_q, last_sm_q and last_grp_q follow cfg_num_sms_i (both static
  // configuration, set before reset: no reset needed)
  always_ff @(posedge clk_i) begin
    lo_ty_q <= lo_ty_d;
    hi_ty_q <= hi_ty_d;
    flo_ty_q <= lo_ty_q;
    fhi_ty_q <= hi_ty_q;
    fpk_ty_q <= ptype_q;
    // the rows' used resources: read only through a valid stage (no reset needed)
    flo_used_q <= lo_row[RowW-1 -: RW];
    fhi_used_q <= hi_row[RowW-1 -: RW];
    fpk_used_q <= pk_row[RowW-1 -: RW];
    fpk_dem_q <= pk_dem;
    in_gpu_q <= in_gpu;
    last_sm_q <= IW'(cfg_num_sms_i - 1'b1);
    last_grp_q <= (cfg_num_sms_i == '0) ? '0 : GW'((32'(cfg_num_sms_i) - 1) / G);
  end
`ifndef SYNTHESIS
  // invariants (docs/verification.md): no SM over any capacity; no CTA issued to a reserved SM
  for (genvar s = 0; s < N; s++) begin : g_inv
    gs_pkg::smst_entry_t ent;
    gs_pkg::wf_res_t cap;
    assign ent = smst_i[s*gs_pkg::SmstW +: gs_pkg::SmstW];
    assign cap = type_cap_of(cfg_sm_type_i[s*TW +: TW], type_cap);
    assert property (@(posedge clk_i) disable iff (!rst_ni)
        ent.threads <= cap.threads && ent.warps <= cap.warps && ent.regs <= cap.regs && ent.shmem <= cap.shmem
        && ent.ctas <= cap.slots)
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
