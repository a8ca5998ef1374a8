// gsched: gs_policy_npq -- non-preemptive priority queues (Tanasic Sec. 4.2, "NPQ").
//
// The SM driver issues the highest-priority kernel that fits (ties: oldest first); lower
// priorities take what is left over. Running CTAs are never preempted, so a high-priority
// kernel waits for resources to free up. Purely combinational; PPQ uses the same order.
module gs_policy_npq (
  input  logic [gs_pkg::MaxKernels*gs_pkg::KsrtW-1:0] ksrt_i,
  input  logic [gs_pkg::MaxKernels*gs_pkg::SlotW-1:0] rank_i,
  output logic [gs_pkg::MaxKernels*gs_pkg::OrderKeyW-1:0] key_o
);
  /* verilator lint_off UNUSEDSIGNAL */
  gs_pkg::ksrt_entry_t e;
  /* verilator lint_on UNUSEDSIGNAL */
  always_comb begin
    for (int k = 0; k < gs_pkg::MaxKernels; k++) begin
      e = ksrt_i[k*gs_pkg::KsrtW +: gs_pkg::KsrtW];
      // lower key first: invert the priority so the highest priority sorts first
      key_o[k*gs_pkg::OrderKeyW +: gs_pkg::OrderKeyW] = {~e.prio, rank_i[k*gs_pkg::SlotW +: gs_pkg::SlotW]};
    end
  end
endmodule
