#!/usr/bin/env bash
# gsched: end-to-end tests of `gsim sweep` (CTest `sweep_tests`; docs/sweep.md).
#
# Usage: sweep_tests.sh path/to/gsim
# Runs the shipped smoke sweep (result files, CSV rows), re-runs it (everything skipped, no
# result file rewritten), interrupts a longer sweep and resumes it (every run exactly once, no
# temporaries left), changes an input (only its runs run again), and checks that bad sweep
# files are exit 2 naming the file and the field, and that a failing run is exit 6 with
# failures.txt while the other runs complete. Then the hardening of issues 42 and 43: bounded
# plans (nesting, run and combos limits, linear duplicate checks, SIGTERM while planning),
# output directories that are not a sweep's refused and only the sweep's own files removed,
# resume against every input file and the result schema, no-run sweeps and windows past
# max_cycles refused, Slurm --time formats and '%' in --out, relative paths from outside the
# repository, and the per-kernel counter columns. Prints one line per check and "N passed, M
# failed"; exits non-zero if any check failed.
set -euo pipefail

GSIM=${1:?usage: sweep_tests.sh path/to/gsim}
GSIM=$(cd "$(dirname "$GSIM")" && pwd)/$(basename "$GSIM")
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SWEEPS=$REPO/sim_top/sweeps
DATA=${GSCHED_DATA_DIR:-$REPO/sim_top}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$TMP"

ERR=$TMP/stderr
source "$REPO/verif/cli/check_lib.sh"   # ok, bad, check, summary, results, temporaries, csv_rows

sweep() {
  RC=0
  "$GSIM" sweep "$@" >"$TMP/stdout" 2>"$ERR" || RC=$?
}
# "inode mtime name" of every result file, to tell whether any was rewritten
stamps() { (cd "$1/runs" && stat -c '%i %Y.%y %n' -- *.json); }

# the per-kernel counter columns appended to results.csv and windows.csv (docs/sweep.md)
COUNTER_COLUMNS=",ipc_warp,ipc_thread,l1_hit_rate,l2_hit_rate,dram_share_of_peak,stall_memory_share,stall_dependency_share,stall_functional_unit_share,stall_idle_share,ipc_warp_alone,ipc_thread_alone,l1_hit_rate_alone,l2_hit_rate_alone,dram_share_of_peak_alone,stall_memory_share_alone,stall_dependency_share_alone,stall_functional_unit_share_alone,stall_idle_share_alone"

# ---------------------------------------------------------------- smoke: run, CSV, --list
sweep "$SWEEPS/smoke.json" -j2 --out smoke
check "smoke sweep exits 0" '[ "$RC" -eq 0 ]' "exit $RC"
check "smoke sweep: 8 result files" '[ "$(results smoke)" -eq 8 ]' "got $(results smoke)"
# 8 runs: test-pair (2 kernels) and test-staggered (3 kernels), 4 runs each -> 20 rows
check "smoke sweep: 20 CSV rows, one per kernel per run" '[ "$(csv_rows smoke)" -eq 20 ]' "got $(csv_rows smoke)"
check "results.csv header" \
  '[ "$(head -1 smoke/results.csv)" = "run_id,config,mix,policy,preempt,seed,sm_sharing,kernel,arrival,priority,cycles_alone,cycles_shared,ntt,stp,antt,strictf,cycles$COUNTER_COLUMNS" ]'
check "results.csv: thread IPC of the shared and the alone run on every row" \
  'python3 -c "
import csv, sys
rows = list(csv.DictReader(open(\"smoke/results.csv\")))
assert rows and all(float(r[\"ipc_thread\"]) > float(r[\"ipc_warp\"]) > 0 for r in rows)
assert all(float(r[\"ipc_thread_alone\"]) > float(r[\"ipc_warp_alone\"]) > 0 for r in rows)
"'
check "a result records its inputs" \
  'grep -q "\"inputs_fnv1a64\": \"[0-9a-f]\{16\}\"" smoke/runs/warped-slicer__test-pair__even__drain__s2.json'
# the sweep's result is gsim run's JSON plus sweep_inputs: the figures match a direct run
"$GSIM" run --config warped-slicer --mix test-pair --policy even --seed 2 --scheduler golden --quiet --json direct.json >/dev/null
check "a result holds the same figures as gsim run" \
  'python3 -c "import json,sys; a=json.load(open(\"direct.json\")); b=json.load(open(\"smoke/runs/warped-slicer__test-pair__even__drain__s2.json\")); b.pop(\"sweep_inputs\"); sys.exit(a!=b)"'
check "no temporaries left" '[ "$(temporaries smoke)" -eq 0 ]'

sweep "$SWEEPS/smoke.json" --list --out listed
check "--list prints one command per run and writes nothing" \
  '[ "$RC" -eq 0 ] && [ "$(grep -c " run --config warped-slicer --mix test-" "$TMP/stdout")" -eq 8 ] && [ ! -e listed ]'

# ---------------------------------------------------------------- fixed-window mixes: windows.csv
printf '%s\n' '{"name": "win", "window_cycles": 20000, "kernels": [{"kernel": "test.compute"}, {"kernel": "test.memory", "context": 1}]}' >window_mix.json
printf '%s\n' '{"name": "w", "configs": ["warped-slicer"], "mixes": ["window_mix.json", "test-pair"], "policies": ["left-over", "even"]}' >window_sweep.json
sweep window_sweep.json -j2 --out win
check "a sweep with a fixed-window mix exits 0" '[ "$RC" -eq 0 ]' "exit $RC: $(cat "$ERR")"
check "fixed-window rows go to windows.csv (2 runs x 2 kernels), the others to results.csv" \
  '[ "$(tail -n +2 win/windows.csv | wc -l)" -eq 4 ] && [ "$(tail -n +2 win/results.csv | wc -l)" -eq 4 ] && ! grep -q "__win__" win/results.csv'
check "windows.csv header" \
  '[ "$(head -1 win/windows.csv)" = "run_id,config,mix,policy,preempt,seed,sm_sharing,window_cycles,kernel,arrival,priority,launches,completions,instructions,instructions_alone,ipc,ipc_alone,ntt,mix_ipc,antt_sbm,antt,stp,strictf$COUNTER_COLUMNS" ]'
"$GSIM" run --config warped-slicer --mix window_mix.json --policy even --scheduler golden --quiet --json wdirect.json >/dev/null
check "a windows.csv row holds gsim run's window figures" \
  'python3 -c "
import csv, json, sys
d = json.load(open(\"wdirect.json\"))
rows = [r for r in csv.DictReader(open(\"win/windows.csv\")) if r[\"policy\"] == \"even\"]
ok = len(rows) == 2 and all(float(r[\"antt_sbm\"]) == d[\"antt_sbm\"] and float(r[\"mix_ipc\"]) == d[\"ipc\"] and r[\"window_cycles\"] == \"20000\" for r in rows)
ok = ok and sorted(int(r[\"instructions\"]) for r in rows) == sorted(k[\"instructions\"] for k in d[\"kernels\"])
sys.exit(not ok)"'

# ---------------------------------------------------------------- re-run: all skipped, nothing rewritten
before=$(stamps smoke)
sleep 1.1
sweep "$SWEEPS/smoke.json" -j2 --out smoke
check "re-run exits 0 and skips all 8" '[ "$RC" -eq 0 ] && grep -q "0 ran, 8 already done" "$ERR"'
check "re-run rewrites no result file" '[ "$before" = "$(stamps smoke)" ]'

# ---------------------------------------------------------------- a changed input runs again
cp "$DATA/workloads/mixes/test-pair.json" mymix.json
cat >changed.json <<EOF
{"name": "changed", "configs": ["warped-slicer"], "mixes": ["$TMP/mymix.json", "test-staggered"]}
EOF
sweep changed.json -j2 --out changed
sed -i 's/fast tests\./fast tests (changed)./' mymix.json
sweep changed.json -j2 --out changed
check "a changed mix file: only its run runs again" '[ "$RC" -eq 0 ] && grep -q "1 ran, 1 already done" "$ERR"'

# ---------------------------------------------------------------- interrupt and resume
# ppq-k20c: 12 runs of ~1 s; stop it once the first result is there
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" -j2 --out ppq 2>"$ERR" &
pid=$!
for _ in $(seq 100); do
  [ -d ppq/runs ] && [ "$(results ppq)" -ge 1 ] && break
  sleep 0.1
done
sweep "$SWEEPS/ppq-k20c.json" -j1 --out ppq
check "a second sweep into the same directory is refused" '[ "$RC" -eq 2 ] && grep -q "another gsim sweep is using" "$ERR"' "exit $RC"
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
partial=$(results ppq)
check "Ctrl-C: exit 130" '[ "$RC" -eq 130 ]' "exit $RC"
check "Ctrl-C: some but not all results" '[ "$partial" -ge 1 ] && [ "$partial" -lt 12 ]' "$partial results"
check "Ctrl-C: no temporaries left" '[ "$(temporaries ppq)" -eq 0 ]'
before=$(stamps ppq)
sweep "$SWEEPS/ppq-k20c.json" -j2 --out ppq
check "resume completes" '[ "$RC" -eq 0 ] && [ "$(results ppq)" -eq 12 ]' "exit $RC, $(results ppq) results"
check "resume runs every missing run exactly once" \
  'grep -q "$((12 - partial)) ran, $partial already done, 0 failed" "$ERR"'
check "resume keeps the completed results" \
  '[ "$(stamps ppq | grep -cxF -f <(echo "$before"))" -eq "$partial" ]'
check "resume: 24 CSV rows" '[ "$(csv_rows ppq)" -eq 24 ]' "got $(csv_rows ppq)"

# ---------------------------------------------------------------- failing runs: exit 6
cat >short.json <<'EOF'
{"name": "short", "config": "warped-slicer", "kernels": [{"kernel": "test.compute", "arrival_cycle": 0}]}
EOF
cat >failing.json <<EOF
{"name": "failing", "configs": ["warped-slicer"], "mixes": ["$TMP/short.json", "test-pair"], "max_cycles": 10000}
EOF
sweep failing.json -j2 --out failing
check "a failing run: exit 6" '[ "$RC" -eq 6 ]' "exit $RC"
check "a failing run: reported with its exit code and command" \
  'grep -q "run warped-slicer__test-pair__left-over__drain__s1 failed (exit 5): .* run --config warped-slicer --mix test-pair" "$ERR"'
check "a failing run: failures.txt lists the command and its stderr" \
  'grep -q "command: .* --max-cycles 10000" failing/failures.txt && grep -q "exit 5" failing/failures.txt && grep -q "gsim: error: .*10000" failing/failures.txt'
check "a failing run: the other run completed" \
  '[ "$(results failing)" -eq 1 ] && [ -f failing/runs/warped-slicer__short__left-over__drain__s1.json ] && [ "$(temporaries failing)" -eq 0 ]'

# ---------------------------------------------------------------- bad sweep files: exit 2 before any run
bad_file() {   # NAME TEXT-IN-STDERR JSON
  printf '%s\n' "$3" >bad.json
  sweep bad.json --out badout
  if [ "$RC" -ne 2 ]; then
    bad "$1" "expected exit 2, got $RC"
  elif ! grep -qF -- "bad.json" "$ERR" || ! grep -qF -- "$2" "$ERR"; then
    bad "$1" "stderr does not name bad.json and '$2'"
  elif [ -e badout ]; then
    bad "$1" "output directory created before validation finished"
  else
    ok "$1"
  fi
}
bad_file "unknown key" "field 'polices'" '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "polices": ["even"]}'
bad_file "unknown policy" "field 'policies[1]'" '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "policies": ["even", "nosuch"]}'
bad_file "empty list" "field 'seeds'" '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "seeds": []}'
bad_file "unknown mix" "field 'mixes[0]'" '{"name": "b", "configs": ["warped-slicer"], "mixes": ["nosuch"]}'
bad_file "unknown config" "field 'configs[0]'" '{"name": "b", "configs": ["nosuch"], "mixes": ["test-pair"]}'
bad_file "unknown pair kernel" "field 'pairs.kernels[1]'" '{"name": "b", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute", "nosuch"]}}'
bad_file "wrong type" "field 'configs'" '{"name": "b", "configs": "warped-slicer", "mixes": ["test-pair"]}'
bad_file "missing name" "field 'name'" '{"configs": ["warped-slicer"], "mixes": ["test-pair"]}'
bad_file "bad name" "field 'name'" '{"name": "a b", "configs": ["warped-slicer"], "mixes": ["test-pair"]}'
bad_file "no mixes" "field 'mixes'" '{"name": "b", "configs": ["warped-slicer"]}'
bad_file "unknown group kernel" "field 'groups.kernels[1]'" '{"name": "b", "configs": ["warped-slicer"], "groups": {"kernels": ["test.compute", "nosuch"]}}'
bad_file "group size above the kernel list" "field 'groups.sizes[0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "groups": {"kernels": ["test.compute", "test.memory"], "sizes": [3]}}'
bad_file "group size 1" "field 'groups.sizes[0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "groups": {"kernels": ["test.compute", "test.memory"], "sizes": [1]}}'
bad_file "group workloads beyond the config's contexts" "field 'groups'" \
  '{"name": "b", "configs": ["warped-slicer"], "groups": {"kernels": ["test.compute", "test.memory", "test.cache", "test.shmem", "test.tiny", "test.stream", "test.hugeshmem", "AES-d", "AES-e"], "sizes": [9]}}'
bad_file "sm_sharing with a policy that does not take it" "field 'sm_sharing[0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "policies": ["even"], "sm_sharing": ["exclusive"]}'

# ---------------------------------------------------------------- pairs
sweep "$SWEEPS/pairs-test.json" -j2 --out pairs
check "pairs: 3 kernels x 2 staggers -> 12 mixes, 24 runs" \
  '[ "$RC" -eq 0 ] && [ "$(ls pairs/mixes | wc -l)" -eq 12 ] && [ "$(results pairs)" -eq 24 ]' "exit $RC"
check "pairs: the second kernel arrives at the stagger" \
  'grep -q "^[^,]*__pair_test.memory_test.cache_at2000__left-over__drain__s1,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,test.cache,2000," pairs/results.csv'

# pairs "stagger_pct": the second kernel arrives at a percentage of the first's alone runtime
cat >pct.json <<EOF
{"name": "pct", "configs": ["warped-slicer"], "policies": ["left-over"],
 "pairs": {"kernels": ["test.compute", "test.memory"], "stagger": [0], "stagger_pct": [50]}}
EOF
sweep pct.json -j2 --out pct
check "pairs stagger_pct: 2 pairs x (1 stagger + 1 pct) -> 4 runs" \
  '[ "$RC" -eq 0 ] && [ "$(results pct)" -eq 4 ] && [ -f pct/mixes/pair_test.memory_test.compute_at50pct.json ]' "exit $RC"
cat >pct_check.py <<'EOF'
import csv
rows = [r for r in csv.DictReader(open("pct/results.csv")) if r["mix"].endswith("_at50pct")]
assert len(rows) == 4, rows
for m in set(r["mix"] for r in rows):
    a, b = [r for r in rows if r["mix"] == m]
    assert int(b["arrival"]) == int(a["cycles_alone"]) * 50 // 100, (a, b)
EOF
check "pairs stagger_pct: arrival = 50% of the first kernel's alone runtime" 'python3 pct_check.py'
bad_file "stagger_pct 0" "field 'pairs.stagger_pct[0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute", "test.memory"], "stagger_pct": [0]}}'

# pairs and combos "window_cycles": generated fixed-window mixes, rows in windows.csv
cat >pwin.json <<EOF
{"name": "pwin", "configs": ["warped-slicer"], "policies": ["left-over"],
 "pairs": {"kernels": ["test.compute", "test.memory"], "window_cycles": 15000},
 "combos": {"kernels": [["test.compute"], ["test.memory"], ["test.cache"]], "window_cycles": 12000}}
EOF
sweep pwin.json -j2 --out pwin
check "pairs/combos window_cycles: 2 pairs + 1 combo as fixed-window mixes, 7 rows in windows.csv" \
  '[ "$RC" -eq 0 ] && grep -q "\"window_cycles\": 15000" pwin/mixes/pair_test.compute_test.memory_at0.json && grep -q "\"window_cycles\": 12000" pwin/mixes/combo_test.compute_test.memory_test.cache.json && [ "$(tail -n +2 pwin/windows.csv | wc -l)" -eq 7 ]' "exit $RC: $(cat "$ERR")"
bad_file "pairs window_cycles with stagger_pct" "field 'pairs.window_cycles'" \
  '{"name": "b", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute", "test.memory"], "stagger_pct": [50], "window_cycles": 1000}}'

# top-level "window_cycles"/"window_start": every run gets --window-cycles/--window-start
cat >wover.json <<EOF
{"name": "wover", "configs": ["warped-slicer"], "policies": ["left-over"], "mixes": ["window_mix.json", "test-pair"],
 "window_cycles": 9000, "window_start": 1000}
EOF
sweep wover.json -j2 --out wover
check "window_cycles/window_start: both mixes run 9000-cycle windows from cycle 1000, rows in windows.csv" \
  '[ "$RC" -eq 0 ] && [ "$(tail -n +2 wover/windows.csv | wc -l)" -eq 4 ] && [ "$(tail -n +2 wover/windows.csv | cut -d, -f8 | sort -u)" = 9000 ]' "exit $RC: $(cat "$ERR")"
bad_file "window_cycles with a mix arriving after the window" "field 'window_cycles'" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-staggered"], "window_cycles": 1000}'
bad_file "window_cycles beside pairs.window_cycles" "field 'window_cycles'" \
  '{"name": "b", "configs": ["warped-slicer"], "window_cycles": 1000, "pairs": {"kernels": ["test.compute", "test.memory"], "window_cycles": 1000}}'
bad_file "window_start alone on mixes without a window" "field 'window_start'" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "window_start": 10}'

# every shipped sweep file is valid and is in docs/sweep.md's table with the runs it lists
# (listed from the repository root, the sweep file named relative to it; the same from
# outside the repository is checked below, "relative paths")
for f in "$SWEEPS"/*.json; do
  name=sim_top/sweeps/$(basename "$f")
  pushd "$REPO" >/dev/null
  sweep "$name" --list --out "$TMP/listed-$(basename "$f" .json)"
  popd >/dev/null
  listed=$(grep -c " run --config " "$TMP/stdout" || true)
  documented=$(grep -F "| \`$name\` | " "$REPO/docs/sweep.md" | cut -d'|' -f3 | tr -d ' ' || true)
  check "$name lists $listed runs, docs/sweep.md says ${documented:-nothing}" \
    '[ "$RC" -eq 0 ] && [ -n "$documented" ] && [ "$listed" -eq "$documented" ]' "exit $RC"
done

# pairs "with" and "order": Warped-Slicer's 30 pairs (compute x all ten, unordered)
sweep "$SWEEPS/warped-slicer-pairs.json" --list --out wsp
check "pairs with/order: the shipped warped-slicer-pairs.json lists 30 pairs x 5 policies" \
  '[ "$RC" -eq 0 ] && [ "$(wc -l <"$TMP/stdout")" -eq 150 ] && [ "$(grep -c -- "--policy oracle" "$TMP/stdout")" -eq 30 ]' \
  "exit $RC, $(wc -l <"$TMP/stdout") lines"
check "pairs order unordered: DXT_HOT once, HOT_DXT not; ordered pairs of compute with cache only one way" \
  'grep -q "pair_DXT_HOT_at0" "$TMP/stdout" && ! grep -q "pair_HOT_DXT_at0" "$TMP/stdout" && ! grep -q "pair_MVP_" "$TMP/stdout"'
bad_file "unknown pair 'with' kernel" "field 'pairs.with[0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute"], "with": ["nosuch"]}}'
bad_file "bad pair order" "field 'pairs.order'" \
  '{"name": "b", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute", "test.memory"], "order": "sideways"}}'

# Pai et al.'s SRTF variants: SRTF/Adaptive (registry policy) and zero-sampling SRTF (golden only)
sweep "$SWEEPS/pai-pairs-srtf.json" --list --out pps
check "the shipped pai-pairs-srtf.json lists 56 pairs x 3 arrivals x 2 policies" \
  '[ "$RC" -eq 0 ] && [ "$(wc -l <"$TMP/stdout")" -eq 336 ] && [ "$(grep -c -- "--policy srtf-zs" "$TMP/stdout")" -eq 168 ]' \
  "exit $RC, $(wc -l <"$TMP/stdout") lines"
bad_file "srtf-zs needs the golden scheduler" "policy srtf-zs is C++ only" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "policies": ["srtf-zs"], "scheduler": "rtl"}'

# combos: one kernel per list, distinct, each set once (Warped-Slicer's 3-kernel mixes)
sweep "$SWEEPS/warped-slicer-triples.json" --list --out wst
check "combos: the shipped warped-slicer-triples.json lists 15 mixes x 4 policies" \
  '[ "$RC" -eq 0 ] && [ "$(wc -l <"$TMP/stdout")" -eq 60 ] &&
   [ "$(grep -o "combo_[A-Za-z_]*" "$TMP/stdout" | sort -u | wc -l)" -eq 15 ]' "exit $RC"
check "combos: DXT+IMG once (not IMG+DXT), no kernel twice" \
  'grep -q "combo_DXT_IMG_BLK" "$TMP/stdout" && ! grep -q "combo_IMG_DXT_" "$TMP/stdout" && ! grep -q "combo_DXT_DXT_" "$TMP/stdout"'
bad_file "unknown combo kernel" "field 'combos.kernels[1][0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "combos": {"kernels": [["test.compute"], ["nosuch"]]}}'
bad_file "combos with one list" "field 'combos.kernels'" \
  '{"name": "b", "configs": ["warped-slicer"], "combos": {"kernels": [["test.compute", "test.memory"]]}}'

# ---------------------------------------------------------------- sets (config override variants)
printf '%s\n' '{"name": "sets", "configs": ["warped-slicer"], "mixes": ["test-pair"], "policies": ["left-over"],
  "sets": [[], ["l2_assoc=4"]]}' >sets.json
sweep sets.json -j2 --out sets
check "sets: one run per variant, ids with __set<i>, the config named as changed" \
  '[ "$RC" -eq 0 ] && [ "$(results sets)" -eq 2 ] && ls sets/runs | grep -q "^warped-slicer__set1__" &&
   grep -q "warped-slicer{l2_assoc=4}" sets/results.csv' "exit $RC"
check "sets: results.csv names both configs, the preset and the changed one" \
  '[ "$(cut -d, -f2 sets/results.csv | sort -u | wc -l)" -eq 3 ]'
bad_file "a set gsim run would refuse" "field 'sets[0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "sets": [["nosuch_key=1"]]}'
bad_file "a set that is not KEY=VALUE" "field 'sets[0][0]'" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "sets": [["l2_assoc"]]}'
bad_file "oracle with a scheduler other than golden" "field 'scheduler'" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "policies": ["oracle"], "scheduler": "lockstep"}'

# ---------------------------------------------------------------- groups
sweep "$SWEEPS/groups-test.json" --list --out groups
"$GSIM" sweep "$SWEEPS/groups-test.json" --list --out groups >listed_again 2>/dev/null
check "groups: --list is the same twice (the draws are seeded)" \
  '[ "$RC" -eq 0 ] && [ "$(wc -l <listed_again)" -eq 16 ] && cmp -s "$TMP/stdout" listed_again'
# the shipped example with four kernels that finish in a few thousand cycles (its test.stream
# takes a second or two per run)
sed 's/"test.stream", //; s/"kernels": \["/"kernels": ["test.shmem", "/' "$SWEEPS/groups-test.json" >groups.json
sweep groups.json -j2 --out groups
check "groups: 4 kernels x sizes 2 and 3 -> 8 mixes, 16 runs" \
  '[ "$RC" -eq 0 ] && [ "$(ls groups/mixes | wc -l)" -eq 8 ] && [ "$(results groups)" -eq 16 ]' "exit $RC"
# every workload: distinct kernels, the prioritized one last (priority 1, arrival 1000, its own
# context), the others at cycle 0 with priority 0; every kernel prioritized once per size
check "groups: each workload as docs/sweep.md describes it" 'python3 - groups/mixes <<'"'"'PYEOF'"'"'
import collections, json, os, sys
d = sys.argv[1]
hp = collections.Counter()
for f in sorted(os.listdir(d)):
    m = json.load(open(os.path.join(d, f)))
    ks = m["kernels"]
    n = len(ks)
    assert f == "group_n%d_r0_%s.json" % (n, ks[-1]["kernel"]), f
    assert len({k["kernel"] for k in ks}) == n, f
    assert [k["context"] for k in ks] == list(range(n)), f
    assert ks[-1]["priority"] == 1 and ks[-1]["arrival_cycle"] == 1000, f
    assert all(k["priority"] == 0 and k["arrival_cycle"] == 0 for k in ks[:-1]), f
    hp[(n, ks[-1]["kernel"])] += 1
assert len(hp) == 8 and set(hp.values()) == {1}, hp
PYEOF'
check "groups: results.csv gives the prioritized kernel priority 1" \
  '[ "$(grep -c ",test\.[a-z]*,1000,1," groups/results.csv)" -eq 16 ]' "got $(grep -c ",1000,1," groups/results.csv)"

# ---------------------------------------------------------------- hardening (issues 42 and 43)
# 1. bounded plans: nesting, run count, combos counted before they are enumerated, linear
# duplicate checks, SIGTERM while planning
python3 -c "print('{\"name\": \"b\", \"configs\": [\"warped-slicer\"], \"mixes\": [\"test-pair\"], \"sets\": ' + '[' * 100000 + ']' * 100000 + '}')" >deep.json
sweep deep.json --out deepout
check "deeply nested sets: exit 2 naming the file, the field and the limit of 64" \
  '[ "$RC" -eq 2 ] && grep -q "deep.json: field '"'"'sets'"'"': .*nested deeper than 64" "$ERR" && [ ! -e deepout ]' "exit $RC"
python3 -c "
import json
json.dump({'name': 'b', 'configs': ['warped-slicer'], 'mixes': ['test-pair'], 'seeds': list(range(3000000))}, open('runs3m.json', 'w'))
json.dump({'name': 'b', 'configs': ['warped-slicer'], 'mixes': ['test-pair'], 'seeds': list(range(1200000)) + [7]}, open('dupseeds.json', 'w'))
json.dump({'name': 'b', 'configs': ['warped-slicer'], 'mixes': ['test-pair'], 'seeds': list(range(100000))}, open('runs100k.json', 'w'))
json.dump({'name': 'b', 'configs': ['warped-slicer'], 'mixes': ['test-pair'], 'seeds': list(range(100001))}, open('runs100k1.json', 'w'))
"
start=$SECONDS
RC=0; timeout -s KILL 30 "$GSIM" sweep runs3m.json --list --out big >"$TMP/stdout" 2>"$ERR" || RC=$?
check "3,000,000 runs: exit 2 at once naming the limit of 100000 runs" \
  '[ "$RC" -eq 2 ] && grep -q "runs3m.json: .*3000000 runs.*limit of 100000" "$ERR" && [ $((SECONDS - start)) -le 20 ]' "exit $RC after $((SECONDS - start)) s"
sweep runs100k1.json --list --out big
check "100,001 runs: exit 2 (the limit is 100,000)" '[ "$RC" -eq 2 ] && grep -q "100001 runs" "$ERR"' "exit $RC"
sweep runs100k.json --list --out big
check "100,000 runs: listed" '[ "$RC" -eq 0 ] && [ "$(wc -l <"$TMP/stdout")" -eq 100000 ]' "exit $RC"
start=$SECONDS
RC=0; timeout -s KILL 30 "$GSIM" sweep dupseeds.json --list --out big >"$TMP/stdout" 2>"$ERR" || RC=$?
check "1.2M seeds with a duplicate at the end: found at once (linear check), exit 2 naming seeds[1200000]" \
  '[ "$RC" -eq 2 ] && grep -q "field '"'"'seeds\[1200000\]'"'"': 7 is listed twice" "$ERR" && [ $((SECONDS - start)) -le 10 ]' \
  "exit $RC after $((SECONDS - start)) s"
K21=$("$GSIM" list kernels | awk '{print $1}' | head -21 | python3 -c "import json, sys; print(json.dumps([l.strip() for l in sys.stdin]))")
echo "{\"name\": \"c\", \"configs\": [\"warped-slicer\"], \"combos\": {\"kernels\": [$K21, $K21, $K21, $K21, $K21, $K21, $K21, $K21]}}" >combos8.json
start=$SECONDS
RC=0; timeout -s KILL 30 "$GSIM" sweep combos8.json --list --out big >"$TMP/stdout" 2>"$ERR" || RC=$?
check "combos of eight 21-kernel lists: counted (21^8), exit 2 at once naming combos.kernels and the limit" \
  '[ "$RC" -eq 2 ] && grep -q "combos8.json: field '"'"'combos.kernels'"'"': .*37822859361 combinations.*limit of 1000000" "$ERR" && [ $((SECONDS - start)) -le 5 ]' \
  "exit $RC after $((SECONDS - start)) s"
# a plan that takes seconds to load (60,000 config variants, each loaded): SIGTERM stops it
python3 -c "
import json
json.dump({'name': 'slow', 'configs': ['warped-slicer'], 'mixes': ['test-pair'],
           'sets': [['warped_slicer.sample_cycles=%d' % (1000 + i)] for i in range(60000)]}, open('slowplan.json', 'w'))"
"$GSIM" sweep slowplan.json --list --out slowplan >"$TMP/stdout" 2>"$ERR" &
pid=$!
sleep 1
kill -TERM "$pid"
start=$SECONDS
RC=0; wait "$pid" || RC=$?
check "SIGTERM while planning: exit 130 at once, nothing written" \
  '[ "$RC" -eq 130 ] && grep -q "stopped while planning" "$ERR" && [ $((SECONDS - start)) -le 3 ] && [ ! -s "$TMP/stdout" ]' \
  "exit $RC after $((SECONDS - start)) s"

# 4. a sweep of no run; a window longer than the runs may last
bad_file "pairs that give no mix: no run" "field 'pairs': the sweep has no run" \
  '{"name": "b", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute"], "with": ["test.compute"]}}'
bad_file "combos that give no mix: no run" "field 'combos': the sweep has no run" \
  '{"name": "b", "configs": ["warped-slicer"], "combos": {"kernels": [["test.compute"], ["test.compute"]]}}'
bad_file "window_cycles longer than max_cycles" "field 'window_cycles': the window of test-pair ends at cycle 50000" \
  '{"name": "b", "configs": ["warped-slicer"], "mixes": ["test-pair"], "window_cycles": 50000, "max_cycles": 10000}'
bad_file "a mix's own window longer than max_cycles" "field 'mixes[0]': the window of win ends at cycle 20000" \
  "{\"name\": \"b\", \"configs\": [\"warped-slicer\"], \"mixes\": [\"$TMP/window_mix.json\"], \"max_cycles\": 19999}"
bad_file "pairs.window_cycles longer than max_cycles" "field 'pairs.window_cycles'" \
  '{"name": "b", "configs": ["warped-slicer"], "max_cycles": 1000, "pairs": {"kernels": ["test.compute", "test.memory"], "window_cycles": 1001}}'
printf '%s\n' "{\"name\": \"wfit\", \"configs\": [\"warped-slicer\"], \"mixes\": [\"$TMP/window_mix.json\"], \"max_cycles\": 20000}" >wfit.json
sweep wfit.json --out wfit
check "a window that ends at max_cycles runs" '[ "$RC" -eq 0 ] && [ "$(results wfit)" -eq 1 ]' "exit $RC"

# 2. outputs never destroy
mkdir -p foreign/runs
echo "precious,results" >foreign/results.csv
echo "notes" >foreign/notes.txt
cp foreign/results.csv foreign.csv.orig
sweep "$SWEEPS/smoke.json" --out foreign
check "--out a directory not made by gsim sweep: exit 2, its files untouched" \
  '[ "$RC" -eq 2 ] && grep -q "foreign: the directory exists and was not made by gsim sweep" "$ERR" && cmp -s foreign/results.csv foreign.csv.orig && [ -f foreign/notes.txt ] && [ ! -e foreign/.gsim-sweep ] && [ ! -e foreign/.lock ]' "exit $RC"
mkdir -p notsweep && echo x >notsweep/data.txt
sweep "$SWEEPS/smoke.json" --out notsweep
check "--out a directory of other files: exit 2" '[ "$RC" -eq 2 ] && [ "$(ls -A notsweep)" = data.txt ]' "exit $RC"
mkdir -p emptydir
sweep "$SWEEPS/smoke.json" -j2 --out emptydir
check "--out an empty directory: taken and marked" '[ "$RC" -eq 0 ] && [ -f emptydir/.gsim-sweep ] && [ "$(results emptydir)" -eq 8 ]' "exit $RC"
# an older gsim's sweep directory (.lock, runs/, results.csv; no marker) is taken
mkdir -p older/runs && touch older/.lock && echo "run_id" >older/results.csv
sweep "$SWEEPS/smoke.json" -j2 --out older
check "--out an older sweep's directory (no marker): taken" '[ "$RC" -eq 0 ] && [ -f older/.gsim-sweep ]' "exit $RC"
# only the sweep's own temporaries are removed from runs/
touch smoke/runs/.keep-me smoke/runs/.warped-slicer__test-pair__even__drain__s2.999999999.part.json smoke/runs/.x.part.json
sweep "$SWEEPS/smoke.json" --out smoke
check "stale temporaries of the sweep removed, other dot files left alone" \
  '[ "$RC" -eq 0 ] && [ -f smoke/runs/.keep-me ] && [ ! -e smoke/runs/.warped-slicer__test-pair__even__drain__s2.999999999.part.json ] && [ ! -e smoke/runs/.x.part.json ]' "exit $RC"
rm -f smoke/runs/.keep-me
# a result that cannot be written: exit 2, no temporaries left behind
mkdir -p unwritable/runs/warped-slicer__test-pair__left-over__drain__s1.json && touch unwritable/.gsim-sweep
printf '%s\n' '{"name": "u", "configs": ["warped-slicer"], "mixes": ["test-pair"]}' >unwritable.json
sweep unwritable.json --out unwritable
check "a result that cannot be written: exit 2, no .part.json/.stderr left" \
  '[ "$RC" -eq 2 ] && [ "$(temporaries unwritable)" -eq 0 ]' "exit $RC, $(ls -A unwritable/runs | tr '\n' ' ')"
# temporaries carry the sweep's pid: two processes of the same run never share one
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" -j1 --out pidtmp -q >/dev/null 2>"$ERR" &
pid=$!
for _ in $(seq 1 200); do ls -A pidtmp/runs 2>/dev/null | grep -q '\.stderr$' && break; sleep 0.05; done
tmpnames=$(ls -A pidtmp/runs 2>/dev/null | grep '^\.' || true)
kill -TERM "$pid"; wait "$pid" || true
check "a running child's temporaries are named with the sweep's pid" \
  'echo "$tmpnames" | grep -q "^\.tanasic-k20c__.*\.$pid\.stderr$"' "temporaries: $tmpnames"
rm -rf twice
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" --out twice --run-index 0 >/dev/null 2>twice1.err &
p1=$!
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" --out twice --run-index 0 >/dev/null 2>twice2.err &
p2=$!
r1=0; wait "$p1" || r1=$?
r2=0; wait "$p2" || r2=$?
check "two --run-index of the same run at once: both exit 0, one result, no temporaries" \
  '[ "$r1" -eq 0 ] && [ "$r2" -eq 0 ] && [ "$(results twice)" -eq 1 ] && [ "$(temporaries twice)" -eq 0 ]' "exit $r1 and $r2: $(cat twice1.err twice2.err)"
# a generated mix never replaces a mix it did not generate
printf '%s\n' '{"name": "gen", "configs": ["warped-slicer"], "pairs": {"kernels": ["test.compute", "test.memory"]}}' >gen.json
sweep gen.json -j2 --out gen
printf '%s\n' '{"name": "mine", "kernels": [{"kernel": "test.compute"}, {"kernel": "test.cache", "context": 1}]}' >gen/mixes/pair_test.compute_test.memory_at0.json
cp gen/mixes/pair_test.compute_test.memory_at0.json mine.orig
sweep gen.json -j2 --out gen
check "a hand-made mix where a generated one goes: exit 2, left as it is" \
  '[ "$RC" -eq 2 ] && grep -q "was not generated by gsim sweep" "$ERR" && cmp -s mine.orig gen/mixes/pair_test.compute_test.memory_at0.json' "exit $RC"
printf '%s\n' "{\"name\": \"gen2\", \"configs\": [\"warped-slicer\"], \"mixes\": [\"$TMP/gen/mixes/pair_test.compute_test.memory_at0.json\"], \"pairs\": {\"kernels\": [\"test.compute\", \"test.memory\"]}}" >gen2.json
sweep gen2.json --list --out gen
check "a generated mix at the path of a listed mix: exit 2 naming both" \
  '[ "$RC" -eq 2 ] && grep -q "field '"'"'pairs'"'"': the generated mix .* would replace the mix mixes\[0\] lists" "$ERR"' "exit $RC"
sweep gen.json --list --out "$REPO/sim_top/workloads"
check "generated mixes into the shipped mixes directory: exit 2" \
  '[ "$RC" -eq 2 ] && grep -q "would replace a shipped mix" "$ERR"' "exit $RC"

# 3. resume checks what it can: every input file (a config's hetero.baseline_config too) and
# the stored result's schema
python3 - "$DATA/configs" <<'PYEOF'
import json, sys
d = sys.argv[1]
c = json.load(open(d + "/heterocore.json"))
c["hetero"]["baseline_config"] = __import__("os").getcwd() + "/hcb.json"
json.dump(c, open("hc.json", "w"), indent=2)
open("hcb.json", "w").write(open(d + "/heterocore-baseline.json").read())
PYEOF
printf '%s\n' "{\"name\": \"hb\", \"configs\": [\"$TMP/hc.json\"], \"mixes\": [\"test-pair\"]}" >hb.json
sweep hb.json --out hb
echo >>hcb.json   # the baseline config changes (one byte)
sweep hb.json --out hb
check "a change to a config's hetero.baseline_config file reruns the run" '[ "$RC" -eq 0 ] && grep -q "1 ran, 0 already done" "$ERR"' "exit $RC: $(cat "$ERR")"
python3 - <<'PYEOF'
import json
def edit(run, f):
    p = "smoke/runs/warped-slicer__%s.json" % run
    d = json.load(open(p)); f(d); json.dump(d, open(p, "w"), indent=2)
edit("test-pair__even__drain__s1", lambda d: d.__setitem__("kernels", []))
edit("test-pair__even__drain__s2", lambda d: d.__setitem__("stp", "fast"))
edit("test-staggered__even__drain__s1", lambda d: d.pop("antt"))
edit("test-staggered__even__drain__s2", lambda d: d["kernels"][0].__setitem__("cycles_alone", "x"))
PYEOF
sweep "$SWEEPS/smoke.json" -j2 --out smoke
check "stored results that fail their schema (no kernels, text for stp, a missing key, text for a count) run again" \
  '[ "$RC" -eq 0 ] && grep -q "4 ran, 4 already done" "$ERR" && [ "$(csv_rows smoke)" -eq 20 ] && ! grep -q "fast\|,x," smoke/results.csv' "exit $RC: $(cat "$ERR")"

# 5. --backend slurm --dry-run: --time in Slurm's formats, a '%' of --out escaped
for t in 90 10:30 01:30:00 2-12 2-12:30 2-12:30:00; do
  sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --time "$t" --out "time-ok"
  check "--time $t: taken" '[ "$RC" -eq 0 ] && grep -qx "#SBATCH --time=$t" time-ok/slurm/sweep.sbatch' "exit $RC"
done
for t in 1:2:3:4 2-25 10:75 1-2-3 abc 01:30: -5; do
  sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --time "$t" --out "time-bad"
  check "--time '$t': exit 2 naming Slurm's formats" '[ "$RC" -eq 2 ] && grep -q "is not a Slurm time limit: give MM, MM:SS" "$ERR"' "exit $RC"
done
sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --time "" --out "time-bad"
check "--time '': exit 2" '[ "$RC" -eq 2 ] && grep -q -- "--time: the value is empty" "$ERR"' "exit $RC"
sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --out "pct%Adir"
check "a '%' in --out is '%%' in #SBATCH --output" \
  '[ "$RC" -eq 0 ] && grep -qxF "#SBATCH --output=$TMP/pct%%Adir/slurm/%A_%a.out" "pct%Adir/slurm/sweep.sbatch"' "exit $RC"

# 6. relative paths in a sweep file: its own directory, then the data directory, then the
# working directory (this script runs in $TMP, outside the repository)
sweep "$SWEEPS/sbm-table6.json" --list --out sbm
check "a shipped sweep with mix paths lists its 68 runs from outside the repository" \
  '[ "$RC" -eq 0 ] && [ "$(grep -c -- "--mix $REPO/sim_top/workloads/mixes/sbm-table6/" "$TMP/stdout")" -eq 68 ]' "exit $RC"
mkdir -p sub && cp window_mix.json sub/own_mix.json
printf '%s\n' '{"name": "rel", "configs": ["warped-slicer"], "mixes": ["own_mix.json", "workloads/mixes/test-pair.json"]}' >sub/rel.json
sweep sub/rel.json --list --out rel
check "a mix path relative to the sweep file's directory, then to the data directory" \
  '[ "$RC" -eq 0 ] && grep -q -- "--mix sub/own_mix.json " "$TMP/stdout" && grep -q -- "--mix $DATA/workloads/mixes/test-pair.json " "$TMP/stdout"' "exit $RC"
# the path as the shipped sbm sweeps once wrote it, run from outside the repository (it names no file)
printf '%s\n' '{"name": "rel", "configs": ["warped-slicer"], "mixes": ["sim_top/workloads/mixes/'dct_conv.json'"]}' >sugg.json
sweep sugg.json --list --out rel
check "a missing mix path: the places looked at, and the shipped mix of that file name" \
  '[ "$RC" -eq 2 ] && grep -q "field '"'"'mixes\[0\]'"'"': .*no such mix file; looked for it relative to" "$ERR" && grep -q "Did you mean workloads/mixes/sbm-table6/dct_conv.json" "$ERR"' "exit $RC"

# 7. results.csv's per-kernel counter columns hold the result's counters.kernels[i].all
check "results.csv counter columns = the result's counters (ipc_thread empty without thread_ipc)" 'python3 - <<'"'"'PYEOF'"'"'
import csv, json
rows = list(csv.DictReader(open("smoke/results.csv")))
assert rows
for r in rows:
    d = json.load(open("smoke/runs/%s.json" % r["run_id"]))
    i = [k["name"] for k in d["kernels"]].index(r["kernel"])
    a = d["counters"]["kernels"][i]["all"]
    assert float(r["ipc_warp"]) == a["ipc"], r
    assert r["ipc_thread"] == ("" if "thread_ipc" not in a else str(a["thread_ipc"])) or float(r["ipc_thread"]) == a["thread_ipc"], r
    for k in ("l1_hit_rate", "l2_hit_rate", "dram_share_of_peak"):
        assert float(r[k]) == a[k], (k, r)
    for k in ("memory", "dependency", "functional_unit", "idle"):
        assert float(r["stall_%s_share" % k]) == a["stall_shares"][k], (k, r)
PYEOF'

# ---------------------------------------------------------------- "kernels": the user's own libraries
mkdir -p "$TMP/userk"
cat > "$TMP/userk/mine.json" <<'EOF'
{"suite": "mine", "source": "test", "preset": "warped-slicer",
 "kernels": [{"name": "my.stream", "behaviour": "memory", "threads_per_cta": 128, "grid_ctas": 32,
              "insts_per_warp": 200, "ldst_permille": 200, "pattern": "streaming"}]}
EOF
cat > "$TMP/userk/sw.json" <<'EOF'
{"name": "userk", "configs": ["warped-slicer"], "kernels": ["mine.json"],
 "pairs": {"kernels": ["my.stream", "test.compute"]}, "scheduler": "golden"}
EOF
sweep "$TMP/userk/sw.json" --out "$TMP/userk/res"
check "a sweep's \"kernels\": pairs of the user's kernel run" \
  '[ "$RC" -eq 0 ] && grep -q ",my.stream," "$TMP/userk/res/results.csv" && grep -q -- "--kernels" "$TMP/userk/res/runs/"*.json'
sed -i 's/"insts_per_warp": 200/"insts_per_warp": 300/' "$TMP/userk/mine.json"
sweep "$TMP/userk/sw.json" --out "$TMP/userk/res"
check "a changed kernel library of the sweep: its runs run again" '[ "$RC" -eq 0 ] && grep -q "2 ran, 0 already done" "$ERR"' "$(cat "$ERR")"
sed 's/mine.json/nope.json/' "$TMP/userk/sw.json" > "$TMP/userk/bad.json"
sweep "$TMP/userk/bad.json" --list
check "a missing kernel library names the field" '[ "$RC" -eq 2 ] && grep -q "field .kernels\[0\]." "$ERR"' "$(cat "$ERR")"

summary
