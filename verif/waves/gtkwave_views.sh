#!/usr/bin/env bash
# Opens every shipped GTKWave view (verif/waves/*.gtkw) and a mutant's lockstep mismatch view
# in real GTKWave (Debian's gtkwave, under Xvfb) and checks what GTKWave displays:
#   * every row whose signal has names -- an FST enum table, or a translate filter file
#     (kernel ids: K<n> / none) -- shows a name at every sampled marker time, never a raw
#     number (gs_wave_views --shown); a copy of dispatch.gtkw with the old display flags on
#     cfg_policy_i must FAIL that check (the check can see a number);
#   * the time axis reads cycles: GTKWave's "To:" box shows "<cycles> ns";
#   * the mismatch view (gs_wave_mutant_demo: golden vs the traced GS_MUT_DISPATCH_RESERVED
#     mutant) opens with the exact command the mismatch report prints, its marker sits on the
#     mismatch cycle and the REF and DUT rows of the differing signal differ there;
#   * a mismatch the state check finds (gs_mutation_check, GS_MUT_WS_OCC_IGNORES_SLOTS: a policy
#     register differs) opens with its printed command and its first REF/DUT rows are that
#     register (ref.state.* / dut.state.*), different at the marker.
# Screenshots of each view go to $GS_WAVE_SHOTS when set (docs/waveforms.md uses them).
# Exit 77 (ctest: skipped) with a message when gtkwave or xvfb-run is not installed
# (scripts/install_deps.sh installs both).
# Usage: gtkwave_views.sh <gsim> <gs_wave_views> <gs_wave_mutant_demo> <gs_mutation_check>
set -euo pipefail
gsim=$1
views=$2
demo=$3
mutation_check=$4
here=$(cd "$(dirname "$0")" && pwd)
for tool in gtkwave xvfb-run; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: $tool is not installed (Debian packages gtkwave, xvfb; scripts/install_deps.sh installs them)"
    exit 77
  fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
shots=${GS_WAVE_SHOTS:-}
fail=0

# gtkwave_show <out.txt> <shot.png|""> <gtkwave args...>: runs GTKWave with gtkwave_views.tcl.
gtkwave_show() {
  local out=$1 shot=$2
  shift 2
  GS_SHOWN=$out GS_TIMES=$times GS_SHOT=$shot \
    timeout 120 xvfb-run -a -s "-screen 0 1600x1000x24" gtkwave -S "$here/gtkwave_views.tcl" "$@" \
    >"$out.log" 2>&1 || { echo "FAIL: gtkwave $* did not run:"; cat "$out.log"; return 1; }
  [ -s "$out" ] || { echo "FAIL: gtkwave $* wrote no values"; cat "$out.log"; return 1; }
}

# A whole run under dss with preemption: every enum of the port moves.
"$gsim" run --config warped-slicer --mix default --policy dss --preempt switch --scheduler rtl \
  --wave "$tmp/run.fst" >/dev/null
end_ns=$( (cd "$tmp" && GS_SHOWN=probe.txt GS_TIMES="" timeout 120 xvfb-run -a gtkwave -S "$here/gtkwave_views.tcl" \
  run.fst >/dev/null 2>&1); sed -n 's/^# to //p' "$tmp/probe.txt")
max=$(sed -n 's/^# max_time //p' "$tmp/probe.txt")
echo "whole run: GTKWave's time axis ends at '$end_ns' (max time $max)"
case "$end_ns" in
  *" ns") ;;
  *) echo "FAIL: the time axis does not read in ns = cycles: '$end_ns'"; fail=1 ;;
esac
# 40 marker times spread over the run, on cycle starts (1000 GTKWave units = 1 cycle).
times=""
for k in $(seq 0 39); do times="$times $(( max * k / 40 / 1000 * 1000 ))"; done

for view in "$here"/*.gtkw; do
  name=$(basename "$view" .gtkw)
  shot=""
  [ -n "$shots" ] && shot="$shots/view_$name.png"
  gtkwave_show "$tmp/$name.txt" "$shot" "$tmp/run.fst" "$view" || { fail=1; continue; }
  "$views" --fst "$tmp/run.fst" --shown "$tmp/$name.txt" "$view" || fail=1
done

# The check must see a raw number: dispatch.gtkw with cfg_policy_i back on plain hex flags.
awk 'NR > 1 { if ($0 ~ /^TOP[.]gs_top[.]cfg_policy_i/ && prev ~ /^@/) prev = "@22"; print prev } { prev = $0 }
     END { print prev }' "$here/dispatch.gtkw" >"$tmp/broken.gtkw"
sed -i "s|^\[savefile\].*|[savefile] \"$tmp/broken.gtkw\"|" "$tmp/broken.gtkw"
sed -i "s|^\^\([0-9]\) .*filters/|^\1 $here/filters/|" "$tmp/broken.gtkw"
if gtkwave_show "$tmp/broken.txt" "" "$tmp/run.fst" "$tmp/broken.gtkw" &&
   ! "$views" --fst "$tmp/run.fst" --shown "$tmp/broken.txt" "$tmp/broken.gtkw" 2>"$tmp/broken.err"; then
  echo "control: a view with cfg_policy_i on hex flags fails the check: $(head -1 "$tmp/broken.err")"
else
  echo "FAIL: a view whose enum row shows a number passed the check"; fail=1
fi

# A real bug's mismatch, opened with the command its report prints.
(cd "$tmp" && "$demo" >demo.txt 2>&1) || { echo "FAIL: gs_wave_mutant_demo found no mismatch:"; cat "$tmp/demo.txt"; exit 1; }
cmd=$(sed -n 's/^open it with:  //p' "$tmp/demo.txt")
echo "mismatch report: $(grep -m1 '^lockstep mismatch' "$tmp/demo.txt")"
echo "printed command: $cmd"
case "$cmd" in gtkwave\ gsched_mismatch_*.fst\ gsched_mismatch_*.gtkw) ;; *) echo "FAIL: no gtkwave command"; exit 1 ;; esac
fst=$(echo "$cmd" | cut -d' ' -f2)
gtkw=$(echo "$cmd" | cut -d' ' -f3)
first=$(sed -n 's/^waveform (cycles \([0-9]*\)\.\.\([0-9]*\).*/\1/p' "$tmp/demo.txt")
last=$(sed -n 's/^waveform (cycles \([0-9]*\)\.\.\([0-9]*\).*/\2/p' "$tmp/demo.txt")
times=""
for c in $(seq "$first" "$last"); do times="$times $((c * 1000))"; done
shot=""
[ -n "$shots" ] && shot="$shots/mismatch.png"
# shellcheck disable=SC2086  # the printed command, word for word
(cd "$tmp" && gtkwave_show "$tmp/mismatch.txt" "$shot" ${cmd#gtkwave }) || fail=1
marker=$(sed -n 's/^# marker //p' "$tmp/mismatch.txt" 2>/dev/null || true)
if [ "$marker" != "$((last * 1000))" ]; then
  echo "FAIL: the mismatch view's marker is at $marker, not at cycle $last ($((last * 1000)))"; fail=1
fi
(cd "$tmp" && "$views" --fst "$fst" --shown "$tmp/mismatch.txt" --marker-pair "$gtkw") || fail=1
# The faulty block's view (SMST) over the same mismatch waveform, marker on the mismatch.
sed "s|^\*\([-0-9.]*\) [-0-9]* |*\1 $((last * 1000)) |; s|^\[timestart\].*|[timestart] $((first * 1000))|" \
  "$here/smst.gtkw" >"$tmp/smst_mismatch.gtkw"
sed -i "s|^\[savefile\].*|[savefile] \"$tmp/smst_mismatch.gtkw\"|; s|^\^\([0-9]\) .*filters/|^\1 $here/filters/|" \
  "$tmp/smst_mismatch.gtkw"
shot=""
[ -n "$shots" ] && shot="$shots/mismatch_smst.png"
gtkwave_show "$tmp/smst_m.txt" "$shot" "$tmp/$fst" "$tmp/smst_mismatch.gtkw" || fail=1
"$views" --fst "$tmp/$fst" --shown "$tmp/smst_m.txt" "$tmp/smst_mismatch.gtkw" || fail=1
[ -n "$shots" ] && cp "$tmp/demo.txt" "$shots/mismatch_report.txt"
# A state-check mismatch: the register that differed is the view's first REF/DUT pair.
mkdir -p "$tmp/state" && (cd "$tmp/state" && "$mutation_check" --mutant GS_MUT_WS_OCC_IGNORES_SLOTS --seeds 1 \
  >"$tmp/state/report.txt" 2>&1) || true
scmd=$(sed -n 's/^open it with:  //p' "$tmp/state/report.txt" | head -1)
sfirst=$(sed -n 's/^waveform (cycles \([0-9]*\)\.\.\([0-9]*\).*/\1/p' "$tmp/state/report.txt" | head -1)
slast=$(sed -n 's/^waveform (cycles \([0-9]*\)\.\.\([0-9]*\).*/\2/p' "$tmp/state/report.txt" | head -1)
if grep -q "mismatch at cycle .*: state " "$tmp/state/report.txt" && [ -n "$scmd" ] && [ -n "$slast" ]; then
  times=""
  for c in $(seq "$sfirst" "$slast"); do times="$times $((c * 1000))"; done
  # shellcheck disable=SC2086  # the printed command, word for word
  (cd "$tmp/state" && gtkwave_show "$tmp/state/shown.txt" "" ${scmd#gtkwave }) || fail=1
  sgtkw=${scmd##* }
  grep -m1 '^+{REF' "$tmp/state/$sgtkw" | grep -q ' ref\.state\.' ||
    { echo "FAIL: the state mismatch view's first REF row is not the register"; fail=1; }
  (cd "$tmp/state" && "$views" --fst "${sgtkw%.gtkw}.fst" --shown "$tmp/state/shown.txt" --marker-pair "$sgtkw") || fail=1
else
  echo "FAIL: gs_mutation_check gave no state mismatch with a waveform:"; cat "$tmp/state/report.txt"; fail=1
fi
[ "$fail" -eq 0 ] && echo "gtkwave_views: all views decode in GTKWave" || echo "gtkwave_views: FAILED"
exit "$fail"
