// gs_hetero_sel: HeteroCore's big/small-SM mapping decision (Algorithm 2; Sec. 6.4), sequential.
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
// A decision is taken once per kernel set, so one gs_seq_mul does every product in turn under
// a state machine: per kernel its two rates (thick: a chunked compare), then the common shift
// (a find-first-set tree), per kernel N_c and G_c (three products), per pair of kernels the two
// cross products (a chunked compare). No carry chain is wider than ArithChunkW + a few bits.
// Timing: start_i at edge t (any running decision is abandoned); busy_o from t+1 until the
// decision, the outputs final in the first cycle busy_o is low (nk_i = 0: busy_o stays low).
// nk_i is taken at the start; the other inputs are read while busy_o is high, so the caller
// holds them. Cycle counts on the page and in constraints/latency.json. Kernels c >= nk_i are
// ignored and never in big_o.
// Storage: hc_sel_state_t (gs_spec.toml).
module gs_hetero_sel (
  input  logic                                             clk_i,
  input  logic                                             rst_ni,
  input  logic                                             start_i,
  input  logic [gs_pkg::HcKW-1:0]                          nk_i,
  input  logic [gs_pkg::SmIdW-1:0]                         sms_big_i,
  input  logic [gs_pkg::SmIdW-1:0]                         sms_small_i,
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::HcInstW-1:0]  big_insts_i,     // kernel c at [c*W +: W]
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::HcInstW-1:0]  small_insts_i,
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::CtaCntW-1:0]  cta_big_i,       // its CTAs per big SM
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::CtaCntW-1:0]  cta_small_i,     // ... per small SM
  input  logic [gs_pkg::HcMaxKernels*gs_pkg::CtaCntW-1:0]  cta_base_i,      // ... per conventional SM
  output logic                                             busy_o,
  output logic [gs_pkg::HcMaxKernels-1:0]                  thick_o,
  output logic [gs_pkg::HcMaxKernels-1:0]                  big_o,
  output logic                                             even_o,
  output gs_pkg::hc_sel_state_t                            state_o
);
  localparam int K = gs_pkg::HcMaxKernels;
  localparam int KW = gs_pkg::HcKW;
  localparam int GrW = gs_pkg::HcGrpW;
  localparam int IW = gs_pkg::HcInstW;
  localparam int RW = gs_pkg::HcRateW;
  localparam int SW = gs_pkg::HcSigW;
  localparam int CW = gs_pkg::CtaCntW;
  localparam int GW = gs_pkg::HcGW;
  localparam int NW = gs_pkg::HcNW;
  localparam int BW = gs_pkg::HcMulBW;
  localparam int XW = gs_pkg::HcPairW;
  localparam int CH = gs_pkg::ArithChunkW;
  localparam int NC = gs_pkg::HcCmpChunks;
  localparam int ShW = gs_pkg::HcShW;
  localparam int LW = $clog2(RW);

  gs_pkg::hc_sel_state_t q, d;
  logic [K-1:0] in_set;
  always_comb begin
    for (int c = 0; c < K; c++) in_set[c] = KW'(c) < q.nk;
  end

  // ------------------------------------------------------------------ the operands of kernel ki
  // (4:1 AND-OR reads; ki is i, 0 at a start, i + 1 when THICK starts the next kernel's rate)
  logic [GrW-1:0] ki;
  logic [IW-1:0] big_k, small_k;
  logic [CW-1:0] ctab_k, ctas_k, ctao_k;
  logic [RW-1:0] rb_i, rs_i;
  logic [NW-1:0] n_i, n_j;
  logic [GW-1:0] g_i, g_j;
  always_comb begin
    ki = start_i ? '0 : (q.st == gs_pkg::HCSEL_THICK) ? q.i + 1'b1 : q.i;
    big_k = '0;
    small_k = '0;
    ctab_k = '0;
    ctas_k = '0;
    ctao_k = '0;
    rb_i = '0;
    rs_i = '0;
    n_i = '0;
    n_j = '0;
    g_i = '0;
    g_j = '0;
    for (int c = 0; c < K; c++) begin
      if (ki == GrW'(c)) begin
        big_k = big_insts_i[c*IW +: IW];
        small_k = small_insts_i[c*IW +: IW];
        ctab_k = cta_big_i[c*CW +: CW];
        ctas_k = cta_small_i[c*CW +: CW];
        ctao_k = cta_base_i[c*CW +: CW];
      end
      if (q.i == GrW'(c)) begin
        rb_i = q.rb[c*RW +: RW];
        rs_i = q.rs[c*RW +: RW];
        n_i = q.n[c*NW +: NW];
        g_i = q.g[c*GW +: GW];
      end
      if (q.j == GrW'(c)) begin
        n_j = q.n[c*NW +: NW];
        g_j = q.g[c*GW +: GW];
      end
    end
  end

  // ------------------------------------------------------------------ the multiplier
  logic mul_start, mul_busy;
  logic [GW-1:0] mul_a;
  logic [BW-1:0] mul_b;
  logic [gs_pkg::HcMulPW-1:0] prod;
  gs_pkg::hc_mul_state_t mul_state;
  gs_seq_mul #(.AW(GW), .BW(BW)) u_mul (
    .clk_i, .rst_ni, .start_i(mul_start), .a_i(mul_a), .b_i(mul_b), .busy_o(mul_busy), .prod_o(prod),
    .state_o(mul_state)
  );

  // ------------------------------------------------------------------ the common shift
  // the highest set bit of the in-set rates: gs_ffs on the bits reversed
  logic [RW-1:0] any, any_rev;
  logic any_valid;
  logic [LW-1:0] any_top;   // RW - 1 - the highest set bit
  logic [ShW-1:0] len;
  always_comb begin
    any = '0;
    for (int c = 0; c < K; c++) if (in_set[c]) any = any | q.rb[c*RW +: RW] | q.rs[c*RW +: RW];
    for (int b = 0; b < RW; b++) any_rev[b] = any[RW-1-b];
  end
  gs_ffs #(.Width(RW)) u_top (.req_i(any_rev), .data_i('0), .valid_o(any_valid), .idx_o(any_top), .data_o());
  assign len = any_valid ? ShW'(RW) - ShW'(any_top) : '0;

  // ------------------------------------------------------------------ chunked compares
  // THICK: rb_i against the small rate arriving; Y: the pair's second product against x
  logic [NC*CH-1:0] cmp_l, cmp_r;
  logic gt_all, eq_all;
  always_comb begin
    cmp_l = (q.st == gs_pkg::HCSEL_RATE_S) ? (NC*CH)'(rb_i) : (NC*CH)'(prod[XW-1:0]);
    cmp_r = (q.st == gs_pkg::HCSEL_RATE_S) ? (NC*CH)'(prod[RW-1:0]) : (NC*CH)'(q.x);
    gt_all = 1'b0;   // the registered flags, the top chunk deciding first
    for (int c = 0; c < NC; c++) gt_all = q.gt[c] || (q.eq[c] && gt_all);
    eq_all = &q.eq;
  end

  // ------------------------------------------------------------------ the state machine
  logic [NW:0] n_sum;       // N_c, signed
  logic j_wins, all_thick;
  logic [K*KW-1:0] rank_nx;
  always_comb begin
    d = q;
    mul_start = 1'b0;
    mul_a = '0;
    mul_b = '0;
    n_sum = '0;
    j_wins = 1'b0;
    rank_nx = q.rank;
`ifdef GS_MUT_HC_EVEN_ANY_THICK
    // MUTATION: the even split when any kernel is thick (line 8's `and` read as `or`)
    all_thick = q.nk >= KW'(2) && q.thick != '0;
`else
    all_thick = q.nk >= KW'(2) && q.thick == in_set;
`endif
    if (start_i) begin
      d.nk = nk_i;
      d.i = '0;
      d.thick = '0;
      d.big = '0;
      d.even = nk_i == '0;
      d.st = gs_pkg::HCSEL_IDLE;
      if (nk_i != '0) begin
        mul_start = 1'b1;
        mul_a = GW'(sms_small_i);
        mul_b = BW'(big_k);
        d.st = gs_pkg::HCSEL_RATE_B;
      end
    end else begin
      unique case (q.st)
        gs_pkg::HCSEL_RATE_B: if (!mul_busy) begin   // kernel i's big-SM rate, then its small-SM rate
          for (int c = 0; c < K; c++) if (q.i == GrW'(c)) d.rb[c*RW +: RW] = prod[RW-1:0];
          mul_start = 1'b1;
          mul_a = GW'(sms_big_i);
          mul_b = BW'(small_k);
          d.st = gs_pkg::HCSEL_RATE_S;
        end
        gs_pkg::HCSEL_RATE_S: if (!mul_busy) begin   // rb_i against the small rate, chunk by chunk
          for (int c = 0; c < K; c++) if (q.i == GrW'(c)) d.rs[c*RW +: RW] = prod[RW-1:0];
          for (int c = 0; c < NC; c++) begin
            d.gt[c] = cmp_l[c*CH +: CH] > cmp_r[c*CH +: CH];
            d.eq[c] = cmp_l[c*CH +: CH] == cmp_r[c*CH +: CH];
          end
          d.st = gs_pkg::HCSEL_THICK;
        end
        gs_pkg::HCSEL_THICK: begin
          for (int c = 0; c < K; c++) if (q.i == GrW'(c)) d.thick[c] = gt_all;
          if (KW'(q.i) + KW'(1) < q.nk) begin   // the next kernel's big-SM rate (ki = i + 1)
            d.i = q.i + 1'b1;
            mul_start = 1'b1;
            mul_a = GW'(sms_small_i);
            mul_b = BW'(big_k);
            d.st = gs_pkg::HCSEL_RATE_B;
          end else begin
            d.st = gs_pkg::HCSEL_SHIFT;
          end
        end
        gs_pkg::HCSEL_SHIFT: begin
          if (q.nk < KW'(2) || all_thick) begin   // Algorithm 2 line 9: the profiling split stays
            d.even = 1'b1;
            d.st = gs_pkg::HCSEL_IDLE;
          end else begin
            d.sh = (len > ShW'(SW)) ? len - ShW'(SW) : '0;
            d.i = '0;
            d.rank = '0;
            d.st = gs_pkg::HCSEL_LOAD;
          end
        end
        gs_pkg::HCSEL_LOAD: begin   // kernel i's rates to HcSigW bits
          d.b = SW'(rb_i >> q.sh);
          d.s = SW'(rs_i >> q.sh);
          d.st = gs_pkg::HCSEL_DIFF;
        end
        gs_pkg::HCSEL_DIFF: begin   // the differences, sign and magnitude
          d.dlt_neg = q.b < q.s;
          d.dlt = (q.b < q.s) ? q.s - q.b : q.b - q.s;
          d.flat = ctab_k <= ctas_k;
          d.dcta = ctab_k - ctas_k;
          d.dbase_neg = ctao_k < ctas_k;
          d.dbase = (ctao_k < ctas_k) ? ctas_k - ctao_k : ctao_k - ctas_k;
          d.st = gs_pkg::HCSEL_N_START;
        end
        gs_pkg::HCSEL_N_START: begin
          if (q.flat) begin   // IPC_scaled undefined: IPC^base = b, D = 1
            for (int c = 0; c < K; c++) begin
              if (q.i == GrW'(c)) begin
                d.n[c*NW +: NW] = (q.b == '0) ? NW'(1) : NW'(q.b);
                d.g[c*GW +: GW] = GW'(q.dlt);
                d.g_neg[c] = q.dlt_neg;
              end
            end
          end else begin      // (cta_base - cta_small) (b - s)
            mul_start = 1'b1;
            mul_a = GW'(q.dbase);
            mul_b = BW'(q.dlt);
            d.st = gs_pkg::HCSEL_P1;
          end
        end
        gs_pkg::HCSEL_P1: if (!mul_busy) begin   // then s D
          d.p1 = prod[GW-1:0];
          mul_start = 1'b1;
          mul_a = GW'(q.dcta);
          mul_b = BW'(q.s);
          d.st = gs_pkg::HCSEL_P2;
        end
        gs_pkg::HCSEL_P2: if (!mul_busy) begin   // N_c = (cta_base - cta_small)(b - s) + s D, then G_c = (b - s) D
`ifdef GS_MUT_HC_BASE_IS_SMALL
          // MUTATION: IPC^base is the small-SM IPC (IPC_scaled taken as 0)
          n_sum = (NW + 1)'(prod[GW-1:0]);
`else
          n_sum = (q.dbase_neg != q.dlt_neg) ? (NW + 1)'(prod[GW-1:0]) - (NW + 1)'(q.p1)
                                             : (NW + 1)'(prod[GW-1:0]) + (NW + 1)'(q.p1);
`endif
          for (int c = 0; c < K; c++) begin   // an estimate of zero or below is held at 1
            if (q.i == GrW'(c)) d.n[c*NW +: NW] = ($signed(n_sum) <= 0) ? NW'(1) : n_sum[NW-1:0];
          end
          mul_start = 1'b1;
          mul_a = GW'(q.dcta);
          mul_b = BW'(q.dlt);
          d.st = gs_pkg::HCSEL_G;
        end
        gs_pkg::HCSEL_G: if (!mul_busy) begin
          for (int c = 0; c < K; c++) begin
            if (q.i == GrW'(c)) begin
              d.g[c*GW +: GW] = prod[GW-1:0];
              d.g_neg[c] = q.dlt_neg;
            end
          end
        end
        gs_pkg::HCSEL_PAIR: begin   // |G_i| N_j, then |G_j| N_i
          mul_start = 1'b1;
          mul_a = g_i;
          mul_b = BW'(n_j);
          d.st = gs_pkg::HCSEL_X;
        end
        gs_pkg::HCSEL_X: if (!mul_busy) begin
          d.x = prod[XW-1:0];
          mul_start = 1'b1;
          mul_a = g_j;
          mul_b = BW'(n_i);
          d.st = gs_pkg::HCSEL_Y;
        end
        gs_pkg::HCSEL_Y: if (!mul_busy) begin   // y = |G_j| N_i against x, chunk by chunk
          for (int c = 0; c < NC; c++) begin
            d.gt[c] = cmp_l[c*CH +: CH] > cmp_r[c*CH +: CH];
            d.eq[c] = cmp_l[c*CH +: CH] == cmp_r[c*CH +: CH];
          end
          d.st = gs_pkg::HCSEL_RANK;
        end
        gs_pkg::HCSEL_RANK: begin   // p_ji >= p_ij, p_ij = G_i N_j signed (N > 0: the sign is G_i's)
          if (q.g_neg[q.i] != q.g_neg[q.j]) j_wins = q.g_neg[q.i];
`ifdef GS_MUT_HC_TIE_FIRST
          // MUTATION: an exact tie goes to the earlier kernel (K0 on the big SMs)
          else if (!q.g_neg[q.i]) j_wins = gt_all;
          else j_wins = !gt_all && !eq_all;
`else
          else if (!q.g_neg[q.i]) j_wins = gt_all || eq_all;   // the later kernel wins a tie
          else j_wins = !gt_all;
`endif
          for (int c = 0; c < K; c++) begin
            if (j_wins && q.i == GrW'(c)) rank_nx[c*KW +: KW] = q.rank[c*KW +: KW] + 1'b1;
            if (!j_wins && q.j == GrW'(c)) rank_nx[c*KW +: KW] = q.rank[c*KW +: KW] + 1'b1;
          end
          d.rank = rank_nx;
          if (KW'(q.j) + KW'(1) < q.nk) begin
            d.j = q.j + 1'b1;
            d.st = gs_pkg::HCSEL_PAIR;
          end else if (KW'(q.i) + KW'(2) < q.nk) begin
            d.i = q.i + 1'b1;
            d.j = q.i + 2'd2;
            d.st = gs_pkg::HCSEL_PAIR;
          end else begin   // the nk / 2 largest gains take the big SMs
            for (int c = 0; c < K; c++) d.big[c] = in_set[c] && rank_nx[c*KW +: KW] < (q.nk >> 1);
            d.st = gs_pkg::HCSEL_IDLE;
          end
        end
        default: ;
      endcase
      // the next kernel after its N_c and G_c (flat: at once; else after G), or the first pair
      if ((q.st == gs_pkg::HCSEL_N_START && q.flat) || (q.st == gs_pkg::HCSEL_G && !mul_busy)) begin
        if (KW'(q.i) + KW'(1) < q.nk) begin
          d.i = q.i + 1'b1;
          d.st = gs_pkg::HCSEL_LOAD;
        end else begin
          d.i = '0;
          d.j = GrW'(1);
          d.st = gs_pkg::HCSEL_PAIR;
        end
      end
    end
  end

  always_comb begin
    state_o = q;
    state_o.mul = mul_state;
  end
  assign busy_o = q.st != gs_pkg::HCSEL_IDLE;
  assign thick_o = q.thick;
  assign big_o = q.big;
  assign even_o = q.even;

  always_ff @(posedge clk_i) begin
    if (!rst_ni) q <= '0;
    else q <= d;
  end
endmodule
