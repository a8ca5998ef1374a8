#!/usr/bin/env bash
# Writes a waveform with gsim (rtl scheduler, default mix) and checks that every signal row of
# the GTKWave save files in verif/waves/ resolves in it, and that enum-typed signals carry
# their names (gs_wave_views). Usage: check_views.sh <gsim> <gs_wave_views>
set -euo pipefail
gsim=$1
views=$2
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$gsim" run --config warped-slicer --mix default --scheduler rtl --wave "$tmp/run.fst" >/dev/null
"$views" --fst "$tmp/run.fst" \
  --enum TOP.gs_top.cfg_policy_i \
  --enum TOP.gs_top.event_type_i \
  --enum TOP.gs_top.preempt_mode_o \
  --enum TOP.gs_top.u_smst.g_view[0].entry.state \
  --enum TOP.gs_top.u_smst.g_view[15].entry.state \
  "$here"/*.gtkw
