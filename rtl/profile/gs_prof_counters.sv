// gs_prof_counters: per-SM, per-kernel-slot profiling counters (Warped-Slicer Sec. IV-A).
// Contract and timing: docs/rtl/gs_prof_counters.md
//
// What Warped-Slicer's profiling phase reads to build its performance curves (Fig. 4) and the
// scaling factor's phi_mem (Eq. 3), and what SBM's fixed-window IPC and HeteroCore's SM-type
// choice read too: per SM s and KSRT slot k, the warp instructions issued and the memory-stall
// cycles over a window, and the window's length in cycles. Fed by the observation channel (one
// ObsSample per cycle at most; docs/architecture.md, "The observation channel"), with the
// sample's KSRT slot looked up by gs_top (obs_hit_i, obs_slot_i).
// The sample is staged a cycle (obs_q) before it is added: the owning policy decides clear_i
// and run_i from the sample's stamp in its own cycle and registers them, so both reach the
// counters with the staged sample and no path runs from the observation port through the
// policy's window test into the counters. Control, from the policy that owns the profiling
// phase: clear_i zeroes every counter, the window length and the saturation flag; while run_i
// is high the staged sample is added and the window counts cycles, while low the counters are
// frozen (a policy reads a stable window at its own pace). Resident CTAs per SM and kernel are not counted here: the SMST keeps them (gs_smst),
// and a second copy could disagree.
// A count that would pass 2**ProfCntW-1 stays there and sets sat_o (sticky until clear_i): a
// limit reached is a reported event, never a wrap.
// Reads: rd_insts_o / rd_stall_o are the registered counters of (rd_sm_i, rd_slot_i),
// combinational in the read address (a policy scans SMs one per cycle).
// Storage: a memory of 132 x 8 entries of 2 x 32 b counters (one write and two reads per cycle)
// + 1,056 valid bits + 32 b window + 1 b flag + the staged sample (obs_sample_t, hit, slot),
// MaxSms x MaxKernels x ProfCntW at the defaults. clear_i clears the valid bits only: an entry
// not written since reads as zero, so a clear takes one cycle without a write port per entry.
// Latency: a sample at edge t is staged, added at edge t+1 (with that cycle's run_i) and in the
// counters from cycle t+2; clear_i at edge t gives zeros from t+1.
module gs_prof_counters (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  logic                         clear_i,
  input  logic                         run_i,
  input  gs_pkg::obs_sample_t          obs_i,        // sm, insts and mem_stall are read
  input  logic                         obs_hit_i,
  input  gs_pkg::slot_t                obs_slot_i,
  input  gs_pkg::sm_id_t               rd_sm_i,
  input  gs_pkg::slot_t                rd_slot_i,
  output logic [gs_pkg::ProfCntW-1:0]  rd_insts_o,
  output logic [gs_pkg::ProfCntW-1:0]  rd_stall_o,
  output logic [gs_pkg::ProfCntW-1:0]  cycles_o,
  output logic                         sat_o
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int W = gs_pkg::ProfCntW;
  localparam int IdxW = $clog2(N * K);

  logic [W-1:0] insts_q [N*K];   // an entry is its counters only while valid_q has its bit
  logic [W-1:0] stall_q [N*K];
  logic [N*K-1:0] valid_q;
  logic [W-1:0] cycles_q;
  logic sat_q;
  gs_pkg::obs_sample_t obs_q;    // the staged sample, its KSRT hit and slot
  logic obs_hit_q;
  gs_pkg::slot_t obs_slot_q;

  // {carried, a + b held at all ones when it carried out}
  function automatic logic [W:0] sat_add(input logic [W-1:0] a, input logic [W-1:0] b);
    logic [W:0] sum;
    sum = {1'b0, a} + {1'b0, b};
`ifdef GS_MUT_PROF_WRAP
    // MUTATION: the count wraps instead of saturating
    sat_add = sum;
`else
    sat_add = {sum[W], sum[W] ? {W{1'b1}} : sum[W-1:0]};
`endif
  endfunction

  // the sample's entry; an SM beyond MaxSms (never sent by the model) or a kernel not in the
  // KSRT (its launch was not seen, or it just finished) is not counted
  logic take;
  logic [IdxW-1:0] idx, rd_idx;
  logic [W-1:0] insts_now, stall_now, insts_sum, stall_sum, cycles_sum;
  logic insts_over, stall_over, cycles_over;
  always_comb begin
`ifdef GS_MUT_PROF_COUNT_FROZEN
    // MUTATION: samples are added while the counters are frozen
    take = obs_q.valid && obs_hit_q && 32'(obs_q.sm) < N;
`else
    take = run_i && obs_q.valid && obs_hit_q && 32'(obs_q.sm) < N;
`endif
    idx = IdxW'(32'(obs_q.sm) * K + 32'(obs_slot_q));
    rd_idx = IdxW'(32'(rd_sm_i) * K + 32'(rd_slot_i));
    insts_now = valid_q[idx] ? insts_q[idx] : '0;
    stall_now = valid_q[idx] ? stall_q[idx] : '0;
    {insts_over, insts_sum} = sat_add(insts_now, W'(obs_q.insts));
    {stall_over, stall_sum} = sat_add(stall_now, W'(obs_q.mem_stall));
    {cycles_over, cycles_sum} = sat_add(cycles_q, W'(1));
  end

  // a read beyond the table (rd_sm_i >= MaxSms) or of an entry not written since the clear reads zeros
  logic rd_valid;
  assign rd_valid = 32'(rd_sm_i) < N && valid_q[rd_idx];
  assign rd_insts_o = rd_valid ? insts_q[rd_idx] : '0;
  assign rd_stall_o = rd_valid ? stall_q[rd_idx] : '0;
  assign cycles_o = cycles_q;
  assign sat_o = sat_q;

  // the counter memory: no reset (valid_q says which entries hold counts)
  always_ff @(posedge clk_i) begin
    if (take && rst_ni && !clear_i) begin
      insts_q[idx] <= insts_sum;
      stall_q[idx] <= stall_sum;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      obs_q <= '0;
      obs_hit_q <= 1'b0;
      obs_slot_q <= '0;
    end else begin
      obs_q <= obs_i;
      obs_hit_q <= obs_hit_i;
      obs_slot_q <= obs_slot_i;
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni || clear_i) begin
      valid_q <= '0;
      cycles_q <= '0;
      sat_q <= 1'b0;
    end else begin
      if (take) valid_q[idx] <= 1'b1;
      if (run_i) cycles_q <= cycles_sum;
      if ((take && (insts_over || stall_over)) || (run_i && cycles_over)) sat_q <= 1'b1;
    end
  end
endmodule
