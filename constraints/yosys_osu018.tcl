# gsched: maps one scheduler block (or gs_top) to the osu018 180 nm standard cells
# (Debian package qflow-tech-osu018) and writes the netlist OpenSTA reads (constraints/sta.tcl).
#
#   GS_TOP=gs_smst GS_SOURCES="gs_pkg.sv framework/... gs_top.sv" GS_LIBERTY=.../osu018_stdcells.lib \
#   GS_OUT_DIR=out GS_CLOCK_PERIOD=10.0 yosys -c constraints/yosys_osu018.tcl
#
# constraints/area_flow.py runs it per block and scale. Outputs in GS_OUT_DIR:
#   rtl_stat.txt  state of the flattened RTL before synthesis (`stat -width`: register and
#                 memory bits as written in the RTL, i.e. the storage bits)
#   stat.txt      `stat -liberty`: osu018 cells per type and the chip area in um^2
#   netlist.v     the mapped netlist
yosys -import
foreach v {GS_TOP GS_SOURCES GS_LIBERTY GS_OUT_DIR} {
  if {![info exists ::env($v)]} { puts stderr "yosys_osu018.tcl: environment variable $v is not set"; exit 2 }
}
set top $::env(GS_TOP)
set lib $::env(GS_LIBERTY)
set out $::env(GS_OUT_DIR)
set period 10.0
if {[info exists ::env(GS_CLOCK_PERIOD)]} { set period $::env(GS_CLOCK_PERIOD) }

# -defer: elaborate only the block's hierarchy (at `hierarchy`); without it read_verilog
# elaborates every module of the list as it reads it, gs_top included (about 30 CPU s at
# 132 SMs, whatever the block).
read_verilog -defer -sv -DSYNTHESIS {*}$::env(GS_SOURCES)
hierarchy -check -top $top
# The block's parameter defaults, for a composite's run that reuses this one (below).
tee -q -o $out/params.txt dump -n $top

# Bottom-up composition (constraints/area_flow.py): GS_REUSE is a Tcl dict of sub-blocks whose
# own runs at this scale are done, block -> {parameter default-as-integer ...}. Each instance of
# such a block becomes a black box, so this run maps only its own glue logic and area_flow.py adds
# the sub-blocks' figures and gives their netlists to OpenSTA. A derived module
# ($paramod\<block>\P=v...) counts as the block when every P equals the block's default
# (gs_top's gs_policies #(.PolicySet(PolicySet)) does); one with other values is mapped here.
# Without this a composite maps every sub-block again, flat (gs_top at 132 SMs: well over an
# hour). The cost: nothing is optimized across a sub-block's ports (a constant tied to an input
# is not propagated into the sub-block), as in any hierarchical flow.
proc gs_const_value {v} {
  # Yosys constants in derived names: s32'0101, 15'111 (binary digits), or a decimal integer.
  if {[regexp {^s?[0-9]+'([01]+)$} $v -> bits]} { return [expr "0b$bits"] }
  if {[string is entier -strict $v]} { return [expr {$v}] }
  return $v
}
set reused {}
if {[info exists ::env(GS_REUSE)] && $::env(GS_REUSE) ne ""} {
  set reuse $::env(GS_REUSE)
  tee -q -o $out/modules.txt ls
  set fh [open $out/modules.txt]
  set mods {}
  foreach line [split [read $fh] "\n"] {
    set l [string trim $line]
    if {$l ne "" && ![string match "*modules:" $l] && $l ne $top} { lappend mods $l }
  }
  close $fh
  foreach m $mods {
    if {[dict exists $reuse $m]} {
      blackbox $m
      lappend reused $m
    } elseif {[regexp {^\$paramod\\([^\\]+)\\(.*)$} $m -> base plist] && [dict exists $reuse $base]} {
      set defaults [dict get $reuse $base]
      set same 1
      foreach kv [split $plist "\\"] {
        if {![regexp {^([^=]+)=(.*)$} $kv -> k v] || ![dict exists $defaults $k]
            || [gs_const_value $v] != [dict get $defaults $k]} { set same 0 }
      }
      if {$same && [lsearch -exact $reused $base] < 0} {
        blackbox $m
        yosys rename $m $base
        yosys chtype -map $m $base
        lappend reused $base
      }
    }
  }
}
set fh [open $out/reused.txt w]
puts $fh [join $reused "\n"]
close $fh
# Storage bits as written: processes to registers, one flat module, unused logic removed.
yosys proc
flatten
opt_clean
tee -q -o $out/rtl_stat.txt stat -width
# Generic synthesis without abc (abc maps to the liberty below); memories become flops.
synth -top $top -flatten -noabc
# Flip-flops to the library's DFFs (sync reset and enable become gates around DFFPOSX1),
# then the combinational logic to osu018 cells, abc aiming at the clock period (ps).
dfflibmap -liberty $lib
# With -constr (driving cell and output load, constraints/abc.constr) abc also buffers high-
# fanout nets (the reset and enables reach thousands of gates) and sizes gates (buffer; upsize;
# dnsize): without it one INVX1 drives the whole reset net and STA sees microseconds.
# GS_ABC_FAST=1: `abc -fast`, abc's cheaper script (fewer resynthesis passes); area_flow.py
# falls back to it for a block whose standard mapping outlives --abc-fast-after, and marks
# the block's figures so (large combinational arithmetic: minutes instead of over half an hour).
# GS_ABC_FAST=nf: area_flow.py's last fallback, for a block on which `abc -fast` fails: its `map`
# leaves a node without fanout on which `buffer` stops, and Yosys reports "Can't open ABC output
# file". This script maps with &nf as the standard script does, without the standard script's
# costly restructuring (&fraig -x, scorr, dc2, &dch -f), then buffers and sizes gates as both do.
# (-script +...: commas become blanks; Yosys puts the delay target in for {D}.)
set abc_mode {}
if {[info exists ::env(GS_ABC_FAST)] && $::env(GS_ABC_FAST) eq "1"} { set abc_mode -fast }
if {[info exists ::env(GS_ABC_FAST)] && $::env(GS_ABC_FAST) eq "nf"} {
  set abc_mode [list -script "+strash;dretime;strash;&get,-n;&nf,{D};&put;buffer;upsize,{D};dnsize,{D};stime,-p"]
}
abc {*}$abc_mode -liberty $lib -constr [file join [file dirname [info script]] abc.constr] -D [expr {int($period * 1000)}]
opt_clean -purge
tee -q -o $out/stat.txt stat -liberty $lib
# Port-to-port and wire-to-wire connections as BUFX2 cells: OpenSTA's Verilog reader does not
# take concatenations on the left of an assign.
# (after the area report: these buffers stand for wires).
insbuf -buf BUFX2 A Y
write_verilog -noattr -noexpr -nohex -nodec $out/netlist.v
