# gsched: iCE40 synthesis (Yosys synth_ice40) of one block, or of the block inside the serial
# I/O wrapper the area flow generates (an iCE40 has at most 206 I/O pins; gs_top has ~2,000
# port bits), for nextpnr-ice40 with constraints/ice40_hx8k.pcf.
#
#   GS_TOP=gs_smst GS_SOURCES="..." GS_OUT_DIR=out yosys -c constraints/ice40_synth.tcl
#
# Outputs in GS_OUT_DIR: ice40_stat.txt (SB_LUT4, SB_DFF*, SB_CARRY, SB_RAM40_4K counts) and
# ice40.json (the netlist for nextpnr-ice40).
yosys -import
foreach v {GS_TOP GS_SOURCES GS_OUT_DIR} {
  if {![info exists ::env($v)]} { puts stderr "ice40_synth.tcl: environment variable $v is not set"; exit 2 }
}
set top $::env(GS_TOP)
set out $::env(GS_OUT_DIR)
# -defer: elaborate only the block's hierarchy (at `hierarchy`); without it read_verilog
# elaborates every module of the list as it reads it, gs_top included (about 30 CPU s at
# 132 SMs, whatever the block).
read_verilog -defer -sv -DSYNTHESIS {*}$::env(GS_SOURCES)
hierarchy -check -top $top
synth_ice40 -top $top -json $out/ice40.json
tee -q -o $out/ice40_stat.txt stat
