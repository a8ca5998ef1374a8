#!/bin/sh
# gsched: runs the Yosys front-end probes of this folder (docs/area-timing.md, "Yosys 0.55
# (yowasp) evaluation") from the repository root. For each probe: read with -sv -DSYNTHESIS,
# warnings and errors counted, then `sat -prove ok_o 1` over all inputs (PASS = the tool reads
# the construct as SystemVerilog defines it), and Verilator --lint-only -Wall (with rtl/lint.vlt,
# as every Verilator run of the tree).
#   YOSYS=yosys constraints/yosys055_probe/run_probes.sh                       # Debian 0.23
#   YOSYS="node constraints/yosys055_probe/yowasp-yosys.mjs" constraints/yosys055_probe/run_probes.sh
#                                          # Yosys 0.55 from npm (@yowasp/yosys; see yowasp-yosys.mjs)
YOSYS=${YOSYS:-yosys}
dir=constraints/yosys055_probe
for f in probe_packed_whole probe_packed_array probe_dyn_member probe_import probe_import_body probe_param_ones \
         probe_return probe_inside probe_cast probe_bits_type; do
  log=$(mktemp)
  $YOSYS -p "read_verilog -sv -DSYNTHESIS rtl/gs_pkg.sv $dir/$f.sv; hierarchy -check -top $f; proc; flatten; opt; sat -prove ok_o 1 -show-ports" >"$log" 2>&1
  rc=$?
  warn=$(grep -c 'Warning: ' "$log")
  if grep -q 'SAT proof finished - no model found: SUCCESS' "$log"; then res=PASS
  elif grep -q 'SAT proof finished - model found: FAIL' "$log"; then res=FAIL
  else res="ERROR: $(grep -m1 'ERROR' "$log")"; fi
  verilator --lint-only -Wall rtl/lint.vlt rtl/gs_pkg.sv $dir/$f.sv --top-module $f >"$log.vl" 2>&1 && vl=clean || vl="$(grep -m1 '%' "$log.vl")"
  echo "$f: yosys rc=$rc warnings=$warn sat=$res | verilator: $vl"
  [ -n "$VERBOSE" ] && grep -E 'Warning: |ERROR|\\(bits_o|set_o|valid_o|ok_o|kernel_o)' "$log" | head -20
  rm -f "$log" "$log.vl"
done
