# gsched: OpenSTA static timing of an osu018 netlist written by constraints/yosys_osu018.tcl.
# GS_NETLIST is one netlist or a space-separated list: a composite block's own netlist and its
# sub-blocks' (area_flow.py's bottom-up composition), linked into one design at GS_TOP.
#
#   GS_LIBERTY=.../osu018_stdcells.lib GS_NETLIST=netlist.v GS_TOP=gs_smst \
#   GS_SDC=constraints/clocks.sdc GS_CLOCK_PERIOD=10.0 sta -no_splash -exit constraints/sta.tcl
#
# Prints the worst setup path (report_checks: Startpoint / Endpoint / slack) and one line
#   gs_sta worst_slack <ns> period <ns>
# that constraints/area_flow.py parses. No wire-load model (osu018 ships none): delays are
# cell delays with pin loads only, i.e. a pre-layout estimate.
foreach v {GS_LIBERTY GS_NETLIST GS_TOP GS_SDC} {
  if {![info exists ::env($v)]} { puts stderr "sta.tcl: environment variable $v is not set"; exit 2 }
}
set gs_clock_period 10.0
if {[info exists ::env(GS_CLOCK_PERIOD)]} { set gs_clock_period $::env(GS_CLOCK_PERIOD) }
read_liberty $::env(GS_LIBERTY)
foreach netlist $::env(GS_NETLIST) { read_verilog $netlist }
link_design $::env(GS_TOP)
read_sdc $::env(GS_SDC)
report_checks -path_delay max -digits 3
report_checks -path_delay min -digits 3
puts "gs_sta worst_slack [sta::worst_slack -max] period $gs_clock_period"
puts "gs_sta worst_hold_slack [sta::worst_slack -min]"
