#!/usr/bin/env bash
# gsim waveform options and files, without GTKWave (default test set):
#   * every gsim waveform reads in cycles: FST timescale 100 ps (exponent -10), cycle c at 10*c;
#   * --wave-from A --wave-to B dumps exactly cycles A..B (times 10*A .. 10*(B+1));
#   * --wave-from/--wave-to without --wave, or A > B: exit 2 naming the option; a window past
#     the end of the run: no file and a note;
#   * --max-cycles reached in the shared run: exit 5, the waveform is kept (cycles 0..N-1) and
#     the message says so; reached in an alone run: exit 5, "no waveform" and why;
#   * a mutant's lockstep mismatch (gs_wave_mutant_demo) leaves <base>.fst and <base>.gtkw: every
#     row of the .gtkw resolves in the .fst, the ref/dut kernel and mode fields carry enum names.
# Usage: wave_window.sh <gsim> <gs_wave_views> <gs_wave_mutant_demo>
set -euo pipefail
gsim=$1
views=$2
demo=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
RUN=(run --config warped-slicer --mix default --policy dss --preempt switch --scheduler rtl)

"$gsim" "${RUN[@]}" --wave "$tmp/win.fst" --wave-from 1000 --wave-to 1199 >/dev/null
range=$("$views" --fst "$tmp/win.fst" --time-range)
[ "$range" = "time_range 10000 12000 timescale -10" ] && ok "--wave-from 1000 --wave-to 1199: $range" ||
  bad "--wave-from 1000 --wave-to 1199 gave '$range' (want time_range 10000 12000 timescale -10)"

"$gsim" "${RUN[@]}" --wave "$tmp/late.fst" --wave-from 99999999 >/dev/null 2>"$tmp/e0"
[ ! -e "$tmp/late.fst" ] && grep -q "past the shared run's last cycle" "$tmp/e0" &&
  ok "a window past the end: no file, a note says so" || bad "window past the end: $(cat "$tmp/e0")"

set +e
"$gsim" "${RUN[@]}" --wave "$tmp/x.fst" --wave-from 10 --wave-to 5 2>"$tmp/e1"; rc1=$?
"$gsim" "${RUN[@]}" --wave-from 10 2>"$tmp/e2"; rc2=$?
"$gsim" "${RUN[@]}" --wave "$tmp/mc.fst" --max-cycles 300000 >/dev/null 2>"$tmp/e3"; rc3=$?
"$gsim" "${RUN[@]}" --wave "$tmp/alone.fst" --max-cycles 1000 >/dev/null 2>"$tmp/e4"; rc4=$?
set -e
[ $rc1 -eq 2 ] && grep -q -- "--wave-from 10 is after --wave-to 5" "$tmp/e1" && ok "empty window refused (exit 2)" ||
  bad "empty window: exit $rc1: $(cat "$tmp/e1")"
[ $rc2 -eq 2 ] && grep -q -- "give --wave" "$tmp/e2" && ok "--wave-from without --wave refused (exit 2)" ||
  bad "--wave-from without --wave: exit $rc2: $(cat "$tmp/e2")"
range=$("$views" --fst "$tmp/mc.fst" --time-range 2>&1 || true)
if [ $rc3 -eq 5 ] && grep -q "waveform kept: $tmp/mc.fst" "$tmp/e3" && grep -q "holds cycles 0..299999" "$tmp/e3" &&
   [ "$range" = "time_range 0 3000000 timescale -10" ]; then
  ok "--max-cycles in the shared run keeps the waveform (exit 5, $range)"
else
  bad "--max-cycles 300000: exit $rc3, range '$range': $(grep -i wave "$tmp/e3")"
fi
[ $rc4 -eq 5 ] && grep -q "alone run of kernel" "$tmp/e4" && grep -q "no waveform" "$tmp/e4" &&
  ok "--max-cycles in an alone run says there is no waveform" || bad "--max-cycles 1000: exit $rc4: $(head -3 "$tmp/e4")"

(cd "$tmp" && "$demo" >demo.txt 2>&1) || { bad "gs_wave_mutant_demo: no mismatch"; cat "$tmp/demo.txt"; exit 1; }
cmd=$(sed -n 's/^open it with:  //p' "$tmp/demo.txt")
fst=$(echo "$cmd" | cut -d' ' -f2)
gtkw=$(echo "$cmd" | cut -d' ' -f3)
(cd "$tmp" && "$views" --fst "$fst" --enum ref.dispatch_kernel_o --enum dut.dispatch_kernel_o \
   --enum ref.preempt_mode_o --enum dut.bypass_level_o --enum TOP.gs_top.dispatch_kernel_o \
   --enum TOP.gs_top.u_smst.g_view[0].entry.state "$gtkw") && ok "mismatch view rows resolve in $fst" ||
  bad "mismatch view $gtkw against $fst"
grep -q "^\*-[0-9.]* $(sed -n 's/^lockstep mismatch at cycle \([0-9]*\):.*/\1/p' "$tmp/demo.txt")000 " "$tmp/$gtkw" &&
  ok "the mismatch view's marker is on the mismatch cycle" || bad "marker of $gtkw"
exit $fail
