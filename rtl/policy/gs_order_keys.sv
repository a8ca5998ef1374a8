// gs_order_keys: the SM driver's per-slot order key, shared by every policy.
// Contract and timing: docs/rtl/gs_order_keys.md
//
// key[k] = {prio_en_i ? ~prio[k] : 0, rank[k]}: lower keys issue first, so with prio_en_i the
// highest priority goes first (Tanasic's NPQ/PPQ order), ties and prio_en_i = 0 by arrival
// (Active Queue rank, the FIFO / left-over order). Purely combinational, no storage.
module gs_order_keys (
  input  logic prio_en_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::SlotW-1:0] rank_i,
  output logic [gs_pkg::MaxKernels*gs_pkg::OrderKeyW-1:0] key_o
);
  gs_pkg::ksrt_entry_t e;   // only the priority is read
  always_comb begin
    for (int k = 0; k < gs_pkg::MaxKernels; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      key_o[k*gs_pkg::OrderKeyW +: gs_pkg::OrderKeyW] =
          {prio_en_i ? ~e.prio : {gs_pkg::PrioW{1'b0}}, rank_i[k*gs_pkg::SlotW +: gs_pkg::SlotW]};
    end
  end
endmodule
