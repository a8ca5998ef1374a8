#!/usr/bin/env bash
# gsched: gsim against malformed, extreme and hostile inputs (CTest `cli_hostile`, and
# `cli_asan_hostile` with gsim built under ASan+UBSan).
#
# Usage: hostile_inputs.sh path/to/gsim [path/to/gs_wave_views]
# A table of cases, one per line: the exit code gsim must give, a text its stderr must hold
# (the option, or the file and field) and the arguments. Every case also runs under a time
# limit (a hang is a failure) and must not end on a signal or print "internal error" (a crash).
# Then the output-safety checks: inputs and non-regular files are never overwritten, results
# are written whole or not at all, and (RTL builds) Ctrl-C and a bus error leave a valid
# waveform or none. Prints one line per check; exits non-zero if any failed.
set -uo pipefail

GSIM=${1:?usage: hostile_inputs.sh path/to/gsim [gs_wave_views]}
GSIM=$(cd "$(dirname "$GSIM")" && pwd)/$(basename "$GSIM")
VIEWS=${2:-}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DATA=${GSCHED_DATA_DIR:-$REPO/sim_top}
TMP=$(mktemp -d)
trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
LIMIT=${GS_HOSTILE_TIMEOUT:-120}

OUT=$TMP/stdout
ERR=$TMP/stderr
source "$REPO/verif/cli/check_lib.sh"   # ok, bad, check, summary
gsim() {
  RC=0
  timeout -s KILL "$LIMIT" "$GSIM" "$@" >"$OUT" 2>"$ERR" </dev/null || RC=$?
}
# expect CODE TEXT ARGS...: exit CODE, TEXT in stderr (or stdout for exit 0 when TEXT starts with 'stdout:').
expect() {
  local code=$1 text=$2
  shift 2
  local name="gsim $*"
  name=${name//$TMP/\$TMP}
  gsim "$@"
  if [ "$RC" -eq 137 ]; then
    bad "$name" "hang: killed after ${LIMIT}s"
  elif [ "$RC" -ge 128 ] && [ "$RC" -ne 130 ]; then
    bad "$name" "crash: signal $((RC - 128))"
  elif grep -q "internal error\|AddressSanitizer\|runtime error:\|terminate called" "$ERR"; then
    bad "$name" "crash/internal error"
  elif [ "$RC" -ne "$code" ]; then
    bad "$name" "expected exit $code, got $RC"
  elif [[ "$text" == stdout:* ]] && ! grep -qF -- "${text#stdout:}" "$OUT"; then
    bad "$name" "stdout lacks '${text#stdout:}'"
  elif [[ "$text" != stdout:* ]] && ! grep -qF -- "$text" "$ERR"; then
    bad "$name" "stderr lacks '$text'"
  else
    ok "$name"
  fi
}

# ---------------------------------------------------------------- fixtures
# cfgmod NAME PYTHON: a copy of the Warped-Slicer preset changed by PYTHON (c = the dict).
cfgmod() {
  python3 - "$DATA/configs/warped-slicer.json" "$TMP/$1.json" "$2" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
}
cfgmod big_l2 'c["l2_slice_bytes"] = 2**30; c["dram_channels"] = 1024'
cfgmod sms257 'c["sm_types"][0]["count"] = 257'
cfgmod sms140 'c["sm_types"][0]["count"] = 140'   # beyond the RTL build (MaxSms 132), within the golden (256)
cfgmod regs17 'c["sm_types"][0]["registers"] = 2**17'
cfgmod ctas33 'c["sm_types"][0]["max_ctas"] = 33'
cfgmod threads 'c["sm_types"][0]["max_threads"] = 4096'
cfgmod ctx33 'c["max_contexts"] = 33'
cfgmod slots0 'c["max_active_kernels"] = 0'
cfgmod neg 'c["dram_banks"] = -4'
cfgmod float 'c["l2_assoc"] = 8.5'
cfgmod str 'c["core_clock_mhz"] = "1400"'
sed 's/"core_clock_mhz": *[0-9]*/"core_clock_mhz": 1e400/' "$DATA/configs/warped-slicer.json" >"$TMP/clock1e400.json"
grep -q 1e400 "$TMP/clock1e400.json" || echo '{"core_clock_mhz": 1e400}' >"$TMP/clock1e400.json"
printf '%0.s[' $(seq 1 5000) >"$TMP/deep.json"
head -c 3000 /dev/urandom >"$TMP/garbage.json"
: >"$TMP/empty.json"
printf '\xef\xbb\xbf{}' >"$TMP/bom.json"
mixfile() { # mixfile NAME JSON
  printf '%s\n' "$2" >"$TMP/$1.json"
}
mixfile nine "{\"name\":\"nine\",\"kernels\":[$(for i in $(seq 1 9); do printf '{"kernel":"test.compute"}'; [ "$i" -lt 9 ] && printf ','; done)]}"
mixfile prio16 '{"kernels":[{"kernel":"test.compute","priority":16}]}'
mixfile tokens '{"kernels":[{"kernel":"test.compute","tokens":5000}]}'
mixfile grid '{"kernels":[{"kernel":"test.compute","grid_ctas":2097152}]}'
mixfile arrival '{"kernels":[{"kernel":"test.compute","arrival_cycle":18446744073709551615}]}'
mixfile negctx '{"kernels":[{"kernel":"test.compute","context":-1}]}'
# fixed-window method (docs/workloads.md): malformed window_cycles
for w in 0 -5 '"40000"' 1.5 true null 281474976710657; do
  mixfile "win_${w//[^a-z0-9]/_}" "{\"window_cycles\":$w,\"kernels\":[{\"kernel\":\"test.compute\"}]}"
done
mixfile winlate '{"window_cycles":400,"kernels":[{"kernel":"test.compute"},{"kernel":"test.memory","arrival_cycle":500}]}'
mixfile winok '{"window_cycles":20000,"kernels":[{"kernel":"test.compute"}]}'
mixfile bypass3 '{"kernels":[{"kernel":"test.compute","bypass":"l3"}]}'
mixfile nokernels '{"kernels":[]}'
mixfile dupkey '{"kernels":[{"kernel":"test.compute","kernel":"test.memory"}]}'
mixfile sbm '{"name":"sbm-written","config":"sbm-gcn32","kernels":[{"kernel":"test.compute"},{"kernel":"test.memory"}]}'
mixfile hinted '{"name":"hinted","config":"warped-slicer","kernels":[{"kernel":"test.compute"},{"kernel":"test.memory"}]}'
mixfile unhinted '{"name":"unhinted","kernels":[{"kernel":"test.compute"}]}'
mixfile pair '{"name":"pair","config":"warped-slicer","kernels":[{"kernel":"test.compute"},{"kernel":"test.memory","arrival_cycle":500}]}'
RUN=(run --config warped-slicer --mix "$TMP/pair.json" --scheduler golden -q)

# ---------------------------------------------------------------- the table
# config files: exit 2 naming file and field
expect 2 "clock1e400.json:"            run --config "$TMP/clock1e400.json" --mix "$TMP/pair.json"
expect 2 "l2_slice_bytes"              run --config "$TMP/big_l2.json" --mix "$TMP/pair.json"
expect 2 "sm_types[0].count"           run --config "$TMP/sms257.json" --mix "$TMP/pair.json"
expect 2 "sm_types[0].registers"       run --config "$TMP/regs17.json" --mix "$TMP/pair.json"
expect 2 "sm_types[0].max_ctas"        run --config "$TMP/ctas33.json" --mix "$TMP/pair.json"
expect 2 "sm_types[0].max_threads"     run --config "$TMP/threads.json" --mix "$TMP/pair.json"
expect 2 "max_contexts"                run --config "$TMP/ctx33.json" --mix "$TMP/pair.json"
expect 2 "max_active_kernels"          run --config "$TMP/slots0.json" --mix "$TMP/pair.json"
expect 2 "dram_banks"                  run --config "$TMP/neg.json" --mix "$TMP/pair.json"
expect 2 "l2_assoc"                    run --config "$TMP/float.json" --mix "$TMP/pair.json"
expect 2 "core_clock_mhz"              run --config "$TMP/str.json" --mix "$TMP/pair.json"
expect 2 "deep.json:1:"                run --config "$TMP/deep.json" --mix "$TMP/pair.json"
expect 2 "garbage.json"                run --config "$TMP/garbage.json" --mix "$TMP/pair.json"
expect 2 "empty.json:1:1"              run --config "$TMP/empty.json" --mix "$TMP/pair.json"
expect 2 "bom.json"                    run --config "$TMP/bom.json" --mix "$TMP/pair.json"
expect 2 "no such config"              run --config /dev/null --mix "$TMP/pair.json"
expect 2 "no such config"              run --config "$TMP" --mix "$TMP/pair.json"
expect 2 "config name is empty"        run --config "" --mix "$TMP/pair.json"
expect 2 "sm_types[0].count"           occupancy --config "$TMP/sms257.json" --kernel test.compute
# mix files: exit 2 naming the mix file and the entry
expect 2 "nine.json: field 'kernels[8].context'" run --config warped-slicer --mix "$TMP/nine.json" --scheduler golden
expect 2 "kernels[0].priority"         "${RUN[@]:0:3}" --mix "$TMP/prio16.json"
expect 2 "kernels[0].tokens"           "${RUN[@]:0:3}" --mix "$TMP/tokens.json"
expect 2 "kernels[0].grid_ctas"        "${RUN[@]:0:3}" --mix "$TMP/grid.json"
expect 2 "kernels[0].arrival_cycle"    "${RUN[@]:0:3}" --mix "$TMP/arrival.json"
expect 2 "kernels[0].context"          "${RUN[@]:0:3}" --mix "$TMP/negctx.json"
for w in 0 -5 '"40000"' 1.5 true null 281474976710657; do
  expect 2 "window_cycles"             "${RUN[@]:0:3}" --mix "$TMP/win_${w//[^a-z0-9]/_}.json"
done
expect 2 "kernels[1] arrives at cycle 500" "${RUN[@]:0:3}" --mix "$TMP/winlate.json"
expect 2 "--max-cycles 10000"          "${RUN[@]:0:3}" --mix "$TMP/winok.json" --scheduler golden --max-cycles 10000
expect 2 "kernels[0].bypass"           "${RUN[@]:0:3}" --mix "$TMP/bypass3.json"
expect 2 "nokernels.json"              "${RUN[@]:0:3}" --mix "$TMP/nokernels.json"
expect 2 "given twice"                 "${RUN[@]:0:3}" --mix "$TMP/dupkey.json"
expect 2 "mix name is empty"           run --config warped-slicer --mix ""
expect 2 "no such mix"                 run --config warped-slicer --mix /dev/zero
expect 2 "--config is required"        run --mix "$TMP/unhinted.json"
# numbers on the command line: exit 2 naming the option
for v in -1 99999999999999999999 "" " 7" 1e3 0x10 abc; do
  expect 2 "--seed"                    "${RUN[@]}" --seed "$v"
done
expect 2 "--max-cycles"                "${RUN[@]}" --max-cycles -1
expect 2 "--max-cycles"                "${RUN[@]}" --max-cycles 0
expect 2 "--watchdog-cycles"           "${RUN[@]}" --watchdog-cycles -1
expect 2 "--obs-interval"              "${RUN[@]}" --obs-interval -1
expect 2 "SMs x kernels"               "${RUN[@]}" --obs-interval 3
expect 2 "--obs-interval"              "${RUN[@]}" --obs-interval 16777217
expect 2 "--progress"                  run --config warped-slicer --mix "$TMP/pair.json" --scheduler golden --progress=-1
expect 2 "--progress"                  run --config warped-slicer --mix "$TMP/pair.json" --scheduler golden --progress=0
expect 2 "--cycles"                    bench --scheduler golden --cycles -5
expect 2 "--cycles"                    bench --scheduler golden --cycles 0
expect 2 "--cycles"                    bench --scheduler golden --cycles 18446744073709551615
expect 2 "--seed"                      bench --scheduler golden --seed -1
# names and --set
expect 2 "--policy"                    "${RUN[@]}" --policy ""
expect 2 "--scheduler"                 run --config warped-slicer --mix "$TMP/pair.json" --scheduler ""
expect 2 "--kernel"                    run --config warped-slicer --kernel ""
expect 2 "unknown kernel"              run --config warped-slicer --kernel no.such.kernel
expect 2 "excludes"                    run --config warped-slicer --kernel test.compute --mix "$TMP/pair.json"
expect 2 "bogus_field"                 "${RUN[@]}" --set bogus_field=1
expect 2 "l2_assoc"                    "${RUN[@]}" --set l2_assoc=-1
expect 2 "expected key=value"          "${RUN[@]}" --set l2_assoc
expect 2 "sm_types[5]"                 "${RUN[@]}" --set 'sm_types[5].count=1'
expect 2 "l2_slice_bytes"              "${RUN[@]}" --set l2_slice_bytes=1073741824 --set dram_channels=1024
truncate -s 100M "$TMP/huge.json"
expect 2 "too large"                   run --config "$TMP/huge.json" --mix "$TMP/pair.json"
expect 2 "not a regular file"          unit dss --input "$TMP"
# unit inputs
expect 2 "empty.json:1:1"              unit dss --input "$TMP/empty.json"
expect 2 "garbage.json"                unit dss --input "$TMP/garbage.json"
expect 2 "--input"                     unit dss --input "$TMP/no-such-file.json"

# ---------------------------------------------------------------- output paths, refused before simulating
# --max-cycles 1 would stop the run with exit 5: exit 2 proves the path was checked first.
echo "precious" >"$TMP/keep.txt"
cp "$TMP/pair.json" "$TMP/pair.orig"
expect 2 "same file as the input --mix" "${RUN[@]}" --max-cycles 1 --json "$TMP/pair.json"
cmp -s "$TMP/pair.json" "$TMP/pair.orig" && ok "--json naming the mix leaves the mix intact" || bad "--json naming the mix leaves the mix intact"
expect 2 "same file as the input --config" run --config "$TMP/sms140.json" --mix "$TMP/pair.json" --scheduler golden --max-cycles 1 --csv "$TMP/sms140.json"
expect 2 "also the output of --json"   "${RUN[@]}" --max-cycles 1 --json "$TMP/x.out" --csv "$TMP/x.out"
expect 2 "--json"                      "${RUN[@]}" --max-cycles 1 --json ""
expect 2 "does not exist"              "${RUN[@]}" --max-cycles 1 --json "$TMP/no/such/dir/out.json"
expect 2 "is a directory"              "${RUN[@]}" --max-cycles 1 --json "$TMP"
expect 2 "same file as the input --mix" "${RUN[@]}" --max-cycles 1 --counters "$TMP/pair.json"
expect 2 "also the output of --json"   "${RUN[@]}" --max-cycles 1 --json "$TMP/y.out" --counters "$TMP/y.out"
expect 2 "--counters"                  "${RUN[@]}" --max-cycles 1 --counters ""
mkfifo "$TMP/fifo"
expect 2 "is a FIFO"                   "${RUN[@]}" --max-cycles 1 --csv "$TMP/fifo"
[ -p "$TMP/fifo" ] && ok "a FIFO named as output stays a FIFO" || bad "a FIFO named as output stays a FIFO"
if mknod "$TMP/nulldev" c 1 3 2>/dev/null; then
  expect 2 "is a device"               "${RUN[@]}" --max-cycles 1 --json "$TMP/nulldev"
  [ -c "$TMP/nulldev" ] && ok "a device named as output stays a device" || bad "a device named as output stays a device"
fi
if [ "$(id -u)" -ne 0 ]; then   # root may write anywhere
  mkdir "$TMP/ro" && chmod a-w "$TMP/ro"
  expect 2 "not writable"              "${RUN[@]}" --max-cycles 1 --json "$TMP/ro/out.json"
fi

# ---------------------------------------------------------------- results: whole or nothing
echo "old" >"$TMP/r.json"
expect 5 "max-cycles"                  "${RUN[@]}" --max-cycles 50 --json "$TMP/r.json"
[ "$(cat "$TMP/r.json")" = "old" ] && ok "a failed run leaves an existing --json file as it was" || bad "a failed run leaves an existing --json file as it was"
expect 0 "stdout:STP"                  "${RUN[@]}" --json "$TMP/r.json" --csv "$TMP/r.csv"
python3 - "$TMP/r.json" <<'PY' && ok "JSON: version stamp and each kernel's arrival" || bad "JSON: version stamp and each kernel's arrival"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["gsim_version"].startswith("gsim "), j.get("gsim_version")
assert [k["arrival_cycle"] for k in j["kernels"]] == [0, 500], j["kernels"]
PY
ls -a "$TMP" | grep -q '\.tmp-' && bad "no temporary files left behind" || ok "no temporary files left behind"

# ---------------------------------------------------------------- conveniences
expect 0 "stdout:gsim "                --version
expect 0 "stdout:occupancy"
expect 0 "stdout:warped-slicer "       list configs
expect 0 "stdout:left-over "           list policies
gsim list kernels --names
grep -qv '^[^[:space:]]\+$' "$OUT" && bad "list kernels --names: bare names" || ok "list kernels --names: bare names"
expect 0 "stdout:test.compute"         run --config warped-slicer --kernel test.compute --scheduler golden -q
expect 0 "stdout:config warped-slicer{l2_assoc=16,sm_types[*].l1_assoc=8}" \
  "${RUN[@]}" --set l2_assoc=16 --set 'sm_types[*].l1_assoc=8'
expect 0 "config warped-slicer, as named by mix" run --mix "$TMP/hinted.json" --scheduler golden
expect 0 "warning: mix sbm-written was written for config 'sbm-gcn32'" run --config warped-slicer --mix "$TMP/sbm.json" --scheduler golden -q
expect 0 "alone run 1/2 (test.compute): cycle 200, "  "${RUN[@]:0:7}" --progress=200
grep -q "shared run (2 kernels): cycle 200, [0-9]* cycles/s, ETA" "$ERR" && ok "--progress: shared phase, rate and ETA" ||
  bad "--progress: shared phase, rate and ETA"
gsim "${RUN[@]}"
[ ! -s "$ERR" ] && ok "--quiet: nothing on stderr" || bad "--quiet: nothing on stderr"

# ---------------------------------------------------------------- RTL builds: fallback, waveforms
gsim list schedulers --names
if grep -qx lockstep "$OUT"; then
  expect 0 "running the golden scheduler" run --config "$TMP/sms140.json" --mix "$TMP/pair.json"
  expect 2 "MaxSms"                    run --config "$TMP/sms140.json" --mix "$TMP/pair.json" --scheduler lockstep
  expect 2 "--wave needs the RTL"      run --config "$TMP/sms140.json" --mix "$TMP/pair.json" --wave "$TMP/w140.fst"
  if [ -e /dev/null ]; then
    expect 2 "is a device"             run --config warped-slicer --mix "$TMP/pair.json" --scheduler rtl --wave /dev/null
    [ -c /dev/null ] && ok "/dev/null is still a device" || bad "/dev/null is still a device"
  fi
  # Ctrl-C in the shared run: exit 130, a waveform that reads back.
  LONG=(run --config warped-slicer --mix default --scheduler rtl -q --wave "$TMP/int.fst")
  "$GSIM" "${LONG[@]}" >"$OUT" 2>"$ERR" &
  pid=$!
  for _ in $(seq 1 600); do [ -s "$TMP/int.fst" ] && break; sleep 0.1; done
  sleep 1
  kill -INT "$pid"
  RC=0
  wait "$pid" || RC=$?
  if [ "$RC" -eq 130 ] && grep -q "interrupted" "$ERR" && grep -q "valid, truncated FST" "$ERR"; then
    ok "Ctrl-C during --wave: exit 130 with a message"
  else
    bad "Ctrl-C during --wave: exit 130 with a message" "exit $RC"
  fi
  if [ -n "$VIEWS" ] && [ -x "$VIEWS" ] && [ -s "$TMP/int.fst" ]; then
    if "$VIEWS" --fst "$TMP/int.fst" "$REPO/verif/waves/dispatch.gtkw" >/dev/null 2>&1; then
      ok "the interrupted waveform is a readable FST"
    else
      bad "the interrupted waveform is a readable FST"
    fi
  fi
  # A bus error while the waveform is written (what a full disk does to the FST writer's
  # mapped file): the partial waveform is removed, exit 2 with a message.
  "$GSIM" run --config warped-slicer --mix default --scheduler rtl -q --wave "$TMP/bus.fst" >"$OUT" 2>"$ERR" &
  pid=$!
  for _ in $(seq 1 600); do [ -s "$TMP/bus.fst" ] && break; sleep 0.1; done
  kill -BUS "$pid"
  RC=0
  wait "$pid" || RC=$?
  if [ "$RC" -eq 2 ] && [ ! -e "$TMP/bus.fst" ] && grep -q "removed" "$ERR"; then
    ok "bus error during --wave: partial file removed, exit 2"
  else
    bad "bus error during --wave: partial file removed, exit 2" "exit $RC"
  fi
  # A real full disk (where this user may mount a small tmpfs). Two ways it shows, depending on
  # when the FST writer's mapped file hits the limit: a bus error (the handler above: "the disk
  # is full"), or nothing from the writer, when gsim's read-back finds a stub ("not written
  # completely"). Either way the waveform is removed and the run fails (exit 2), no results.
  mkdir -p "$TMP/small"
  if mount -t tmpfs -o size=70m tmpfs "$TMP/small" 2>/dev/null; then
    "$GSIM" run --config warped-slicer --mix default --scheduler rtl -q --wave "$TMP/small/w.fst" \
      --json "$TMP/small/r.json" >"$OUT" 2>"$ERR" &
    pid=$!
    for _ in $(seq 1 600); do [ -s "$TMP/small/w.fst" ] && break; sleep 0.1; done
    dd if=/dev/zero of="$TMP/small/fill" bs=1M >/dev/null 2>&1
    RC=0
    timeout 300 tail --pid="$pid" -f /dev/null
    wait "$pid" || RC=$?
    if [ "$RC" -eq 2 ] && grep -Eq "not written completely|the disk is full" "$ERR" && [ ! -e "$TMP/small/w.fst" ] &&
       [ ! -e "$TMP/small/r.json" ]; then
      ok "disk full during --wave: waveform removed, no results, exit 2"
    else
      bad "disk full during --wave: waveform removed, no results, exit 2" "exit $RC"
    fi
    kill -9 "$pid" 2>/dev/null
    umount "$TMP/small"
  fi
fi

# --- output and numeric hardening ---
# One rule for every output file (cmodel/common/output_file.hpp, docs/cli.md "Output
# files: the rule"): never an input of the run (also through a config's hetero.baseline_config
# or the kernel library), never a non-regular file, never another output; "-" is stdout, once.
# The outputs are refused before anything is simulated. Inputs live in $TMP (a kernel library
# copy in $TMP/data), so a regression overwrites nothing of the source tree.
PROF=(profile --kernel test.memory --max-ctas 1 --warmup 100 --sample 200 -q)
cp "$DATA/configs/warped-slicer.json" "$TMP/wscfg.json"
cp "$TMP/wscfg.json" "$TMP/wscfg.orig"
expect 2 "same file as the input --config" "${PROF[@]}" --config "$TMP/wscfg.json" --out "$TMP/wscfg"
cmp -s "$TMP/wscfg.json" "$TMP/wscfg.orig" && ok "profile --out naming its config leaves it intact" ||
  bad "profile --out naming its config leaves it intact"
cp "$DATA/configs/heterocore-baseline.json" "$TMP/hbase.json"
cp "$TMP/hbase.json" "$TMP/hbase.orig"
python3 - "$DATA/configs/heterocore.json" "$TMP/hcfg.json" "$TMP/hbase.json" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))
c["hetero"]["baseline_config"] = sys.argv[3]
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
expect 2 "hetero.baseline_config"      "${PROF[@]}" --config "$TMP/hcfg.json" --out "$TMP/hbase"
cmp -s "$TMP/hbase.json" "$TMP/hbase.orig" && ok "profile --out naming the config's baseline_config leaves it intact" ||
  bad "profile --out naming the config's baseline_config leaves it intact"
mkdir -p "$TMP/data"
cp -r "$DATA/configs" "$DATA/workloads" "$TMP/data/"
cp "$TMP/data/workloads/kernels/test.json" "$TMP/ktest.orig"
export GSCHED_DATA_DIR="$TMP/data"
expect 2 "kernel library file"         "${PROF[@]}" --config warped-slicer --out "$TMP/data/workloads/kernels/test"
unset GSCHED_DATA_DIR
cmp -s "$TMP/data/workloads/kernels/test.json" "$TMP/ktest.orig" && ok "profile --out naming a kernel library file leaves it intact" ||
  bad "profile --out naming a kernel library file leaves it intact"
mkdir "$TMP/cwd"
pushd "$TMP/cwd" >/dev/null   # a regression would write -.csv and -.json here, not in the caller's directory
expect 2 "only one output may go to standard output" "${PROF[@]}" --config warped-slicer --out -
popd >/dev/null
expect 2 "empty"                       "${PROF[@]}" --config warped-slicer --out ""
mkdir "$TMP/pdir.csv"
expect 2 "is a directory"              "${PROF[@]}" --config warped-slicer --out "$TMP/pdir"
# gsim accuracy --csv: a CTA trace of a short run as input
gsim run --config warped-slicer --kernel test.memory --scheduler golden -q --ctas "$TMP/trace.csv"
cp "$TMP/trace.csv" "$TMP/trace.orig"
ACC=(accuracy --config warped-slicer --ctas "$TMP/trace.csv" -q)
expect 2 "same file as the input --ctas" "${ACC[@]}" --csv "$TMP/trace.csv"
cmp -s "$TMP/trace.csv" "$TMP/trace.orig" && ok "accuracy --csv naming its trace leaves it intact" ||
  bad "accuracy --csv naming its trace leaves it intact"
expect 2 "same file as the input --config" accuracy --config "$TMP/wscfg.json" --ctas "$TMP/trace.csv" -q --csv "$TMP/wscfg.json"
cp "$TMP/pair.json" "$TMP/pair.keep"
expect 2 "same file as the input --mix" accuracy --config warped-slicer --mix "$TMP/pair.json" -q --csv "$TMP/pair.json"
cmp -s "$TMP/pair.json" "$TMP/pair.keep" && ok "accuracy --csv naming its mix leaves it intact" ||
  bad "accuracy --csv naming its mix leaves it intact"
pushd "$TMP/cwd" >/dev/null
expect 0 "Simple Slicing predictor accuracy" "${ACC[@]}" --csv -
popd >/dev/null
[ "$(head -n 1 "$OUT" | cut -d, -f1-3)" = "group,trace,kernel" ] && ! grep -q "Simple Slicing" "$OUT" &&
  ok "accuracy --csv -: the CSV alone on stdout, the summary on stderr" ||
  bad "accuracy --csv -: the CSV alone on stdout, the summary on stderr" "stdout: $(head -c 200 "$OUT")"
[ ! -e "$TMP/cwd/-" ] && ok "accuracy --csv - writes no file named '-'" || bad "accuracy --csv - writes no file named '-'"
# 64-bit time (CTA durations beyond 2^32): the same trace with every time multiplied by 10^7 gives the same ratios
python3 - "$TMP/trace.csv" "$TMP/trace7.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kernel", "cta", "sm", "start_cycle", "end_cycle"])
    for r in rows:
        w.writerow([r["kernel"], r["cta"], r["sm"], int(r["start_cycle"]) * 10**7, int(r["end_cycle"]) * 10**7])
PY
gsim accuracy --config warped-slicer --ctas "$TMP/trace.csv" -q --group g
cp "$OUT" "$TMP/acc1.txt"
gsim accuracy --config warped-slicer --ctas "$TMP/trace7.csv" -q --group g
cmp -s "$OUT" "$TMP/acc1.txt" && ok "accuracy: a trace scaled by 10^7 (CTAs beyond 2^32) gives the same summary" ||
  bad "accuracy: a trace scaled by 10^7 (CTAs beyond 2^32) gives the same summary" "$(diff "$TMP/acc1.txt" "$OUT" | head -5)"
# the trace reader takes the full 64-bit range of stamps and names the field beyond it
python3 - "$TMP/trace.csv" "$TMP/trace64.csv" "$TMP/trace65.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for out, base in ((sys.argv[2], 10**19), (sys.argv[3], 2**64 - 100)):
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["kernel", "cta", "sm", "start_cycle", "end_cycle"])
        for r in rows:
            w.writerow([r["kernel"], r["cta"], r["sm"], base + int(r["start_cycle"]), base + int(r["end_cycle"])])
PY
gsim accuracy --config warped-slicer --ctas "$TMP/trace64.csv" -q --group g
cmp -s "$OUT" "$TMP/acc1.txt" && ok "accuracy: stamps of 20 digits (a trace starting at 10^19) read whole" ||
  bad "accuracy: stamps of 20 digits (a trace starting at 10^19) read whole" "exit $RC $(head -c 300 "$ERR")"
expect 2 "beyond 2^64-1"                accuracy --config warped-slicer --ctas "$TMP/trace65.csv" -q
# gsim unit: every value range-checked after conversion, named with its range (exit 2)
unitfile() { # unitfile NAME VECTOR PYTHON: a copy of the unit vector VECTOR (verif/vectors) changed by PYTHON (u = the dict)
  python3 - "$REPO/verif/vectors/$2.json" "$TMP/$1.json" "$3" <<'PY'
import json, sys
u = json.load(open(sys.argv[1]))
exec(sys.argv[3])
json.dump(u, open(sys.argv[2], "w"))
PY
}
unitfile het_1e15 hetero_thick_lean 'u["kernels"][0]["ipc_big"] = 1e15'
unitfile het_1e300 hetero_thick_lean 'u["kernels"][1]["ipc_small"] = 1e300'
unitfile het_ctas hetero_thick_lean 'u["kernels"][0]["ctas_big"] = 2**32 + 8'
unitfile het_win hetero_thick_lean 'u["window_cycles"] = 2**32 + 8'
unitfile het_sms hetero_thick_lean 'u["sms_small"] = 2**64 - 1'
unitfile sbm_occ sbm_fw_mm 'u["occupancy"] = [2**32 + 8, 8]'
unitfile sbm_1e300 sbm_fw_mm 'u["ipc"]["Base"] = [1e300, 1.0]'
unitfile sbm_1e15 sbm_fw_mm 'u["ipc"]["MWGB2"][0] = [1.5, 1e15]'
unitfile sbm_win sbm_fw_mm 'u["window_cycles"] = 2**32 + 8'
unitfile dss_sms dss_idle 'u["num_sms"] = 2**32 + 4'
unitfile dss_tok dss_idle 'u["kernels"][1]["tokens"] = 2**32 + 1'
unitfile dss_id dss_idle 'u["kernels"][1]["id"] = 2**32 + 1'
unitfile dss_max dss_idle 'u["max_cycles"] = -1'
unitfile dss_float dss_idle 'u["num_sms"] = 1e300'
expect 2 "field 'kernels[0].ipc_big': IPC 1e+15 x window_cycles 20000 does not fit HcInstW" unit hetero --input "$TMP/het_1e15.json"
expect 2 "field 'kernels[1].ipc_small'" unit hetero --input "$TMP/het_1e300.json"
expect 2 "field 'kernels[0].ctas_big': must be an integer 0.." unit hetero --input "$TMP/het_ctas.json"
expect 2 "field 'window_cycles': must be an integer 1..1073741824" unit hetero --input "$TMP/het_win.json"
expect 2 "field 'sms_small'"           unit hetero --input "$TMP/het_sms.json"
expect 2 "field 'occupancy[0]': must be an integer 0.." unit sbm --input "$TMP/sbm_occ.json"
expect 2 "field 'ipc.Base'"            unit sbm --input "$TMP/sbm_1e300.json"
expect 2 "field 'ipc.MWGB2[0]'"        unit sbm --input "$TMP/sbm_1e15.json"
expect 2 "field 'window_cycles': must be an integer 1..1073741824" unit sbm --input "$TMP/sbm_win.json"
expect 2 "field 'num_sms': must be an integer 1.." unit dss --input "$TMP/dss_sms.json"
expect 2 "field 'kernels[1].tokens': must be an integer -32768..32767" unit dss --input "$TMP/dss_tok.json"
expect 2 "field 'kernels[1].id': must be an integer 0..254" unit dss --input "$TMP/dss_id.json"
expect 2 "field 'max_cycles'"          unit dss --input "$TMP/dss_max.json"
expect 2 "field 'num_sms'"             unit dss --input "$TMP/dss_float.json"
expect 0 "stdout:\"mapping\""          unit hetero --input "$REPO/verif/vectors/hetero_thick_lean.json"
expect 0 "stdout:\"sbm_reg\""          unit sbm --input "$REPO/verif/vectors/sbm_fw_mm.json"

# --- sweep hardening ---
# gsim sweep (docs/sweep.md, "Limits", "Output directory"): hostile sweep files are exit 2 at
# once, never a stack overflow, an allocation failure or an endless enumeration.
python3 -c "print('{\"name\": \"h\", \"configs\": [\"warped-slicer\"], \"mixes\": [\"test-pair\"], \"sets\": ' + '[' * 200000 + ']' * 200000 + '}')" >"$TMP/sweep-deep.json"
expect 2 "field 'sets': lists and objects nested deeper than 64" sweep "$TMP/sweep-deep.json" --list
python3 -c "import json; json.dump({'name': 'h', 'configs': ['warped-slicer'], 'mixes': ['test-pair'], 'policies': ['left-over', 'even', 'spatial'], 'seeds': list(range(1000000))}, open('$TMP/sweep-3m.json', 'w'))"
expect 2 "3000000 runs" sweep "$TMP/sweep-3m.json" --list
python3 -c "
import json
k = ['test.compute', 'test.memory', 'test.cache', 'test.shmem', 'test.tiny', 'test.stream', 'AES-d', 'AES-e'] * 3
json.dump({'name': 'h', 'configs': ['warped-slicer'], 'combos': {'kernels': [k[:21]] * 8}}, open('$TMP/sweep-combos.json', 'w'))"
expect 2 "field 'combos.kernels'" sweep "$TMP/sweep-combos.json" --list
expect 2 "is not a Slurm time limit" sweep "$REPO/sim_top/sweeps/smoke.json" --backend slurm --dry-run --time 1:2:3:4 --out "$TMP/sweep-slurm"
mkdir -p "$TMP/sweep-foreign" && echo keep >"$TMP/sweep-foreign/results.csv"
expect 2 "was not made by gsim sweep" sweep "$REPO/sim_top/sweeps/smoke.json" --out "$TMP/sweep-foreign"
check "gsim sweep into a foreign directory leaves its results.csv" '[ "$(cat "$TMP/sweep-foreign/results.csv")" = keep ]'

summary
