#!/usr/bin/env bash
# The view a `gsim run --wave` writes beside its FST (sim_top/src/run_wave.cpp), opened in real
# GTKWave under Xvfb with the command gsim prints (gtkwave -S RUN.tcl RUN.fst RUN.gtkw): it loads
# the run's FST and opens on the --wave-from/--wave-to window (GTKWave's own
# gtkwave::getWindowStartTime/EndTime: the start exactly, the end within +0..2 %); the .gtkw
# alone opens at the window's start; its translate filters are absolute paths that exist.
# Skipped (exit 77) where gtkwave or xvfb-run is missing.
# Usage: wave_view_window.sh <gsim>
set -euo pipefail
gsim=$1
command -v gtkwave >/dev/null && command -v xvfb-run >/dev/null || { echo "skip: gtkwave or xvfb-run missing"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
cat > "$tmp/probe.tcl" <<'TCL'
puts "WINDOW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime]"
gtkwave::/File/Quit
TCL
for case in "warped-slicer 100 1099" "dss 2000 11999" "srtf 0 59"; do
  set -- $case
  policy=$1 from=$2 to=$3
  "$gsim" run --config warped-slicer --mix test-pair --policy "$policy" --scheduler rtl \
    --wave "$tmp/$policy.fst" --wave-from "$from" --wave-to "$to" >/dev/null 2>"$tmp/err"
  view=$tmp/$policy.gtkw
  grep -q "^gsim: waveform $tmp/$policy.fst: the shared run's scheduler, cycles $from..$to" "$tmp/err" &&
    grep -q "^gsim: view it with: gtkwave -S $tmp/$policy.tcl $tmp/$policy.fst $view" "$tmp/err" && ok "$policy: gsim names the file, window and command" ||
    bad "$policy: hand-off message: $(cat "$tmp/err")"
  grep -q "^\[dumpfile\] \"$tmp/$policy.fst\"" "$view" && ok "$policy: the view loads the run's FST" || bad "$policy: [dumpfile]"
  # (a view may use no filter: its enums are named by the FST's enum tables)
  missing=$({ grep -o '/[^ ]*/filters/[^ ]*\.txt' "$view" || true; } | sort -u | while read -r f; do [ -f "$f" ] || echo "$f"; done)
  [ -z "$missing" ] && ok "$policy: filter paths exist" || bad "$policy: missing filters: $missing"
  want_start=$((from * 1000)) want_end=$(((to + 1) * 1000))
  cat "$tmp/$policy.tcl" "$tmp/probe.tcl" > "$tmp/both.tcl"   # the printed command, then the probe
  win=$(cd "$tmp" && timeout 120 xvfb-run -a gtkwave -S both.tcl "$policy.fst" "$view" 2>/dev/null | grep '^WINDOW' || true)
  read -r _ start end <<<"$win"
  if [ "${start:-x}" = "$want_start" ] && [ "${end:-0}" -ge "$want_end" ] && [ "$end" -le $((want_end + (want_end - want_start) / 50)) ]; then
    ok "$policy: gtkwave -S $policy.tcl opens on cycles $from..$to ($win)"
  else
    bad "$policy: GTKWave window '$win', want $want_start..$want_end (+2 %)"
  fi
  win=$(cd "$tmp" && timeout 120 xvfb-run -a gtkwave -S probe.tcl "$policy.fst" "$view" 2>/dev/null | grep '^WINDOW' || true)
  read -r _ start end <<<"$win"
  [ "${start:-x}" = "$want_start" ] && ok "$policy: the .gtkw alone opens at cycle $from" || bad "$policy: the .gtkw alone: '$win'"
done
exit $fail
