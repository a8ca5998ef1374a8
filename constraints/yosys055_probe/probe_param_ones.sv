// gsched: Yosys front-end probe (docs/area-timing.md). A '1 default of a typedef'd parameter
// (gs_top.sv and gs_policies.sv spell it {NumPolicies{1'b1}} because Yosys 0.23 reads it as 1).
// set_o must be all ones (8'hFF); ok_o = 1 when it is.
module probe_param_ones #(
  parameter gs_pkg::policy_set_t PolicySet = '1
) (
  output gs_pkg::policy_set_t set_o,
  output logic                ok_o
);
  assign set_o = PolicySet;
  assign ok_o  = (set_o == {gs_pkg::NumPolicies{1'b1}});
endmodule
