# gsched: timing constraints of one scheduler block (or gs_top) for OpenSTA, read by
# constraints/sta.tcl after the osu018 netlist is linked.
#
# gs_clock_period is the ONE target-period knob (ns). The area flow sets it from
# `area_flow.py --period` (CMake cache variable GS_AREA_PERIOD_NS); by hand:
#   sta> set gs_clock_period 5.0; read_sdc constraints/clocks.sdc
# The input and output delays are absolute (ns), not fractions of the period: every path's
# slack then moves one-for-one with the period, so Fmax = 1 / (period - worst slack) holds for
# register-to-register and port paths alike.
if {![info exists gs_clock_period]} { set gs_clock_period 10.0 }
# Logic outside the block in front of its inputs / behind its outputs (the neighbour's
# clock-to-q plus some gates, about 5 osu018 gate delays each).
if {![info exists gs_input_delay]} { set gs_input_delay 1.0 }
if {![info exists gs_output_delay]} { set gs_output_delay 1.0 }

# Every sequential block has clk_i (the RTL style of every block). A purely combinational block
# (gs_policy_npq, gs_policy_left_over) gets a virtual clock, so its port-to-port paths are
# timed against the same period.
set gs_clk_ports [get_ports -quiet clk_i]
if {[llength $gs_clk_ports] > 0} {
  create_clock -name clk -period $gs_clock_period $gs_clk_ports
  set gs_data_inputs [delete_from_list [all_inputs] $gs_clk_ports]
} else {
  create_clock -name clk -period $gs_clock_period
  set gs_data_inputs [all_inputs]
}
set_input_delay $gs_input_delay -clock clk $gs_data_inputs
set_output_delay $gs_output_delay -clock clk [all_outputs]
# Inputs driven by an osu018 INVX1, outputs loaded like four INVX1 inputs (about 0.01 pF).
set_driving_cell -lib_cell INVX1 -pin Y $gs_data_inputs
set_load 0.01 [all_outputs]
