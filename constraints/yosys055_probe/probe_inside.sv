// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation"). `inside`
// with values and a range. ok_o is 1 for every input when it is read right.
module probe_inside (
  input  logic [7:0] a_i,
  output logic       ok_o
);
  logic in_set;
  assign in_set = a_i inside {8'd3, 8'd5, [8'd10:8'd12]};
  assign ok_o = in_set == (a_i == 8'd3 || a_i == 8'd5 || (a_i >= 8'd10 && a_i <= 8'd12));
endmodule
