// gsched: gs_policy_spatial -- Spatial multitasking (Adriaens et al.; Warped-Slicer Sec. V
// "Spatial"): the SMs are split evenly between the kernels with CTAs left to issue.
//
// The kernels are numbered 0..K-1 by arrival (Active Queue rank); SM s is owned by kernel
// number (s mod K), so the SM counts of two kernels differ by at most one and every kernel
// gets an SM when K <= num_sms. The SM driver issues to an SM only CTAs of its owner
// (owner_strict); CTAs of a previous owner drain naturally (no preemption).
// Reassignment starts when the set of such kernels changes and writes one SM per cycle
// (num_sms cycles; a further change restarts it).
// Storage: FSM 1 + 6 + 3 b, target and done masks 2 x 8 b, K 4 b.
module gs_policy_spatial (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,
  input  logic [gs_pkg::SmIdW:0] cfg_num_sms_i,
  input  gs_pkg::slot_mask_t pending_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::SlotW-1:0] rank_i,
  output gs_pkg::owner_wr_t owner_wr_o
);
  localparam int K = gs_pkg::MaxKernels;
  localparam int SW = gs_pkg::SlotW;
  localparam int KCW = gs_pkg::SlotW + 1;

  logic busy_q, busy_d;
  gs_pkg::sm_id_t s_q, s_d;
  logic [KCW-1:0] pos_q, pos_d, nk_q, nk_d;
  gs_pkg::slot_mask_t target_q, target_d, done_q, done_d;

  logic start, hit;
  logic [KCW-1:0] cnt, p;
  gs_pkg::slot_t owner;

  always_comb begin
    busy_d = busy_q;
    s_d = s_q;
    pos_d = pos_q;
    nk_d = nk_q;
    target_d = target_q;
    done_d = done_q;
    owner_wr_o = '0;

    cnt = '0;
    for (int k = 0; k < K; k++) cnt = cnt + KCW'(pending_i[k]);
    start = en_i && (pending_i != done_q) && (!busy_q || pending_i != target_q);

    // the kernel numbered pos_q: its position among the target kernels by arrival rank
    hit = 1'b0;
    owner = '0;
    for (int k = 0; k < K; k++) begin
      p = '0;
      for (int j = 0; j < K; j++) begin
        if (target_q[j] && rank_i[j*SW +: SW] < rank_i[k*SW +: SW]) p = p + 1'b1;
      end
      if (target_q[k] && p == pos_q) begin
        hit = 1'b1;
        owner = SW'(k);
      end
    end

    if (!en_i) begin
      busy_d = 1'b0;
    end else if (start) begin
      busy_d = 1'b1;
      s_d = '0;
      pos_d = '0;
      target_d = pending_i;
      nk_d = cnt;
    end else if (busy_q) begin
      owner_wr_o.valid = 1'b1;
      owner_wr_o.sm = s_q;
      owner_wr_o.owner_valid = hit;
      owner_wr_o.owner = owner;
      pos_d = pos_q + 1'b1;
      if (pos_d >= nk_q) pos_d = '0;
      s_d = s_q + 1'b1;
      if ({1'b0, s_q} + 1'b1 >= cfg_num_sms_i) begin
        busy_d = 1'b0;
        done_d = target_q;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      s_q <= '0;
      pos_q <= '0;
      nk_q <= '0;
      target_q <= '0;
      done_q <= '0;
    end else begin
      busy_q <= busy_d;
      s_q <= s_d;
      pos_q <= pos_d;
      nk_q <= nk_d;
      target_q <= target_d;
      done_q <= done_d;
    end
  end
endmodule
