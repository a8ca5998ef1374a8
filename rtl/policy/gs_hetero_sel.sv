// gs_hetero_sel: HeteroCore's big/small-SM mapping decision (Algorithm 2; Sec. 6.4).
// Contract and timing: docs/rtl/gs_hetero_sel.md
//
// Zhao et al., "HeteroCore GPU to Exploit TLP-Resource Diversity", TPDS 2019, Sec. 4.3,
// Algorithm 2; Sec. 6.4 for more than two kernels.
// After spatial profiling, each of nk_i kernels ran on sms_big_i big and sms_small_i small SMs
// and executed big_insts and small_insts warp instructions there in one window (instruction
// counts stand for IPCs). Every kernel thick (and nk_i >= 2): even_o, the profiling split
// stays. Otherwise the nk_i / 2 kernels with the largest STP gain take the big SMs (big_o), the
// rest the small ones; on a tie the later kernel wins (the algorithm's else branch).
// Integers only, the same in the golden twin (cmodel/sched/golden/gs_hetero_sel.hpp): the rates
// are shifted to HcSigW significant bits and gains compared by cross-multiplication, so no
// divider; the page has the formulas and the fixed point.
// Purely combinational (decision latency 0); the caller registers the result. Kernels
// c >= nk_i are ignored and never in big_o. Storage: none.
module gs_hetero_sel (
  input  logic [gs_pkg::HcKW-1:0]                          nk_i,
  input  logic [gs_pkg::SmIdW-1:0]                         sms_big_i,
  input  logic [gs_pkg::SmIdW-1:0]                         sms_small_i,
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::HcInstW-1:0]  big_insts_i,     // kernel c at [c*W +: W]
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::HcInstW-1:0]  small_insts_i,
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::CtaCntW-1:0]  cta_big_i,       // its CTAs per big SM
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::CtaCntW-1:0]  cta_small_i,     // ... per small SM
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::CtaCntW-1:0]  cta_base_i,      // ... per conventional SM
  output logic [gs_pkg::HcMaxKernels-1:0]                  thick_o,
  output logic [gs_pkg::HcMaxKernels-1:0]                  big_o,
  output logic                                             even_o
);
  localparam int K = gs_pkg::HcMaxKernels;
  localparam int KW = gs_pkg::HcKW;
  localparam int IW = gs_pkg::HcInstW;
  localparam int RW = gs_pkg::HcRateW;
  localparam int SW = gs_pkg::HcSigW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int NW = SW + CW + 3;        // N_c, signed
  localparam int GW = SW + CW + 2;        // G_c, signed
  localparam int PW = NW + GW;            // G_i N_j, signed
  localparam int LW = $clog2(RW + 1);     // a bit length, 0..RW

  // ------------------------------------------------------------------ rates and their scale
  logic [K*RW-1:0] rb, rs;
  logic [K-1:0] in_set;
  logic [RW-1:0] any;
  logic [LW-1:0] len, sh;
  always_comb begin
    any = '0;
    for (int c = 0; c < K; c++) begin
      in_set[c] = KW'(c) < nk_i;
      rb[c*RW +: RW] = big_insts_i[c*IW +: IW] * sms_small_i;   // IW x SmIdW bits: fits RW
      rs[c*RW +: RW] = small_insts_i[c*IW +: IW] * sms_big_i;
      thick_o[c] = in_set[c] && rb[c*RW +: RW] > rs[c*RW +: RW];
      if (in_set[c]) any = any | rb[c*RW +: RW] | rs[c*RW +: RW];
    end
    len = '0;
    for (int i = 0; i < RW; i++) if (any[i]) len = LW'(i + 1);
    sh = (len > LW'(SW)) ? len - LW'(SW) : '0;
  end

  // ------------------------------------------------------------------ N_c and G_c per kernel
  logic [K*NW-1:0] n;
  logic [K*GW-1:0] g;
  logic [SW-1:0] b, s;
  logic signed [NW-1:0] dlt, dcta, dbase, nc;
  always_comb begin
    for (int c = 0; c < K; c++) begin
      b = SW'(rb[c*RW +: RW] >> sh);
      s = SW'(rs[c*RW +: RW] >> sh);
      dlt = NW'($signed({1'b0, b})) - NW'($signed({1'b0, s}));
      dcta = NW'($signed({1'b0, cta_big_i[c*CW +: CW]})) - NW'($signed({1'b0, cta_small_i[c*CW +: CW]}));
      dbase = NW'($signed({1'b0, cta_base_i[c*CW +: CW]})) - NW'($signed({1'b0, cta_small_i[c*CW +: CW]}));
      if (dcta <= 0) begin   // IPC_scaled undefined: IPC^base = b_c, D_c = 1
        nc = NW'($signed({1'b0, b}));
        dcta = NW'(1);
      end else begin
`ifdef GS_MUT_HC_BASE_IS_SMALL
        // MUTATION: IPC^base is the small-SM IPC (IPC_scaled taken as 0)
        nc = NW'($signed({1'b0, s})) * dcta;
`else
        nc = dbase * dlt + NW'($signed({1'b0, s})) * dcta;
`endif
      end
      if (nc <= 0) nc = NW'(1);   // an estimate of zero or below
      n[c*NW +: NW] = nc;
      g[c*GW +: GW] = GW'(dlt * dcta);
    end
  end

  // ------------------------------------------------------------------ the ranking and the mapping
  // one comparison per pair i < j (both products): K(K-1)/2 comparators
  logic [K*KW-1:0] rank;                  // the kernels whose gain beats kernel c's
  logic signed [PW-1:0] p_ij, p_ji;
  logic j_wins;
  logic all_thick;
  always_comb begin
    rank = '0;
    for (int i = 0; i < K; i++) begin
      for (int j = i + 1; j < K; j++) begin
        p_ij = PW'($signed(g[i*GW +: GW])) * PW'($signed(n[j*NW +: NW]));   // gain_i x N_i N_j
        p_ji = PW'($signed(g[j*GW +: GW])) * PW'($signed(n[i*NW +: NW]));
`ifdef GS_MUT_HC_TIE_FIRST
        // MUTATION: an exact tie goes to the earlier kernel (K0 on the big SMs)
        j_wins = p_ji > p_ij;
`else
        j_wins = p_ji >= p_ij;   // the later kernel wins a tie (Algorithm 2's else branch)
`endif
        if (in_set[i] && in_set[j]) begin
          if (j_wins) rank[i*KW +: KW] = rank[i*KW +: KW] + KW'(1);
          else rank[j*KW +: KW] = rank[j*KW +: KW] + KW'(1);
        end
      end
    end
`ifdef GS_MUT_HC_EVEN_ANY_THICK
    // MUTATION: the even split when any kernel is thick (line 8's `and` read as `or`)
    all_thick = nk_i >= KW'(2) && thick_o != '0;
`else
    all_thick = nk_i >= KW'(2) && thick_o == in_set;
`endif
    even_o = nk_i < KW'(2) || all_thick;
    for (int i = 0; i < K; i++) big_o[i] = !even_o && in_set[i] && rank[i*KW +: KW] < (nk_i >> 1);
  end
endmodule
