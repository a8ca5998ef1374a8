// gs_policy_spatial: Spatial multitasking (Adriaens et al.; Warped-Slicer Sec. V "Spatial").
// Contract and timing: docs/rtl/gs_policy_spatial.md
//
// The SMs are split evenly between the kernels with CTAs left to issue.
// The kernels are numbered 0..K-1 by arrival (Active Queue rank); SM s is owned by kernel
// number (s mod K), so the SM counts of two kernels differ by at most one and every kernel
// gets an SM when K <= num_sms. The SM driver issues to an SM only CTAs of its owner
// (owner_strict); CTAs of a previous owner drain naturally (no preemption).
// Reassignment starts when the set of such kernels changes and writes one SM per cycle
// (num_sms cycles; a further change restarts it): gs_repartition_scan with one step per SM.
// A step's owner write is registered (wr_q, on out_o the cycle after): the arrival-rank
// position search then ends at a flop, not at the port (docs/rtl/gs_policy_spatial.md).
// Policy contract: docs/adding-a-policy.md. Storage: spatial_state_t (scan, pos, wr).
module gs_policy_spatial (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  en_i,
  input  gs_pkg::policy_e       policy_i,
  input  gs_pkg::policy_cfg_t   cfg_i,
  input  gs_pkg::policy_view_t  view_i,
  input  gs_pkg::policy_event_t event_i,
  input  logic                  accept_i,
  output gs_pkg::policy_out_t   out_o,
  output gs_pkg::spatial_state_t   state_o   // the registers (lockstep state check; see gs_spec.toml)
);
  localparam int N = gs_pkg::MaxSms;
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int KCW = gs_pkg::SlotW + 1;

  // one SM per step
  gs_pkg::scan_state_t scan_state;
  logic start, step;
  gs_pkg::sm_id_t sm;
  gs_pkg::slot_t inner;   // always 0 with Inner = 1
  gs_pkg::slot_mask_t target;
  logic [KCW-1:0] nk;
  gs_repartition_scan #(.Inner(1)) u_scan (
    .clk_i, .rst_ni, .en_i, .cfg_num_sms_i(cfg_i.num_sms), .pending_i(view_i.pending), .hold_i(1'b0),
    .start_o(start), .step_o(step), .sm_o(sm), .inner_o(inner), .target_o(target), .nk_o(nk),
    .state_o(scan_state)
  );

  // position of the SM's owner among the target kernels: s mod K, kept as a counter
  logic [KCW-1:0] pos_q, pos_d, p;
  logic hit;
  gs_pkg::slot_t owner;
  logic [K*SW-1:0] rank;
  assign rank = view_i.rank;
  gs_pkg::owner_wr_t wr_q, wr_d;   // the last step's owner write, on out_o one cycle later

  // FIFO order; an SM issues only CTAs of its owner (SMST owner field)
  logic [K*gs_pkg::OrderKeyW-1:0] key;
  gs_order_keys u_keys (.prio_en_i(1'b0), .ksrt_i(view_i.ksrt), .rank_i(view_i.rank), .key_o(key));
  logic [N*K-1:0] elig;
  gs_owner_elig u_elig (.smst_i(view_i.smst), .elig_o(elig));
  always_comb begin
    out_o = '0;
    out_o.key = key;
    out_o.elig = elig;
    out_o.owner_wr = wr_q;
  end

  always_comb begin
    pos_d = pos_q;
    wr_d = '0;

    // the kernel numbered pos_q: its position among the target kernels by arrival rank
    // (only a step reads it)
    hit = 1'b0;
    owner = '0;
    p = '0;
    if (step) for (int k = 0; k < K; k++) begin
      p = '0;
      for (int j = 0; j < K; j++) begin
        if (target[j] && rank[j*SW +: SW] < rank[k*SW +: SW]) p = p + 1'b1;
      end
      if (target[k] && p == pos_q) begin
        hit = 1'b1;
        owner = SW'(k);
      end
    end

    if (start) begin
      pos_d = '0;
    end else if (step) begin
      wr_d.valid = 1'b1;
      wr_d.sm = sm;
      wr_d.owner_valid = hit;
      wr_d.owner = owner;
      pos_d = pos_q + 1'b1;
      if (pos_d >= nk) pos_d = '0;
    end
  end

  always_comb begin
    state_o = '0;
    state_o.scan = scan_state;
    state_o.pos = pos_q;
    state_o.wr = wr_q;
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      pos_q <= '0;
      wr_q <= '0;
    end else begin
      pos_q <= pos_d;
      wr_q <= wr_d;
    end
  end
endmodule
