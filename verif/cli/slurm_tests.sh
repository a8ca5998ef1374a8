#!/usr/bin/env bash
# gsched: tests of `gsim sweep --backend slurm` (CTest `slurm_tests`; docs/sweep.md, "Slurm").
#
# Usage: slurm_tests.sh path/to/gsim
# Part 1, always: the sbatch script of --dry-run (array range, %N, job name, output pattern,
# only the pending runs), the array task's --run-index, and the errors when sbatch is missing or
# refuses the script (a stand-in sbatch). Part 2, when this machine can: starts a single-node
# Slurm on localhost (slurmctld and slurmd of the Debian package slurm-wlm, auth/none or munge,
# everything under a temporary directory, ports of its own), runs the smoke sweep through it and
# checks its results and CSV against a local sweep's, a re-run (nothing submitted), Ctrl-C
# (the job cancelled), a killed sweep's job blocking its directory, a resume, a job cancelled
# with scancel (its unfinished runs are failures), and a failing
# run (exit 6, failures.txt with the task output); then stops the daemons it started.
# Part 2 is skipped (exit 77, "SKIPPED: reason") when not root, when the Slurm programs are
# missing or when the node is not idle within 30 s; part 1's failures still fail the test.
# Prints one line per check and "N passed, M failed".
set -euo pipefail

GSIM=${1:?usage: slurm_tests.sh path/to/gsim}
GSIM=$(cd "$(dirname "$GSIM")" && pwd)/$(basename "$GSIM")
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SWEEPS=$REPO/sim_top/sweeps
TMP=$(mktemp -d)
DAEMON_PIDS=()
cleanup() {
  local pid
  for pid in "${DAEMON_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${DAEMON_PIDS[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$TMP"
}
trap cleanup EXIT
cd "$TMP"

ERR=$TMP/stderr
OUTP=$TMP/stdout
source "$REPO/verif/cli/check_lib.sh"   # ok, bad, check, summary, results
sweep() {
  RC=0
  "$GSIM" sweep "$@" >"$OUTP" 2>"$ERR" || RC=$?
}

# ================================================================ part 1: no Slurm needed
sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --out dry --chunk 3 --array-max 2 --partition debug --time 00:10:00
S=$TMP/dry/slurm/sweep.sbatch
check "--dry-run exits 0 and prints the script and the sbatch command" \
  '[ "$RC" -eq 0 ] && [ "$(sed -n 1p "$OUTP")" = "$S" ] && [ "$(sed -n 2p "$OUTP")" = "sbatch --parsable $S" ]' "exit $RC"
check "script: 8 runs, 3 per task -> --array=0-2%2" 'grep -qx "#SBATCH --array=0-2%2" "$S"'
check "script: job name, output pattern, partition, time, directory" \
  'grep -qx "#SBATCH --job-name=gsim-sweep-smoke" "$S" && grep -qx "#SBATCH --output=$TMP/dry/slurm/%A_%a.out" "$S" &&
   grep -qx "#SBATCH --partition=debug" "$S" && grep -qx "#SBATCH --time=00:10:00" "$S" && grep -qx "#SBATCH --chdir=$TMP" "$S"'
check "script: the chunks of run indices" \
  '[ "$(sed -n "/^RUNS=(/,/^)/p" "$S" | tr -d " " | tr "\n" " ")" = "RUNS=( 0,1,2 3,4,5 6,7 ) " ]'
check "script: each task runs gsim sweep --run-index" \
  'grep -q "^exec $GSIM sweep $SWEEPS/smoke.json --out $TMP/dry --quiet --run-index \"\${RUNS\[\$SLURM_ARRAY_TASK_ID\]}\"$" "$S"'
check "--dry-run runs nothing" '[ "$(results dry)" -eq 0 ]'
sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --out dry
check "default chunking: one run per task, no %N" 'grep -qx "#SBATCH --array=0-7" "$S" && ! grep -q partition "$S"'

# more runs than Slurm's default MaxArraySize (1001): two runs per task keep the array within it
seeds=$(seq -s, 1 1001)
printf '{"name": "big", "configs": ["warped-slicer"], "mixes": ["test-pair"], "seeds": [%s]}\n' "$seeds" >big.json
sweep big.json --backend slurm --dry-run --out big
check "1001 runs: 2 per task, --array=0-500" \
  '[ "$RC" -eq 0 ] && grep -qx "#SBATCH --array=0-500" big/slurm/sweep.sbatch && sed -n "/^RUNS=(/,/^)/p" big/slurm/sweep.sbatch | grep -qx " *1000"' "exit $RC"

# only the pending runs go into the array
sweep "$SWEEPS/smoke.json" -j2 --out part
rm part/runs/warped-slicer__test-pair__even__drain__s1.json part/runs/warped-slicer__test-staggered__left-over__drain__s2.json
sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --out part
check "only pending runs: 2 tasks, runs 2 and 5" \
  'grep -qx "#SBATCH --array=0-1" part/slurm/sweep.sbatch && [ "$(sed -n "/^RUNS=(/,/^)/p" part/slurm/sweep.sbatch | tr -d " " | tr "\n" " ")" = "RUNS=( 2 5 ) " ]'
"$GSIM" sweep "$SWEEPS/smoke.json" --list >list.txt
check "run indices are --list order" \
  'sed -n 3p list.txt | grep -q "test-pair --policy even .* --seed 1" && sed -n 6p list.txt | grep -q "test-staggered --policy left-over .* --seed 2"'

# the array task: --run-index runs exactly those runs, writes results as the local backend does
sweep "$SWEEPS/smoke.json" --out part --run-index 2,5,0
check "--run-index runs the missing runs only" \
  '[ "$RC" -eq 0 ] && [ "$(results part)" -eq 8 ] && grep -q "\"inputs_fnv1a64\"" part/runs/warped-slicer__test-pair__even__drain__s1.json' "exit $RC"
sweep "$SWEEPS/smoke.json" --out part --run-index 8
check "--run-index out of range: exit 2" '[ "$RC" -eq 2 ] && grep -q "run-index: \"8\" is not a run" "$ERR"' "exit $RC"

# errors
RC=0
PATH=/nonexistent "$GSIM" sweep "$SWEEPS/smoke.json" --backend slurm --out nosbatch >"$OUTP" 2>"$ERR" || RC=$?
check "no sbatch on PATH: exit 2" '[ "$RC" -eq 2 ] && grep -q "sbatch is not on PATH" "$ERR"' "exit $RC"
mkdir -p fakebin
printf '#!/bin/sh\necho "sbatch: error: invalid partition specified: nosuch" >&2\nexit 1\n' >fakebin/sbatch
chmod +x fakebin/sbatch
RC=0
PATH=$TMP/fakebin:$PATH "$GSIM" sweep "$SWEEPS/smoke.json" --backend slurm --out refused >"$OUTP" 2>"$ERR" || RC=$?
check "sbatch refuses: exit 2 with its stderr" \
  '[ "$RC" -eq 2 ] && grep -q "sbatch refused .*sweep.sbatch (exit 1)" "$ERR" && grep -q "invalid partition specified: nosuch" "$ERR"' "exit $RC"
sweep "$SWEEPS/smoke.json" --partition debug --out local
check "Slurm options without --backend slurm: exit 2" '[ "$RC" -eq 2 ] && grep -q "only with --backend slurm" "$ERR"' "exit $RC"
sweep "$SWEEPS/smoke.json" --backend slurm --dry-run --time "1 day" --out badtime
check "a --time with blanks: exit 2" '[ "$RC" -eq 2 ] && grep -q "not a Slurm time limit" "$ERR"' "exit $RC"

# ================================================================ part 2: a single-node Slurm on localhost
skip() {
  echo "SKIPPED: $1 (part 2, a real single-node Slurm)"
  summary || exit 1
  exit 77
}
[ "$(id -u)" -eq 0 ] || skip "not root"
for prog in slurmctld slurmd sbatch squeue sinfo; do
  command -v "$prog" >/dev/null || skip "$prog not found (Debian: apt-get install slurm-wlm)"
done
PLUGINS=$(dirname "$(find /usr/lib* -name auth_none.so -path '*slurm*' 2>/dev/null | head -1)" 2>/dev/null || true)
SL=$TMP/slurm
mkdir -p "$SL/spool" "$SL/state" "$SL/log"
if [ -n "$PLUGINS" ] && [ -f "$PLUGINS/cred_none.so" ]; then
  AUTH="AuthType=auth/none
CredType=cred/none"
elif command -v munged >/dev/null; then
  # munge with a key and a socket of its own; slurm.conf names the socket (AuthInfo)
  dd if=/dev/urandom of="$SL/munge.key" bs=1024 count=1 2>/dev/null
  chmod 400 "$SL/munge.key"
  munged -F --force --socket="$SL/munge.socket" --key-file="$SL/munge.key" --pid-file="$SL/munged.pid" \
    --log-file="$SL/log/munged.log" --seed-file="$SL/munged.seed" >"$SL/log/munged.out" 2>&1 &
  DAEMON_PIDS+=($!)
  AUTH="AuthType=auth/munge
AuthInfo=socket=$SL/munge.socket"
else
  skip "neither the auth/none plugin nor munged found"
fi
PORT=$((20000 + RANDOM % 20000))
cat >"$SL/slurm.conf" <<EOF
ClusterName=gsimtest
SlurmctldHost=localhost
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmUser=root
SlurmdUser=root
$AUTH
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
StateSaveLocation=$SL/state
SlurmdSpoolDir=$SL/spool
SlurmctldPidFile=$SL/slurmctld.pid
SlurmdPidFile=$SL/slurmd.pid
SlurmctldLogFile=$SL/log/slurmctld.log
SlurmdLogFile=$SL/log/slurmd.log
MinJobAge=30
NodeName=localhost CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$SL/slurm.conf
slurmctld -D -i >"$SL/log/slurmctld.out" 2>&1 &
DAEMON_PIDS+=($!)
slurmd -D -N localhost >"$SL/log/slurmd.out" 2>&1 &
DAEMON_PIDS+=($!)
up=0
for _ in $(seq 60); do
  if sinfo -h -n localhost -o %t 2>/dev/null | grep -qx idle; then up=1; break; fi
  sleep 0.5
done
if [ "$up" -ne 1 ]; then
  echo "slurm logs:"; tail -n 5 "$SL"/log/* 2>/dev/null || true
  skip "the single-node Slurm did not come up within 30 s"
fi
ok "single-node Slurm up (SLURM_CONF=$SL/slurm.conf)"

sweep "$SWEEPS/smoke.json" -j2 --out local
sweep "$SWEEPS/smoke.json" --backend slurm --out viaslurm
check "slurm sweep exits 0" '[ "$RC" -eq 0 ]' "exit $RC"
check "slurm sweep: 8 results" '[ "$(results viaslurm)" -eq 8 ]' "got $(results viaslurm)"
check "slurm sweep: reported the job and its progress" 'grep -q "in Slurm job [0-9]* (8 array tasks)" "$ERR" && grep -q "8/8 done" "$ERR"'
check "slurm sweep: results.csv equal to the local sweep's" 'cmp -s local/results.csv viaslurm/results.csv && [ "$(wc -l <viaslurm/results.csv)" -eq 21 ]'
check "slurm sweep: a result equal to the local one" \
  'cmp -s local/runs/warped-slicer__test-staggered__even__drain__s2.json viaslurm/runs/warped-slicer__test-staggered__even__drain__s2.json'
check "slurm sweep: the task outputs are in slurm/" '[ "$(ls viaslurm/slurm/*_*.out | wc -l)" -eq 8 ] && [ ! -e viaslurm/slurm/job_id ]'
sweep "$SWEEPS/smoke.json" --backend slurm --out viaslurm
check "resume: nothing left, nothing submitted" '[ "$RC" -eq 0 ] && grep -q "nothing to submit" "$ERR"' "exit $RC"

# Ctrl-C of the waiting gsim cancels the job; a job whose waiting gsim was killed blocks a new
# sweep into the same directory until it ends; then the same command resumes.
wait_for() {   # CONDITION SECONDS
  local i
  for i in $(seq $(($2 * 10))); do eval "$1" && return 0; sleep 0.1; done
  return 1
}
queue_empty() { [ -z "$(squeue -h -j "$1" -o %i 2>/dev/null)" ]; }
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" --backend slurm --chunk 3 --array-max 1 --out ppq 2>"$ERR" &
pid=$!
wait_for '[ -f ppq/slurm/job_id ] && [ "$(results ppq)" -ge 1 ]' 60 || true
job=$(cat ppq/slurm/job_id 2>/dev/null || echo none)
kill -INT "$pid"
RC=0
wait "$pid" || RC=$?
check "Ctrl-C while waiting: exit 130, the job cancelled" \
  '[ "$RC" -eq 130 ] && grep -q "Slurm job $job cancelled (scancel $job)" "$ERR" && wait_for "queue_empty $job" 20 &&
   [ ! -e ppq/slurm/job_id ]' "exit $RC, job $job"
partial=$(results ppq)
check "Ctrl-C: some but not all results" '[ "$partial" -ge 1 ] && [ "$partial" -lt 12 ]' "$partial results"
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" --backend slurm --chunk 3 --array-max 1 --out ppq 2>"$ERR" &
pid=$!
wait_for '[ -f ppq/slurm/job_id ]' 30 || true
job=$(cat ppq/slurm/job_id 2>/dev/null || echo none)
{ kill -KILL "$pid" && wait "$pid"; } 2>/dev/null || true
sweep "$SWEEPS/ppq-k20c.json" --backend slurm --out ppq
check "the job of a killed sweep still queued: a new sweep into its directory is exit 2" \
  '[ "$RC" -eq 2 ] && grep -q "Slurm job $job of an earlier sweep into this directory is still queued or running" "$ERR"' "exit $RC"
scancel "$job" 2>/dev/null || true
wait_for "queue_empty $job" 20 || true
partial=$(results ppq)
sweep "$SWEEPS/ppq-k20c.json" --backend slurm --chunk 4 --out ppq
check "resume under Slurm runs exactly the missing runs" \
  '[ "$RC" -eq 0 ] && [ "$(results ppq)" -eq 12 ] && grep -q "$((12 - partial)) ran, $partial already done, 0 failed" "$ERR"' "exit $RC, $partial before"
check "resume under Slurm: 24 CSV rows, no temporaries" \
  '[ "$(tail -n +2 ppq/results.csv | wc -l)" -eq 24 ] && [ -z "$(find ppq/runs -name ".*" -type f)" ]'

# a job cancelled from elsewhere: the waiting gsim collects, the unfinished runs are failures
"$GSIM" sweep "$SWEEPS/ppq-k20c.json" --backend slurm --array-max 1 --out cancelled 2>"$ERR" &
pid=$!
wait_for '[ -f cancelled/slurm/job_id ] && [ "$(results cancelled)" -ge 1 ]' 60 || true
job=$(cat cancelled/slurm/job_id 2>/dev/null || echo none)
scancel "$job" 2>/dev/null || true
RC=0
wait "$pid" || RC=$?
done_runs=$(results cancelled)
check "scancel JOBID: exit 6, the unfinished runs listed in failures.txt" \
  '[ "$RC" -eq 6 ] && [ "$done_runs" -lt 12 ] && [ "$(grep -c "^run .*: no result after Slurm job $job ended" cancelled/failures.txt)" -eq $((12 - done_runs)) ]' \
  "exit $RC, $done_runs results"

cat >short.json <<'EOF'
{"name": "short", "config": "warped-slicer", "kernels": [{"kernel": "test.compute", "arrival_cycle": 0}]}
EOF
cat >failing.json <<EOF
{"name": "failing", "configs": ["warped-slicer"], "mixes": ["$TMP/short.json", "test-pair"], "max_cycles": 10000}
EOF
sweep failing.json --backend slurm --chunk 2 --out failing
check "a failing run under Slurm: exit 6" '[ "$RC" -eq 6 ]' "exit $RC"
check "failing: the other run has its result" '[ "$(results failing)" -eq 1 ]'
check "failing: failures.txt names the job, the command and the task output" \
  'grep -q "run warped-slicer__test-pair__left-over__drain__s1: no result after Slurm job [0-9]* ended (array task 0" failing/failures.txt &&
   grep -q "command: .* --max-cycles 10000" failing/failures.txt && grep -q "gsim: error: .*10000" failing/failures.txt'

summary
