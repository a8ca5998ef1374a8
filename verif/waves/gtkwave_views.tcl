# gtkwave_views.tcl: run inside real GTKWave (gtkwave -S) to record what it displays.
#
#   GS_SHOWN=out.txt GS_TIMES="t1 t2 ..." [GS_SHOT=view.png] gtkwave -S gtkwave_views.tcl run.fst view.gtkw
#
# For each marker time (GTKWave time units; gsim waveforms: 1000 per cycle) and each trace
# of the loaded view, writes "time<TAB>index<TAB>flags<TAB>value" to $GS_SHOWN, where value is
# the text GTKWave shows for the trace at the marker (after its display flags, enum tables and
# translate filters). The save file's own marker time is sampled first. Header lines ("#")
# give the time axis as GTKWave reads it. With GS_SHOT, grabs the window (marker back on the
# save file's marker, as loaded) as a PNG. gs_wave_views --shown checks the result. Then quits.
set out [open $env(GS_SHOWN) w]
set saved_marker [gtkwave::getMarker]
set n [gtkwave::getTotalNumTraces]
puts $out "# traces $n"
puts $out "# marker $saved_marker"
puts $out "# from [gtkwave::getFromEntry]"
puts $out "# to [gtkwave::getToEntry]"
puts $out "# max_time [gtkwave::getMaxTime]"
# The screenshot first: GTKWave sizes the value column for the values at load time.
if {[info exists env(GS_SHOT)] && $env(GS_SHOT) ne ""} {
    gtkwave::/File/Grab_To_File $env(GS_SHOT)
}
set times [list]
if {$saved_marker >= 0} { lappend times $saved_marker }
foreach t $env(GS_TIMES) { lappend times $t }
foreach t $times {
    gtkwave::setMarker $t
    for {set i 0} {$i < $n} {incr i} {
        puts $out "$t\t$i\t[gtkwave::getTraceFlagsFromIndex $i]\t[gtkwave::getTraceValueAtMarkerFromIndex $i]"
    }
}
close $out
gtkwave::/File/Quit
