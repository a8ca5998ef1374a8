// gs_prof_counters: the profiling counters the profiling policies read (Warped-Slicer Sec. IV-A).
// Contract and timing: docs/rtl/gs_prof_counters.md
//
// What the policies that profile read, and nothing more:
//   * a pair per SM (warp instructions, memory-stall cycles) counting the one kernel slot the
//     SM is tagged with: a profiling split gives each measured SM one kernel (Warped-Slicer's
//     P(i,j) and phi_mem, Eq. 3; HeteroCore's big- and small-SM IPC), and the owning policy
//     writes that slot as it maps the SM (tag_i);
//   * a sum per kernel slot (warp instructions over every SM): SBM's per-task IPC and
//     Warped-Slicer's phase monitor, where both kernels share the SMs;
//   * the window length in cycles and a saturation flag.
// Fed by the observation channel (one ObsSample per cycle at most; docs/architecture.md, "The
// observation channel"), with the sample's KSRT slot looked up by gs_top (obs_hit_i, obs_slot_i).
// The sample is staged a cycle (obs_q) before it is added: the owning policy decides clear_i
// and run_i from the sample's stamp in its own cycle and registers them, so both reach the
// counters with the staged sample and no path runs from the observation port through the
// policy's window test into the counters. clear_i zeroes the counts, the window length and the
// saturation flag (not the tags); while run_i is high the staged sample is added and the window
// counts cycles, while low everything is frozen (a policy reads a stable window at its own pace).
// Resident CTAs per SM and kernel are not counted here: the SMST keeps them (gs_smst).
// A count that would pass 2**ProfCntW-1 stays there and sets sat_o (sticky until clear_i): a
// limit reached is a reported event, never a wrap.
// Reads: rd_insts_o / rd_stall_o are SM rd_sm_i's pair, acc_insts_o kernel slot rd_slot_i's sum,
// combinational in the address (a policy scans one per cycle).
// Storage: MaxSms pairs of 2 x ProfCntW b + MaxSms valid bits + MaxSms tags (valid + slot) +
// MaxKernels sums of ProfCntW b + the window length, the flag, the registered tag write and the
// pipeline of an addition (the staged sample, its pair, sum and tag test read, the split sums
// waiting for their write). clear_i clears the pairs' valid bits only: a pair not written since
// reads as zero.
// An addition takes three stages (no path runs from the sample's SM through a table read and
// an adder back into the table): READ as the sample is staged, the pair and the sum it adds to
// are read (as they will be after this edge: a result waiting in WRITE, this edge's clear and
// the tag landing at it forwarded); ADD sums the two halves of each count apart, the upper half
// for both carries in (the result of the addition before, still in WRITE, is taken instead of
// the read when it was the same pair or sum); WRITE selects the upper half, saturates and
// writes the table, while the reads take the result from there. The counts read are the same
// as a one-cycle addition's (golden twin: cmodel/sched/golden/gs_prof_counters.hpp).
// Latency: a sample at edge t is staged, added at edge t+1 (with that cycle's run_i and the tags
// as they were before that edge) and in the counters from cycle t+2; clear_i at edge t gives
// zeros from t+1; a tag presented in cycle t (registered at edge t, in the table at t+1) counts
// the samples added from edge t+2.
module gs_prof_counters (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,
  input  logic                         run_i,
  input  gs_pkg::obs_sample_t          obs_i,        // sm, insts and mem_stall are read
  input  logic                         obs_hit_i,
  input  gs_pkg::slot_t                obs_slot_i,
  input  logic                         tag_i,        // SM tag_sm_i's pair counts slot tag_slot_i
  input  gs_pkg::sm_id_t               tag_sm_i,
  input  gs_pkg::slot_t                tag_slot_i,
  input  gs_pkg::sm_id_t               rd_sm_i,
  input  gs_pkg::slot_t                rd_slot_i,
  output logic [gs_pkg::ProfCntW-1:0]  rd_insts_o,
  output logic [gs_pkg::ProfCntW-1:0]  rd_stall_o,
  output logic [gs_pkg::ProfCntW-1:0]  acc_insts_o,
  output logic [gs_pkg::ProfCntW-1:0]  cycles_o,
  output logic                         sat_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int W = gs_pkg::ProfCntW;
  localparam int SW = gs_pkg::SlotW;
  localparam int LW = W / 2;          // a count's lower half ...
  localparam int UW = W - LW;         // ... and upper half
  localparam int PW = 2 * (UW + 1) + 1 + LW;   // a split sum: {upper + 1, upper, carry, lower}

  logic [W-1:0] insts_q [N];     // SM s's pair counts only while valid_q[s] is set
  logic [W-1:0] stall_q [N];
  logic [N-1:0] valid_q;
  logic [N-1:0] tag_valid_q;     // SM s's pair counts kernel slot tag_q[s]
  logic [N*SW-1:0] tag_q;        // SM s's at [s*SW +: SW]
  logic tg_q;                    // a tag write, registered: into tag_q at the next edge
  gs_pkg::sm_id_t tg_sm_q;
  gs_pkg::slot_t tg_slot_q;
  logic [K*W-1:0] acc_q;         // kernel slot k's instructions over every SM, at [k*W +: W]
  logic [W-1:0] cycles_q;
  logic sat_q;

  // a + b split: the lower halves' sum and carry, the upper halves' sum for either carry in
  function automatic logic [PW-1:0] split_add(input logic [W-1:0] a, input logic [W-1:0] b);
    logic [LW:0] lo;
    logic [UW:0] up0, up1;
    lo = {1'b0, a[LW-1:0]} + {1'b0, b[LW-1:0]};
    up0 = {1'b0, a[W-1:LW]} + {1'b0, b[W-1:LW]};
    up1 = {1'b0, a[W-1:LW]} + {1'b0, b[W-1:LW]} + (UW+1)'(1);
    split_add = {up1, up0, lo[LW], lo[LW-1:0]};
  endfunction
  // whether a split sum passes 2**W - 1
  function automatic logic split_over(input logic [PW-1:0] p);
    split_over = p[LW] ? p[PW-1] : p[PW-UW-2];
  endfunction
  // a split sum joined, held at all ones when it passed the top
  function automatic logic [W-1:0] split_join(input logic [PW-1:0] p);
    logic [UW:0] up;
    up = p[LW] ? p[PW-1 -: UW+1] : p[LW+1 +: UW+1];
`ifdef GS_MUT_PROF_WRAP
    // MUTATION: the count wraps instead of saturating
    split_join = {up[UW-1:0], p[LW-1:0]};
`else
    split_join = up[UW] ? {W{1'b1}} : {up[UW-1:0], p[LW-1:0]};
`endif
  endfunction

  // ------------------------------------------------------------------ READ: the staged sample
  gs_pkg::obs_sample_t obs_q;    // the staged sample, its KSRT hit and slot
  logic obs_hit_q;
  gs_pkg::slot_t obs_slot_q;
  logic [W-1:0] pin_insts, pin_stall, sin, pin_insts_q, pin_stall_q, sin_q;  // its pair and sum read
  logic tag_match, tag_match_q;  // its SM's tag names its slot
  logic pchain, pchain_q;        // its pair is the one ADD is adding to (take WRITE's result)
  logic schain, schain_q;        // its sum is the one ADD is adding to

  // ------------------------------------------------------------------ WRITE: the results
  logic pwr_q, swr_q;            // a pair, a sum waits for its write
  gs_pkg::sm_id_t pwr_sm_q;
  gs_pkg::slot_t swr_slot_q;
  logic [PW-1:0] pwr_insts_q, pwr_stall_q, swr_sum_q;
  logic [W-1:0] pwr_insts, pwr_stall, swr_sum;   // joined
  assign pwr_insts = split_join(pwr_insts_q);
  assign pwr_stall = split_join(pwr_stall_q);
  assign swr_sum = split_join(swr_sum_q);

  // ------------------------------------------------------------------ ADD
  logic take, take_pair;
  logic [W-1:0] base_insts, base_stall, base_sum;
  logic [PW-1:0] add_insts, add_stall, add_sum;
  logic [W:0] cycles_sum;
  always_comb begin
    // an SM beyond MaxSms (never sent by the model) or a kernel not in the KSRT (its launch was
    // not seen, or it just finished) is not counted
`ifdef GS_MUT_PROF_COUNT_FROZEN
    // MUTATION: samples are added while the counters are frozen
    take = obs_q.valid && obs_hit_q && 32'(obs_q.sm) < N;
`else
    take = run_i && obs_q.valid && obs_hit_q && 32'(obs_q.sm) < N;
`endif
`ifdef GS_MUT_PROF_TAG_IGNORED
    // MUTATION: an SM's pair counts every kernel on it, not only its tagged one
    take_pair = take;
`else
    take_pair = take && tag_match_q;
`endif
    base_insts = pchain_q ? pwr_insts : pin_insts_q;
    base_stall = pchain_q ? pwr_stall : pin_stall_q;
    base_sum = schain_q ? swr_sum : sin_q;
    add_insts = split_add(base_insts, W'(obs_q.insts));
    add_stall = split_add(base_stall, W'(obs_q.mem_stall));
    add_sum = split_add(base_sum, W'(obs_q.insts));
    cycles_sum = {1'b0, cycles_q} + (W+1)'(1);
  end

  // ------------------------------------------------------------------ READ
  always_comb begin
    pin_insts = '0;
    pin_stall = '0;
    tag_match = 1'b0;
    for (int s = 0; s < N; s++) begin
      if (obs_i.sm == gs_pkg::SmIdW'(s)) begin
        pin_insts = valid_q[s] ? insts_q[s] : '0;
        pin_stall = valid_q[s] ? stall_q[s] : '0;
        tag_match = tag_valid_q[s] && tag_q[s*SW +: SW] == obs_slot_i;
      end
    end
    if (pwr_q && pwr_sm_q == obs_i.sm) begin   // written into the table at this edge
      pin_insts = pwr_insts;
      pin_stall = pwr_stall;
    end
    sin = '0;
    for (int k = 0; k < K; k++) if (obs_slot_i == SW'(k)) sin = acc_q[k*W +: W];
    if (swr_q && swr_slot_q == obs_slot_i) sin = swr_sum;
    if (tg_q && tg_sm_q == obs_i.sm) tag_match = tg_slot_q == obs_slot_i;   // written at this edge
    pchain = take_pair && obs_q.sm == obs_i.sm && !clear_i;   // added at this edge
    schain = take && obs_slot_q == obs_slot_i && !clear_i;
    if (clear_i) begin
      pin_insts = '0;
      pin_stall = '0;
      sin = '0;
    end
  end

  // ------------------------------------------------------------------ reads
  // a read beyond the table (rd_sm_i >= MaxSms) or of a pair not written since the clear reads
  // zeros; a result waiting in WRITE is read from there: one AND-OR over the table, with the
  // entry WRITE replaces masked out (from registers, early), and WRITE's result as one more term
  logic rd_fwd;
  always_comb begin
    rd_fwd = pwr_q && pwr_sm_q == rd_sm_i;
    rd_insts_o = rd_fwd ? pwr_insts : '0;
    rd_stall_o = rd_fwd ? pwr_stall : '0;
    for (int s = 0; s < N; s++) begin
      if (rd_sm_i == gs_pkg::SmIdW'(s) && valid_q[s] && !(pwr_q && pwr_sm_q == gs_pkg::SmIdW'(s))) begin
        rd_insts_o = rd_insts_o | insts_q[s];
        rd_stall_o = rd_stall_o | stall_q[s];
      end
    end
    acc_insts_o = '0;
    for (int k = 0; k < K; k++) if (rd_slot_i == SW'(k)) acc_insts_o = acc_q[k*W +: W];
    if (swr_q && swr_slot_q == rd_slot_i) acc_insts_o = swr_sum;
  end
  assign cycles_o = cycles_q;
  assign sat_o = sat_q;

  // ------------------------------------------------------------------ registers
  // the pairs: no reset (valid_q says which hold counts)
  always_ff @(posedge clk_i) begin
    if (pwr_q && rst_ni && !clear_i) begin
      insts_q[pwr_sm_q] <= pwr_insts;
      stall_q[pwr_sm_q] <= pwr_stall;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      obs_q <= '0;
      obs_hit_q <= 1'b0;
      obs_slot_q <= '0;
      pin_insts_q <= '0;
      pin_stall_q <= '0;
      sin_q <= '0;
      tag_match_q <= 1'b0;
      pchain_q <= 1'b0;
      schain_q <= 1'b0;
      pwr_q <= 1'b0;
      pwr_sm_q <= '0;
      pwr_insts_q <= '0;
      pwr_stall_q <= '0;
      swr_q <= 1'b0;
      swr_slot_q <= '0;
      swr_sum_q <= '0;
      tg_q <= 1'b0;
      tg_sm_q <= '0;
      tg_slot_q <= '0;
      tag_valid_q <= '0;
      tag_q <= '0;
    end else begin
      obs_q <= obs_i;
      obs_hit_q <= obs_hit_i;
      obs_slot_q <= obs_slot_i;
      pin_insts_q <= pin_insts;
      pin_stall_q <= pin_stall;
      sin_q <= sin;
      tag_match_q <= tag_match;
      pchain_q <= pchain;
      schain_q <= schain;
      pwr_q <= take_pair && !clear_i;
      pwr_sm_q <= obs_q.sm;
      pwr_insts_q <= add_insts;
      pwr_stall_q <= add_stall;
      swr_q <= take && !clear_i;
      swr_slot_q <= obs_slot_q;
      swr_sum_q <= add_sum;
      tg_q <= tag_i && 32'(tag_sm_i) < N;
      tg_sm_q <= tag_sm_i;
      tg_slot_q <= tag_slot_i;
      if (tg_q) begin
        tag_valid_q[tg_sm_q] <= 1'b1;
        tag_q[32'(tg_sm_q)*SW +: SW] <= tg_slot_q;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      valid_q <= '0;
      acc_q <= '0;
      cycles_q <= '0;
      sat_q <= 1'b0;
    end else begin
      if (pwr_q) valid_q[pwr_sm_q] <= 1'b1;
`ifdef GS_MUT_PROF_SUM_TAGGED_ONLY
      // MUTATION: a kernel's sum counts only the samples a tagged pair counts
      if (swr_q && pwr_q) acc_q[32'(swr_slot_q)*W +: W] <= swr_sum;
`else
      if (swr_q) acc_q[32'(swr_slot_q)*W +: W] <= swr_sum;
`endif
      if (run_i) cycles_q <= cycles_sum[W] ? {W{1'b1}} : cycles_sum[W-1:0];
      // the flag with the addition (ADD), as the counts it flags are read from the cycle after
      if ((take_pair && (split_over(add_insts) || split_over(add_stall))) || (take && split_over(add_sum))
          || (run_i && cycles_sum[W]))
        sat_q <= 1'b1;
    end
  end
endmodule
