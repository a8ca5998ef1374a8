// gsched: Yosys front-end probe (docs/area-timing.md, "Yosys 0.55 (yowasp) evaluation"). $bits of a
// package type, $bits(gs_pkg::ksrt_entry_t) = KsrtW = 145. ok_o = 1 when it is read right.
module probe_bits_type (
  output logic ok_o
);
  assign ok_o = $bits(gs_pkg::ksrt_entry_t) == gs_pkg::KsrtW;
endmodule
