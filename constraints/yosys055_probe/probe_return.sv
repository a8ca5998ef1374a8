// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation"). A function
// that ends in `return`. ok_o is 1 for every input when it is read right.
module probe_return (
  input  logic [7:0] a_i,
  output logic       ok_o
);
  function automatic logic [7:0] inc(input logic [7:0] x);
    return x + 8'd1;
  endfunction
  assign ok_o = inc(a_i) == a_i + 8'd1;
endmodule
