#!/usr/bin/env bash
# gsched: end-to-end tests of the gsim command line (CTest `cli_tests`).
#
# Usage: run_cli_tests.sh path/to/gsim
# Checks exit codes (docs/cli.md), error messages naming the bad input, output files and
# their schema, and byte-for-byte determinism of a run. Prints one line per check and
# "N passed, M failed" at the end; exits non-zero if any check failed.
set -euo pipefail

GSIM=${1:?usage: run_cli_tests.sh path/to/gsim}
GSIM=$(cd "$(dirname "$GSIM")" && pwd)/$(basename "$GSIM")
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
DATA=${GSCHED_DATA_DIR:-$REPO/sim_top}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

OUT=$TMP/stdout
ERR=$TMP/stderr
source "$REPO/verif/cli/check_lib.sh"   # ok, bad, check, summary

# Runs gsim with the given arguments; sets RC and leaves stdout/stderr in $OUT/$ERR.
gsim() {
  RC=0
  "$GSIM" "$@" >"$OUT" 2>"$ERR" || RC=$?
}

# expect_fail NAME CODE TEXT ARGS...: exit code CODE and TEXT somewhere in stderr.
expect_fail() {
  local name=$1 code=$2 text=$3
  shift 3
  gsim "$@"
  if [ "$RC" -ne "$code" ]; then
    bad "$name" "expected exit $code, got $RC"
  elif ! grep -qF -- "$text" "$ERR"; then
    bad "$name" "stderr does not mention '$text'"
  else
    ok "$name"
  fi
}

# expect_ok NAME ARGS...: exit 0.
expect_ok() {
  local name=$1
  shift
  gsim "$@"
  if [ "$RC" -eq 0 ]; then ok "$name"; else bad "$name" "exit $RC"; fi
}

# ---------------------------------------------------------------- help
expect_ok "gsim --help" --help
grep -q "run" "$OUT" && grep -q "occupancy" "$OUT" && ok "top-level help lists subcommands" ||
  bad "top-level help lists subcommands"
for sub in run occupancy list bench unit sweep profile; do
  gsim "$sub" --help
  if [ "$RC" -eq 0 ] && grep -qi "usage" "$OUT"; then ok "gsim $sub --help"; else bad "gsim $sub --help" "exit $RC"; fi
done
gsim
if [ "$RC" -eq 0 ] && grep -q "^  run " "$OUT" && grep -q "^  unit " "$OUT"; then ok "gsim alone lists the subcommands"; else bad "gsim alone lists the subcommands" "exit $RC"; fi
gsim --version
if [ "$RC" -eq 0 ] && grep -q "^gsim [0-9]" "$OUT"; then ok "gsim --version"; else bad "gsim --version" "exit $RC"; fi
expect_fail "unknown subcommand is a usage error" 2 "frobnicate" frobnicate

# ---------------------------------------------------------------- list
for what in configs kernels mixes policies schedulers; do
  gsim list "$what"
  if [ "$RC" -ne 0 ] || ! grep -q "^[^[:space:]]\+  [^[:space:]]" "$OUT"; then
    bad "list $what: a description per entry" "exit $RC"
  else
    ok "list $what: a description per entry"
  fi
  gsim list "$what" --names
  if [ "$RC" -ne 0 ]; then
    bad "list $what" "exit $RC"
  elif [ ! -s "$OUT" ]; then
    bad "list $what" "empty output"
  elif grep -qv '^[^[:space:]]\+$' "$OUT"; then
    bad "list $what" "a line is empty or holds whitespace"
  else
    ok "list $what ($(wc -l <"$OUT") names)"
  fi
  cp "$OUT" "$TMP/list_$what"
done
grep -qx "warped-slicer" "$TMP/list_configs" && ok "configs include warped-slicer" || bad "configs include warped-slicer"
grep -qx "default" "$TMP/list_mixes" && ok "mixes include default" || bad "mixes include default"
grep -qx "left-over" "$TMP/list_policies" && ok "policies include left-over" || bad "policies include left-over"
grep -qx "golden" "$TMP/list_schedulers" && ok "schedulers include golden" || bad "schedulers include golden"
expect_fail "list of an unknown category" 2 "bogus" list bogus

KERNEL=$(head -n1 "$TMP/list_kernels")
# The smallest shipped test mix keeps the run checks fast; the README's default mix otherwise.
MIX=default
grep -qx "test-pair" "$TMP/list_mixes" && MIX=test-pair
RUNARGS=(run --config warped-slicer --mix "$MIX" --scheduler golden)

# ---------------------------------------------------------------- bad names -> exit 2 naming them
expect_fail "unknown config" 2 "no-such-config" run --config no-such-config --mix "$MIX"
grep -q "^gsim: error: " "$ERR" && ok "errors are prefixed 'gsim: error:'" || bad "errors are prefixed 'gsim: error:'"
expect_fail "unknown mix" 2 "no-such-mix" run --config warped-slicer --mix no-such-mix
expect_fail "unknown policy" 2 "no-such-policy" "${RUNARGS[@]}" --policy no-such-policy
expect_fail "unknown scheduler" 2 "no-such-sched" run --config warped-slicer --mix "$MIX" --scheduler no-such-sched
expect_fail "unknown preemption mode" 2 "sideways" "${RUNARGS[@]}" --preempt sideways
expect_fail "unknown kernel" 2 "no-such-kernel" occupancy --config warped-slicer --kernel no-such-kernel
expect_fail "occupancy unknown config" 2 "no-such-config" occupancy --config no-such-config --kernel "$KERNEL"
expect_fail "profile: unknown kernel" 2 "no-such-kernel" profile --config warped-slicer --kernel no-such-kernel
expect_fail "profile: unknown suite" 2 "no such suite" profile --config warped-slicer --kernels no-such-suite
expect_fail "profile: --kernel and --kernels together" 2 "not both" profile --config warped-slicer --kernel "$KERNEL" --kernels test
expect_fail "profile: neither --kernel nor --kernels" 2 "--kernel" profile --config warped-slicer
expect_fail "profile: a kernel that fits no SM" 2 "test.hugeshmem" profile --config warped-slicer --kernel test.hugeshmem
expect_fail "profile: --max-ctas 0" 2 "--max-ctas" profile --config warped-slicer --kernel "$KERNEL" --max-ctas 0
expect_fail "profile: --sample 0" 2 "--sample" profile --config warped-slicer --kernel "$KERNEL" --sample 0
expect_fail "profile: unwritable --out" 2 "$TMP/no/such/dir/p.csv" profile --config warped-slicer --kernel "$KERNEL" --out "$TMP/no/such/dir/p"
expect_fail "missing required option" 2 "--mix" run --config warped-slicer
expect_fail "non-numeric seed" 2 "--seed" "${RUNARGS[@]}" --seed banana

# ---------------------------------------------------------------- malformed files -> exit 2 naming the file
printf '{"name": "broken", "sm_types": [\n' >"$TMP/broken_config.json"
expect_fail "malformed JSON config (run)" 2 "broken_config.json" run --config "$TMP/broken_config.json" --mix "$MIX"
expect_fail "malformed JSON config (occupancy)" 2 "broken_config.json" occupancy --config "$TMP/broken_config.json" --kernel "$KERNEL"
printf '{"name": "broken-mix", "kernels": [ {"kernel": ' >"$TMP/broken_mix.json"
expect_fail "malformed JSON mix" 2 "broken_mix.json" run --config warped-slicer --mix "$TMP/broken_mix.json"
expect_fail "unwritable --json path" 2 "$TMP/no/such/dir/out.json" "${RUNARGS[@]}" --json "$TMP/no/such/dir/out.json"
expect_fail "unwritable --counters path" 2 "--counters $TMP/no/such/dir/c.csv" "${RUNARGS[@]}" --counters "$TMP/no/such/dir/c.csv"
expect_fail "--counters onto a directory" 2 "--counters" "${RUNARGS[@]}" --counters "$TMP"
expect_fail "--counters and --csv on one file" 2 "--counters" "${RUNARGS[@]}" --csv "$TMP/same.csv" --counters "$TMP/same.csv"

# ---------------------------------------------------------------- occupancy
expect_ok "occupancy of a shipped kernel" occupancy --config warped-slicer --kernel "$KERNEL"
grep -q "max_ctas" "$OUT" && grep -q "limiter" "$OUT" && ok "occupancy prints max_ctas and limiter" ||
  bad "occupancy prints max_ctas and limiter"
# A copy of the Warped-Slicer config whose SMs have a 256-register file: no CTA of a real kernel fits.
python3 - "$DATA/configs/warped-slicer.json" "$TMP/tiny_regs.json" <<'EOF'
import json, sys
cfg = json.load(open(sys.argv[1]))
cfg["name"] = "tiny-regs"
for t in cfg["sm_types"]:
    t["registers"] = 256
json.dump(cfg, open(sys.argv[2], "w"), indent=1)
EOF
expect_fail "occupancy of a kernel that cannot fit" 2 "registers" occupancy --config "$TMP/tiny_regs.json" --kernel "$KERNEL"
if grep -qx "test.hugeshmem" "$TMP/list_kernels"; then
  expect_fail "occupancy of the oversized test kernel" 2 "shared memory" occupancy --config warped-slicer --kernel test.hugeshmem
fi

# ---------------------------------------------------------------- unit
echo '{}' >"$TMP/unit_in.json"
expect_fail "unit of an unknown block" 2 "no-such-block" unit no-such-block --input "$TMP/unit_in.json"

# The shipped DSS vectors: a build with unit runners answers JSON ("golden"; an RTL build also
# "rtl" equal to it and "match": true), one without says so (exit 2).
UNIT_SHAPE='import json,sys
d = json.load(open(sys.argv[1]))
assert d["block"] == "dss" and d["golden"]["actions"]
assert "rtl" not in d or (d["match"] is True and d["rtl"] == d["golden"])'
for VECTOR in "$REPO"/verif/vectors/dss_*.json; do
  [ -f "$VECTOR" ] || continue
  name=$(basename "$VECTOR")
  gsim unit dss --input "$VECTOR"
  if [ "$RC" -eq 0 ] && python3 -c "$UNIT_SHAPE" "$OUT"; then
    ok "unit dss on $name"
  elif [ "$RC" -eq 2 ] && grep -q "no unit blocks in this build" "$ERR"; then
    ok "unit dss: this build has no unit blocks (exit 2)"
  else
    bad "unit dss on $name" "exit $RC"
  fi
done

# The shipped water-filling vectors (docs/rtl/gs_waterfill.md): the documented shape, RTL equal
# to golden in an RTL build; then malformed inputs, each refused with exit 2 naming the field.
WF_SHAPE='import json,sys
d = json.load(open(sys.argv[1]))
g = d["golden"]
assert d["block"] == "waterfill" and set(g) == {"ctas", "spatial", "cycles"}
assert len(g["ctas"]) == len(json.load(open(sys.argv[2]))["kernels"]) and isinstance(g["spatial"], bool) and g["cycles"] > 32
assert "rtl" not in d or (d["match"] is True and d["rtl"] == g)'
for VECTOR in "$REPO"/verif/vectors/waterfill_*.json; do
  name=$(basename "$VECTOR")
  gsim unit waterfill --input "$VECTOR"
  if [ "$RC" -eq 0 ] && python3 -c "$WF_SHAPE" "$OUT" "$VECTOR"; then ok "unit waterfill on $name"; else bad "unit waterfill on $name" "exit $RC"; fi
done
gsim unit waterfill --input "$REPO/verif/vectors/waterfill_spatial.json"
grep -q '"spatial": true' "$OUT" && ok "unit waterfill: waterfill_spatial.json falls back to spatial" ||
  bad "unit waterfill: waterfill_spatial.json falls back to spatial"
WF_RES='"resources": {"threads": 2048, "warps": 64, "regs": 65536, "smem": 98304, "slots": 32}'
WF_CTA='"cta": {"threads": 256, "warps": 8, "regs": 8192, "smem": 0, "slots": 1}'
wf_bad() {   # wf_bad NAME TEXT KERNELS-JSON [RESOURCES-JSON]
  printf '{%s, "kernels": %s}\n' "${4:-$WF_RES}" "$3" >"$TMP/wf_bad.json"
  expect_fail "unit waterfill: $1" 2 "$2" unit waterfill --input "$TMP/wf_bad.json"
  grep -qF "wf_bad.json" "$ERR" || bad "unit waterfill: $1 names the file"
}
# gsim unit sbm: SBM's profiling flow on given IPCs, golden and RTL side by side
SBM_SHAPE='import json, sys
d = json.load(open(sys.argv[1]))
g = d["golden"]
assert d["block"] == "sbm" and set(g) == {"phases", "sbm_reg", "cycles"}
assert g["sbm_reg"]["config"] == sys.argv[2] and g["sbm_reg"]["occ_th"] == int(sys.argv[3]), g["sbm_reg"]
assert len(g["phases"]) == int(sys.argv[4]) and g["phases"][0]["phase"] == "Base"
assert "rtl" not in d or (d["match"] is True and d["rtl"] == g)'
gsim unit sbm --input "$REPO/verif/vectors/sbm_fw_mm.json"
if [ "$RC" -eq 0 ] && python3 -c "$SBM_SHAPE" "$OUT" MWGB2 1 8; then ok "unit sbm on sbm_fw_mm.json: MWGB2 occ_th 1"; else bad "unit sbm on sbm_fw_mm.json" "exit $RC"; fi
gsim unit sbm --input "$REPO/verif/vectors/sbm_fw_sf.json"
if [ "$RC" -eq 0 ] && python3 -c "$SBM_SHAPE" "$OUT" MWG 2 9; then ok "unit sbm on sbm_fw_sf.json: MWG occ_th 2"; else bad "unit sbm on sbm_fw_sf.json" "exit $RC"; fi
printf '{"occupancy": [8, 8], "ipc": {"Base": [1, 1], "B1_L12": [1, 1], "B2_L12": [1, 1], "B1_L2": [1, 1], "B2_L2": [1, 1]}}\n' >"$TMP/sbm_bad.json"
expect_fail "unit sbm: a phase the flow runs and the input lacks" 2 "ipc.MWG[0]" unit sbm --input "$TMP/sbm_bad.json"
printf '{"occupancy": [8], "ipc": {}}\n' >"$TMP/sbm_bad.json"
expect_fail "unit sbm: occupancy of one task" 2 "occupancy" unit sbm --input "$TMP/sbm_bad.json"
printf '{"occupancy": [8, 8], "ipc": {"Base": [1, -1]}}\n' >"$TMP/sbm_bad.json"
expect_fail "unit sbm: a negative IPC" 2 "ipc.Base" unit sbm --input "$TMP/sbm_bad.json"
printf '{"occupancy": [8, 8], "ipc": {"B3_L2": [1, 1]}}\n' >"$TMP/sbm_bad.json"
expect_fail "unit sbm: an unknown configuration" 2 "ipc.B3_L2" unit sbm --input "$TMP/sbm_bad.json"
# gsim unit hetero: HeteroCore's mapping decision on given IPCs and CTA counts, golden and RTL
HC_SHAPE='import json, sys
d = json.load(open(sys.argv[1]))
g = d["golden"]
assert d["block"] == "hetero" and set(g) == {"kernels", "mapping", "decision_cycles"}
assert [k["sms"] for k in g["kernels"]] == sys.argv[2].split(","), g
assert "rtl" not in d or (d["match"] is True and d["rtl"] == g)'
gsim unit hetero --input "$REPO/verif/vectors/hetero_thick_lean.json"
if [ "$RC" -eq 0 ] && python3 -c "$HC_SHAPE" "$OUT" big,small; then ok "unit hetero on hetero_thick_lean.json: the thick kernel on the big SMs"; else bad "unit hetero on hetero_thick_lean.json" "exit $RC"; fi
gsim unit hetero --input "$REPO/verif/vectors/hetero_3t1l.json"
if [ "$RC" -eq 0 ] && python3 -c "$HC_SHAPE" "$OUT" big,small,big,small; then ok "unit hetero on hetero_3t1l.json: the two largest gains on the big SMs"; else bad "unit hetero on hetero_3t1l.json" "exit $RC"; fi
printf '{"kernels": [{"ipc_big": 1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1}]}\n' >"$TMP/hc_bad.json"
expect_fail "unit hetero: a kernel without its conventional-SM CTA count" 2 "kernels[0].ctas_base" unit hetero --input "$TMP/hc_bad.json"
printf '{"kernels": [{"ipc_big": -1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1, "ctas_base": 2}]}\n' >"$TMP/hc_bad.json"
expect_fail "unit hetero: a negative IPC" 2 "kernels[0].ipc_big" unit hetero --input "$TMP/hc_bad.json"
printf '{"sms_big": 0, "kernels": []}\n' >"$TMP/hc_bad.json"
expect_fail "unit hetero: no SMs of a type" 2 "sms_big" unit hetero --input "$TMP/hc_bad.json"
printf '{"kernels": [{"ipc_big": 1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1, "ctas_base": 2}, {"ipc_big": 1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1, "ctas_base": 2}, {"ipc_big": 1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1, "ctas_base": 2}, {"ipc_big": 1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1, "ctas_base": 2}, {"ipc_big": 1, "ipc_small": 1, "ctas_big": 3, "ctas_small": 1, "ctas_base": 2}]}\n' >"$TMP/hc_bad.json"
expect_fail "unit hetero: more kernels than HcMaxKernels" 2 "kernels" unit hetero --input "$TMP/hc_bad.json"
N33=$(python3 -c 'print(list(range(1, 34)))')
wf_bad "N = 0" "kernels[0].perf" "[{$WF_CTA, \"perf\": []}]"
wf_bad "N above WfMaxSteps" "kernels[1].perf" "[{$WF_CTA, \"perf\": [1]}, {$WF_CTA, \"perf\": $N33}]"
wf_bad "K above WfMaxKernels" "kernels" "[$(for i in 1 2 3 4 5; do printf '{%s, "perf": [1]},' "$WF_CTA"; done | sed 's/,$//')]"
wf_bad "no kernels" "kernels" "[]"
wf_bad "a CTA that does not fit alone" "kernels[0].cta.smem" \
  "[{\"cta\": {\"threads\": 32, \"warps\": 1, \"regs\": 0, \"smem\": 99999, \"slots\": 1}, \"perf\": [1]}]"
wf_bad "a missing CTA field" "kernels[0].cta.slots" "[{\"cta\": {\"threads\": 32, \"warps\": 1, \"regs\": 0, \"smem\": 0}, \"perf\": [1]}]"
wf_bad "a missing resource" "resources.warps" "[{$WF_CTA, \"perf\": [1]}]" '"resources": {"threads": 2048, "regs": 65536, "smem": 98304, "slots": 32}'
wf_bad "a negative resource" "resources.threads" "[{$WF_CTA, \"perf\": [1]}]" '"resources": {"threads": -1, "warps": 64, "regs": 65536, "smem": 98304, "slots": 32}'
wf_bad "a negative performance value" "kernels[0].perf[1]" "[{$WF_CTA, \"perf\": [1, -2]}]"
wf_bad "a performance value too wide" "kernels[0].perf[0]" "[{$WF_CTA, \"perf\": [1048576]}]"
wf_bad "missing perf" "kernels[0].perf" "[{$WF_CTA}]"

# ---------------------------------------------------------------- run: outputs, schema, determinism
gsim "${RUNARGS[@]}" --seed 3 --json "$TMP/a.json" --csv "$TMP/a.csv" --counters "$TMP/a_counters.csv"
if [ "$RC" -eq 0 ]; then ok "run $MIX (golden)"; else bad "run $MIX (golden)" "exit $RC"; fi
cp "$OUT" "$TMP/a.txt"
for word in STP ANTT StrictF NTT cycles_alone cycles_shared L1_hit% DRAM_%peak preempted_drain/switch row-buffer; do
  grep -q "$word" "$TMP/a.txt" && ok "table shows $word" || bad "table shows $word"
done
gsim "${RUNARGS[@]}" --seed 3 --json "$TMP/b.json" --csv "$TMP/b.csv" --counters "$TMP/b_counters.csv"
cmp -s "$TMP/a.json" "$TMP/b.json" && ok "same seed, same JSON bytes" || bad "same seed, same JSON bytes"
cmp -s "$TMP/a_counters.csv" "$TMP/b_counters.csv" && ok "same seed, same --counters bytes" ||
  bad "same seed, same --counters bytes"
cmp -s "$TMP/a.csv" "$TMP/b.csv" && ok "same seed, same CSV bytes" || bad "same seed, same CSV bytes"
cmp -s "$TMP/a.txt" "$OUT" && ok "same seed, same table bytes" || bad "same seed, same table bytes"

if python3 - "$TMP/a.json" "$TMP/a.csv" <<'EOF'; then ok "JSON and CSV hold the documented fields"; else bad "JSON and CSV hold the documented fields"; fi
import csv, json, math, sys
j = json.load(open(sys.argv[1]))
top = ["config", "mix", "policy", "seed", "cycles", "stp", "antt", "strictf", "kernels"]
missing = [k for k in top if k not in j]
assert not missing, f"missing keys {missing}"
assert j["seed"] == 3 and j["policy"] == "left-over" and j["config"] == "warped-slicer"
assert isinstance(j["kernels"], list) and j["kernels"], "no kernels"
assert j["gsim_version"].startswith("gsim ")
for k in j["kernels"]:
    for key in ["name", "arrival_cycle", "priority", "instructions", "ipc", "cycles_alone", "cycles_shared", "ntt"]:
        assert key in k, f"kernel lacks {key}"
    assert k["cycles_alone"] > 0 and k["cycles_shared"] > 0 and k["instructions"] > 0
    assert math.isclose(k["ntt"], k["cycles_shared"] / k["cycles_alone"], rel_tol=1e-5), k
    assert k["cycles_shared"] <= j["cycles"]
ntts = [k["ntt"] for k in j["kernels"]]
assert math.isclose(j["antt"], sum(ntts) / len(ntts), rel_tol=1e-5)
assert math.isclose(j["stp"], sum(1 / n for n in ntts), rel_tol=1e-5)
assert math.isclose(j["strictf"], min(ntts) / max(ntts), rel_tol=1e-5)
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(j["kernels"]), "CSV rows != kernels"
assert [r["kernel"] for r in rows] == [k["name"] for k in j["kernels"]]
assert all(int(r["cycles_shared"]) == k["cycles_shared"] for r, k in zip(rows, j["kernels"]))
EOF

# The counters: the JSON object and the --counters CSV (docs/cli.md, "Counters CSV").
if python3 - "$TMP/a.json" "$TMP/a_counters.csv" "$REPO/docs/cli.md" <<'EOF'; then ok "counters in JSON and --counters CSV as documented"; else bad "counters in JSON and --counters CSV as documented"; fi
import csv, json, re, sys
j = json.load(open(sys.argv[1]))
c = j["counters"]
assert list(c) == ["dram", "gpu", "kernels"], list(c)
assert list(j)[-2:] == ["counters", "gsim_version"], list(j)
d = c["dram"]
assert d["bytes"] == sum(d["channel_bytes"]) and len(d["channel_bytes"]) == d["channels"]
assert 0 < d["bandwidth_share"] <= 1 and 0 <= d["row_buffer_hit_rate"] <= 1
group_keys = ["sms", "instructions", "thread_instructions", "cycles", "ipc", "thread_ipc", "active_sm_cycles", "ipc_per_active_sm", "l1_accesses",
              "l1_hits", "l1_hit_rate", "l2_accesses", "l2_hits", "l2_hit_rate", "dram_bytes", "dram_share_of_peak",
              "stall_cycles", "stall_shares", "ctas_started", "ctas_finished", "ctas_preempted_drain",
              "ctas_preempted_switch", "switch_fallbacks", "context_bytes", "context_cycles"]
assert list(c["gpu"]) == group_keys, list(c["gpu"])
assert [k["name"] for k in c["kernels"]] == [k["name"] for k in j["kernels"]]
for kc, k in zip(c["kernels"], j["kernels"]):
    assert kc["all"]["instructions"] == k["instructions"] and abs(kc["all"]["ipc"] - k["ipc"]) < 1e-5
    for g in [kc["all"]] + kc["sm_types"]:
        assert g["l1_hits"] <= g["l1_accesses"] and g["l2_hits"] <= g["l2_accesses"]
        if sum(g["stall_cycles"].values()):
            assert abs(sum(g["stall_shares"].values()) - 1) < 1e-5
    assert sum(t["instructions"] for t in kc["sm_types"]) == kc["all"]["instructions"]
    # thread IPC: every warp instruction carries 1..32 threads (docs/metrics.md, "Counters")
    a = kc["all"]
    assert a["instructions"] <= a["thread_instructions"] <= 32 * a["instructions"], a
    assert a["thread_instructions"] > a["instructions"], "a kernel of more than one thread per warp"
    assert abs(a["thread_ipc"] - a["thread_instructions"] / a["cycles"]) < 1e-5, a
# The documented header, verbatim.
doc = open(sys.argv[3]).read()
header = re.search(r"### Counters CSV.*?```\n(config,[^\n]*)\n```", doc, re.S).group(1)
lines = open(sys.argv[2]).read().splitlines()
assert lines[0] == header, "header differs from docs/cli.md"
rows = list(csv.DictReader(lines))
types = len(c["kernels"][0]["sm_types"])
assert len(rows) == len(c["kernels"]) * (types + 1) + 1, len(rows)
assert all(len(r) == len(header.split(",")) and None not in r for r in rows)
last = rows[-1]
assert last["kernel"] == "all" and last["sm_type"] == "all"
assert int(last["dram_bytes"]) == d["bytes"] and abs(float(last["row_buffer_hit_rate"]) - d["row_buffer_hit_rate"]) < 1e-6
for r, kc in zip([r for r in rows if r["sm_type"] == "all"][:-1], c["kernels"]):
    assert r["kernel"] == kc["name"] and int(r["instructions"]) == kc["all"]["instructions"]
EOF

# A switch-preemption run reports saved CTAs and context bytes; a drain run only drained CTAs.
gsim run --config tanasic-k20c --mix ppq-priority --policy ppq-excl --preempt switch --scheduler golden --json "$TMP/sw.json"
sw_rc=$RC
gsim run --config tanasic-k20c --mix ppq-priority --policy ppq-excl --preempt drain --scheduler golden --json "$TMP/dr.json"
if [ "$sw_rc" -eq 0 ] && [ "$RC" -eq 0 ] && python3 - "$TMP/sw.json" "$TMP/dr.json" <<'EOF'; then ok "counters: switch vs drain preemption"; else bad "counters: switch vs drain preemption" "exit $sw_rc/$RC"; fi
import json, sys
sw = json.load(open(sys.argv[1]))["counters"]["gpu"]
dr = json.load(open(sys.argv[2]))["counters"]["gpu"]
assert sw["ctas_preempted_switch"] > 0 and sw["context_bytes"]["save"] > 0 and sw["context_cycles"]["save"] > 0, sw
assert sw["switch_fallbacks"] == 0 and sw["ctas_preempted_drain"] == 0, sw   # the PTBQ holds every saved CTA
assert dr["ctas_preempted_drain"] > 0 and dr["ctas_preempted_switch"] == 0 and dr["context_bytes"]["save"] == 0, dr
EOF

# --threads: the SM ticks of a cycle on several threads give the same bytes as one thread, also
# with context switches (the context engines run in each SM's part of the memory tick).
gsim run --config tanasic-k20c --mix ppq-priority --policy ppq-excl --preempt switch --scheduler golden --threads 2 \
  --json "$TMP/sw2.json"
if [ "$RC" -eq 0 ] && cmp -s "$TMP/sw.json" "$TMP/sw2.json"; then ok "--threads 2: switch run, same JSON bytes"; else
  bad "--threads 2: switch run, same JSON bytes" "exit $RC"; fi
gsim "${RUNARGS[@]}" --seed 3 --threads 2 --json "$TMP/a2.json"
if [ "$RC" -eq 0 ] && cmp -s "$TMP/a.json" "$TMP/a2.json"; then ok "--threads 2: same JSON bytes"; else
  bad "--threads 2: same JSON bytes" "exit $RC"; fi
gsim "${RUNARGS[@]}" --seed 3 --threads 64 --json "$TMP/a64.json"
if [ "$RC" -eq 0 ] && cmp -s "$TMP/a.json" "$TMP/a64.json" && { [ "$(nproc)" -ge 64 ] || grep -q "running $(nproc) threads" "$ERR"; }; then
  ok "--threads beyond the CPUs: capped with a note, same JSON bytes"
else
  bad "--threads beyond the CPUs: capped with a note, same JSON bytes" "exit $RC"
fi
expect_fail "--threads 0" 2 "--threads" "${RUNARGS[@]}" --threads 0
expect_fail "--threads 65" 2 "--threads" "${RUNARGS[@]}" --threads 65

# --sm-sharing: exclusive runs one kernel per SM (the JSON says so); a policy that decides SM
# sharing itself refuses it before anything is simulated.
gsim run --config tanasic-k20c --mix ppq-priority --policy npq --sm-sharing exclusive --scheduler golden --json "$TMP/ex.json"
if [ "$RC" -eq 0 ] && python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["sm_sharing"] == "exclusive" and j["preempt"] == "drain", j' "$TMP/ex.json" \
   && grep -q "SMs exclusive" "$OUT"; then
  ok "--sm-sharing exclusive (npq)"
else
  bad "--sm-sharing exclusive (npq)" "exit $RC"
fi
gsim run --config tanasic-k20c --mix ppq-priority --policy even --sm-sharing exclusive --scheduler golden
if [ "$RC" -eq 2 ] && grep -q "sm-sharing exclusive: policy even decides how kernels share SMs itself" "$ERR"; then
  ok "--sm-sharing exclusive refused for even (exit 2)"
else
  bad "--sm-sharing exclusive refused for even" "exit $RC"
fi

# --policy oracle (Warped-Slicer's Oracle, golden only): every CTA combination of test-pair, the
# best reported with its candidates; refused with the options it cannot take.
gsim run --config warped-slicer --mix test-pair --policy oracle --json "$TMP/or.json"
if [ "$RC" -eq 0 ] && grep -q "^oracle: the best of every static CTA combination" "$OUT" &&
   grep -Eq "^    [0-9]+,[0-9]+ +[0-9.]+ +[0-9]+ +yes$" "$OUT" && python3 -c '
import json,sys
j=json.load(open(sys.argv[1])); o=j["oracle"]
assert j["policy"] == "oracle" and j["scheduler"] == "golden", j["policy"]
best=max(c["ipc"] for c in o["candidates"])
first=[c for c in o["candidates"] if c["ipc"] == best][0]
assert [b["ctas_per_sm"] for b in o["best"]] == first["ctas_per_sm"], (o["best"], first)
assert [c["chosen"] for c in o["candidates"]].count(True) == 1 and first["chosen"], o["candidates"]
assert j["cycles"] == first["cycles"]' "$TMP/or.json"; then
  ok "--policy oracle: the best candidate, its cycles are the run's"
else
  bad "--policy oracle" "exit $RC"
fi
expect_fail "--policy oracle refuses --scheduler lockstep" 2 "C++ only" \
  run --config warped-slicer --mix test-pair --policy oracle --scheduler lockstep
expect_fail "--policy oracle refuses --cta-limit" 2 "--cta-limit" \
  run --config warped-slicer --mix test-pair --policy oracle --cta-limit 2
grep -qx "oracle" "$TMP/list_policies" && ok "gsim list policies names oracle" || bad "gsim list policies names oracle"

# Pai et al.'s baselines (cmodel/metrics/pai_baselines.hpp): SJF runs npq with priorities from
# the alone runs on any scheduler (here the build's default), MPMax golden only.
gsim run --config warped-slicer --mix test-staggered --policy sjf --json "$TMP/sjf.json"
if [ "$RC" -eq 0 ] && grep -q "^sjf: npq priorities" "$OUT" && python3 -c '
import json,sys
j=json.load(open(sys.argv[1])); ks=j["kernels"]; s={x["kernel"]: x["priority"] for x in j["sjf"]["kernels"]}
assert j["policy"] == "sjf", j["policy"]
alone={k["name"]: k["cycles_alone"] for k in ks}
short=min(alone, key=alone.get); long_=max(alone, key=alone.get)
assert s[short] > s[long_], (s, alone)
assert all(k["priority"] == s[k["name"]] for k in ks), ks' "$TMP/sjf.json"; then
  ok "--policy sjf: the shortest alone kernel gets the top priority"
else
  bad "--policy sjf" "exit $RC"
fi
gsim run --config warped-slicer --mix test-pair --policy mpmax --json "$TMP/mpmax.json"
if [ "$RC" -eq 0 ] && grep -q "^mpmax: CTAs per SM" "$OUT" && python3 -c '
import json,sys
j=json.load(open(sys.argv[1]))
assert j["scheduler"] == "golden" and all(c["ctas_per_sm"] >= 1 for c in j["mpmax"]["kernels"]), j["mpmax"]' "$TMP/mpmax.json"; then
  ok "--policy mpmax: caps reported, golden"
else
  bad "--policy mpmax" "exit $RC"
fi
expect_fail "--policy mpmax refuses --scheduler lockstep" 2 "C++ only" \
  run --config warped-slicer --mix test-pair --policy mpmax --scheduler lockstep
expect_fail "--policy sjf refuses --sm-sharing exclusive" 2 "runs under npq" \
  run --config warped-slicer --mix test-pair --policy sjf --sm-sharing exclusive
# zero-sampling SRTF: golden srtf given the alone runtimes (no port for them in gs_top)
gsim run --config warped-slicer --mix test-pair --policy srtf-zs --json "$TMP/srtf_zs.json"
if [ "$RC" -eq 0 ] && python3 -c '
import json,sys
j=json.load(open(sys.argv[1]))
assert j["policy"] == "srtf-zs" and j["scheduler"] == "golden", (j["policy"], j["scheduler"])' "$TMP/srtf_zs.json"; then
  ok "--policy srtf-zs runs golden"
else
  bad "--policy srtf-zs" "exit $RC"
fi
expect_fail "--policy srtf-zs refuses --scheduler rtl" 2 "C++ only" \
  run --config warped-slicer --mix test-pair --policy srtf-zs --scheduler rtl
# SBM's EWM: standalone profiles of both tasks, then golden mwg with the SBM_REG they gave
gsim run --config warped-slicer --mix test-pair --policy ewm --set sbm.warmup_cycles=1000 --set sbm.sample_cycles=2000 \
  --json "$TMP/ewm.json"
if [ "$RC" -eq 0 ] && grep -q "^ewm: EWM.s SBM_REG" "$OUT" && grep -q "^  arch: mwg$" "$OUT" && python3 -c '
import json,sys
j=json.load(open(sys.argv[1]))
e=j["ewm"]
assert j["policy"] == "ewm" and j["scheduler"] == "golden", (j["policy"], j["scheduler"])
assert e["arch"] == "mwg" and 0 <= e["occ_th"] <= 3 and len(e["profiles"]) >= 2 and e["predicted"], e
assert j["partitions"][0]["mode"] == "shared", j["partitions"]' "$TMP/ewm.json"; then
  ok "--policy ewm profiles standalone and runs golden mwg"
else
  bad "--policy ewm" "exit $RC"
fi
expect_fail "--policy ewm refuses --scheduler lockstep" 2 "C++ only" \
  run --config warped-slicer --mix test-pair --policy ewm --scheduler lockstep
expect_fail "--policy ewm refuses a mix of three kernels" 2 "two tasks" \
  run --config warped-slicer --mix test-staggered --policy ewm
for p in sjf mpmax srtf-zs srtf-adaptive ewm; do
  grep -qx "$p" "$TMP/list_policies" && ok "gsim list policies names $p" || bad "gsim list policies names $p"
done

# The scheduler kind the build defaults to (lockstep with the RTL, golden without).
gsim run --config warped-slicer --mix "$MIX" --json "$TMP/d.json"
if [ "$RC" -eq 0 ] && python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["scheduler"] in ("golden","lockstep")' "$TMP/d.json"; then
  ok "run with the default scheduler ($(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["scheduler"])' "$TMP/d.json"))"
else
  bad "run with the default scheduler" "exit $RC"
fi

# RTL builds: lockstep is deterministic too, and --wave writes an FST file.
if grep -qx "lockstep" "$TMP/list_schedulers"; then
  gsim run --config warped-slicer --mix "$MIX" --scheduler lockstep --seed 5 --json "$TMP/l1.json"
  rc1=$RC
  gsim run --config warped-slicer --mix "$MIX" --scheduler lockstep --seed 5 --json "$TMP/l2.json"
  if [ "$rc1" -eq 0 ] && [ "$RC" -eq 0 ] && cmp -s "$TMP/l1.json" "$TMP/l2.json"; then
    ok "lockstep run: clean and the same JSON bytes twice"
  else
    bad "lockstep run: clean and the same JSON bytes twice" "exit $rc1 / $RC"
  fi
  gsim run --config warped-slicer --mix "$MIX" --scheduler lockstep --seed 5 --json "$TMP/l4.json" --threads 2
  if [ "$RC" -eq 0 ] && cmp -s "$TMP/l1.json" "$TMP/l4.json"; then
    ok "lockstep --threads 2: the same JSON bytes"
  else
    bad "lockstep --threads 2: the same JSON bytes" "exit $RC"
  fi
  # Evaluating every edge gives the same run as the fixed-point skip (docs/cosim.md).
  gsim run --config warped-slicer --mix "$MIX" --scheduler lockstep --seed 5 --json "$TMP/l3.json" --rtl-full-eval
  if [ "$RC" -eq 0 ] && cmp -s "$TMP/l1.json" "$TMP/l3.json"; then
    ok "lockstep --rtl-full-eval: the same JSON bytes as with the skip"
  else
    bad "lockstep --rtl-full-eval: the same JSON bytes as with the skip" "exit $RC"
  fi
  gsim bench --scheduler lockstep --cycles 20000 --json
  if [ "$RC" -eq 0 ] && python3 - "$OUT" <<'EOF'; then ok "bench lockstep: RTL cycles evaluated + skipped"; else bad "bench lockstep: RTL cycles evaluated + skipped" "exit $RC"; fi
import json, sys
j = json.load(open(sys.argv[1]))
assert j["rtl_fixed_point_skip"] is True
assert j["rtl_cycles_evaluated"] + j["rtl_cycles_skipped"] == j["cycles"] == 20000
assert j["rtl_cycles_skipped"] > 0 and j["rtl_cycles_evaluated"] > 0
EOF
  gsim run --config warped-slicer --mix "$MIX" --scheduler rtl --wave "$TMP/run.fst"
  if [ "$RC" -eq 0 ] && [ -s "$TMP/run.fst" ]; then ok "--wave writes an FST file"; else bad "--wave writes an FST file" "exit $RC"; fi
fi

# A run cut short: --max-cycles is a watchdog stop (exit 5) with a state dump.
expect_fail "--max-cycles stops the run with exit 5" 5 "max-cycles" "${RUNARGS[@]}" --max-cycles 50
grep -q "state at cycle" "$ERR" && ok "watchdog stop prints the state dump" || bad "watchdog stop prints the state dump"
expect_fail "--wave needs an RTL scheduler" 2 "--wave" "${RUNARGS[@]}" --wave "$TMP/w.fst"

# ---------------------------------------------------------------- run: a kernel's cache bypass (docs/workloads.md, kernels[i].bypass)
printf '%s\n' '{"name": "pair-bypass", "kernels": [
  {"kernel": "test.compute", "grid_ctas": 16}, {"kernel": "test.memory", "grid_ctas": 16, "bypass": "l2"}]}' >"$TMP/bypass.json"
gsim run --config warped-slicer --mix "$TMP/bypass.json" --scheduler golden --json "$TMP/bp.json" --counters "$TMP/bp.csv"
if [ "$RC" -eq 0 ]; then ok "run a mix with an L2 bypass"; else bad "run a mix with an L2 bypass" "exit $RC"; fi
grep -q "^BYPASS   test.memory: 0 accesses around L1, [1-9][0-9]* around L2" "$OUT" && ok "table shows the BYPASS line" ||
  bad "table shows the BYPASS line"
if python3 - "$TMP/bp.json" "$TMP/bp.csv" <<'EOF'; then ok "bypass counters in JSON and --counters CSV"; else bad "bypass counters in JSON and --counters CSV"; fi
import csv, json, sys
j = json.load(open(sys.argv[1]))
compute, memory = (k["all"] for k in j["counters"]["kernels"])
assert memory["l2_bypassed"] > 0 and memory["l2_accesses"] == 0 and memory["l1_bypassed"] == 0, memory
assert memory["l1_accesses"] > 0
assert compute["l2_bypassed"] == 0 and compute["l1_bypassed"] == 0
keys = list(j["counters"]["gpu"])
assert keys.index("l1_bypassed") == keys.index("l1_hit_rate") + 1 and keys.index("l2_bypassed") == keys.index("l2_hit_rate") + 1
rows = {(r["kernel"], r["sm_type"]): r for r in csv.DictReader(open(sys.argv[2]))}
assert int(rows[("test.memory", "all")]["l2_bypassed"]) == memory["l2_bypassed"]
assert int(rows[("all", "all")]["l2_bypassed"]) == memory["l2_bypassed"]
EOF

# ---------------------------------------------------------------- run: fixed-window mix (docs/workloads.md)
printf '%s\n' '{"name": "pair-window", "window_cycles": 30000, "kernels": [
  {"kernel": "test.compute", "grid_ctas": 16}, {"kernel": "test.memory", "grid_ctas": 16, "arrival_cycle": 500}]}' \
  >"$TMP/window.json"
WINARGS=(run --config warped-slicer --mix "$TMP/window.json" --scheduler golden)
gsim "${WINARGS[@]}" --json "$TMP/w1.json" --csv "$TMP/w1.csv" --counters "$TMP/w1_counters.csv"
if [ "$RC" -eq 0 ]; then ok "run a fixed-window mix"; else bad "run a fixed-window mix" "exit $RC"; fi
for word in WINDOW ANTT_SBM launches completed IPC_alone; do
  grep -q "$word" "$OUT" && ok "window table shows $word" || bad "window table shows $word"
done
gsim "${WINARGS[@]}" --json "$TMP/w2.json"
cmp -s "$TMP/w1.json" "$TMP/w2.json" && ok "fixed window: same JSON bytes twice" || bad "fixed window: same JSON bytes twice"
if python3 - "$TMP/w1.json" "$TMP/w1.csv" "$TMP/w1_counters.csv" <<'EOF'; then ok "fixed window: kernels relaunch, figures over the window"; else bad "fixed window: kernels relaunch, figures over the window"; fi
import csv, json, math, sys
j = json.load(open(sys.argv[1]))
W = 30000
assert j["window_cycles"] == W and j["cycles"] == W, (j["window_cycles"], j["cycles"])
for k in j["kernels"]:
    assert k["launches"] >= 2, k                      # relaunched inside the window
    assert k["launches"] - 1 <= k["completions"] <= k["launches"], k
    assert math.isclose(k["ipc"], k["instructions"] / W, rel_tol=1e-5), k
    assert math.isclose(k["ipc_alone"], k["instructions_alone"] / W, rel_tol=1e-5), k
    assert math.isclose(k["ntt"], k["ipc_alone"] / k["ipc"], rel_tol=1e-5), k
    assert "cycles_shared" not in k
ntts = [k["ntt"] for k in j["kernels"]]
assert math.isclose(j["antt_sbm"], sum(ntts), rel_tol=1e-5)
assert math.isclose(j["antt"], sum(ntts) / len(ntts), rel_tol=1e-5)
assert math.isclose(j["ipc"], sum(k["instructions"] for k in j["kernels"]) / W, rel_tol=1e-5)
for kc in j["counters"]["kernels"]:
    assert kc["all"]["cycles"] == W, kc["all"]["cycles"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert [int(r["launches"]) for r in rows] == [k["launches"] for k in j["kernels"]]
assert all(int(r["window_cycles"]) == W for r in rows)
crow = list(csv.DictReader(open(sys.argv[3])))
assert all(r["l1_bypassed"] == "0" and r["l2_bypassed"] == "0" for r in crow)
EOF

# ---------------------------------------------------------------- run: process mix (docs/workloads.md, "Processes")
printf '%s\n' '{"name": "two-proc", "processes": [
  {"name": "A", "runs": 2, "kernels": [{"kernel": "test.compute", "grid_ctas": 8},
                                       {"kernel": "test.memory", "grid_ctas": 8, "host_gap_cycles": 2000}]},
  {"name": "B", "priority": 1, "kernels": [{"kernel": "test.tiny", "host_gap_cycles": 300}]}]}' \
  >"$TMP/procs.json"
PROCARGS=(run --config warped-slicer --mix "$TMP/procs.json" --scheduler golden)
gsim "${PROCARGS[@]}" --json "$TMP/p1.json" --csv "$TMP/p1.csv"
if [ "$RC" -eq 0 ]; then ok "run a process mix"; else bad "run a process mix" "exit $RC"; fi
for word in "process" mean_shared "Tanasic Sec. 4.1" replays; do
  grep -q "$word" "$OUT" && ok "process table shows $word" || bad "process table shows $word"
done
gsim "${PROCARGS[@]}" --json "$TMP/p2.json"
cmp -s "$TMP/p1.json" "$TMP/p2.json" && ok "process mix: same JSON bytes twice" || bad "process mix: same JSON bytes twice"
if python3 - "$TMP/p1.json" "$TMP/p1.csv" <<'EOF'; then ok "process mix: runs, replays and per-process NTT"; else bad "process mix: runs, replays and per-process NTT"; fi
import csv, json, math, sys
j = json.load(open(sys.argv[1]))
a, b = j["processes"]
assert a["name"] == "A" and a["runs"] == 2 and a["completed"] == 2, a       # A ends the run
assert b["completed"] > b["runs"] == 1, b                                   # B replayed meanwhile
for p in (a, b):
    assert len(p["turnarounds"]) == p["completed"] and len(p["turnarounds_alone"]) == p["runs"], p
    assert math.isclose(p["mean_shared"], sum(p["turnarounds"]) / p["completed"], rel_tol=1e-5), p
    assert math.isclose(p["ntt"], p["mean_shared"] / p["mean_alone"], rel_tol=1e-5), p
assert math.isclose(j["antt"], (a["ntt"] + b["ntt"]) / 2, rel_tol=1e-5)
assert math.isclose(j["stp"], 1 / a["ntt"] + 1 / b["ntt"], rel_tol=1e-5)
assert [k["name"] for k in j["kernels"]] == ["test.compute", "test.memory", "test.tiny"]
assert j["kernels"][0]["launches"] == 2 and j["kernels"][2]["completions"] == b["completed"]
rows = list(csv.DictReader(open(sys.argv[2])))
assert [r["process"] for r in rows] == ["A", "B"] and int(rows[1]["completed"]) == b["completed"]
EOF
sed 's/"host_gap_cycles": 2000/"host_gap_cycles": -1/' "$TMP/procs.json" >"$TMP/procs_bad.json"
expect_fail "a process mix with a negative host gap" 2 "processes[0].kernels[1].host_gap_cycles" \
  run --config warped-slicer --scheduler golden --mix "$TMP/procs_bad.json"
expect_fail "--window-cycles on a process mix" 2 "process mix" "${PROCARGS[@]}" --window-cycles 10000
expect_fail "an analysis policy on a process mix" 2 "process mix" "${PROCARGS[@]}" --policy sjf
# gsim sweep: a process mix's rows go to processes.csv, one per process, the figures of its run's JSON
printf '{"name": "ps", "configs": ["warped-slicer"], "mixes": ["%s"], "policies": ["left-over", "npq"]}\n' \
  "$TMP/procs.json" >"$TMP/proc_sweep.json"
gsim sweep "$TMP/proc_sweep.json" --out "$TMP/proc_sweep_out" --quiet -j 2
if [ "$RC" -eq 0 ]; then ok "sweep a process mix"; else bad "sweep a process mix" "exit $RC"; fi
if python3 - "$TMP/proc_sweep_out" <<'EOF'; then ok "sweep: processes.csv rows equal the runs' JSON"; else bad "sweep: processes.csv rows equal the runs' JSON"; fi
import csv, json, os, sys
out = sys.argv[1]
rows = list(csv.DictReader(open(os.path.join(out, "processes.csv"))))
assert len(rows) == 4, rows  # 2 policies x 2 processes
assert sorted({r["policy"] for r in rows}) == ["left-over", "npq"], rows
for r in rows:
    run = json.load(open(os.path.join(out, "runs", r["run_id"] + ".json")))
    p = next(p for p in run["processes"] if p["name"] == r["process"])
    assert abs(float(r["ntt"]) - p["ntt"]) < 1e-9 and int(r["completed"]) == p["completed"], (r, p)
    assert abs(float(r["stp"]) - run["stp"]) < 1e-9 and int(r["cycles"]) == run["cycles"], (r, run["stp"])
assert list(csv.DictReader(open(os.path.join(out, "results.csv")))) == []  # no kernel rows for it
EOF

# --window-cycles / --window-start: the window given from outside the mix, checked as the mix's keys
gsim run --config warped-slicer --mix "$TMP/window.json" --scheduler golden --window-cycles 20000 --window-start 4000 \
  --json "$TMP/wo.json"
if [ "$RC" -eq 0 ] && python3 - "$TMP/wo.json" <<'EOF'; then ok "--window-cycles/--window-start replace the mix's window"; else bad "--window-cycles/--window-start replace the mix's window" "exit $RC"; fi
import json, math, sys
j = json.load(open(sys.argv[1]))
assert j["window_cycles"] == 20000 and j["window_start"] == 4000 and j["cycles"] == 20000, j
assert j["counters"]["gpu"]["cycles"] == 24000, j["counters"]["gpu"]   # the run: start + window
for k in j["kernels"]:
    assert math.isclose(k["ipc"], k["instructions"] / 20000, rel_tol=1e-5), k
EOF
gsim run --config warped-slicer --kernel test.compute --scheduler golden --window-cycles 8000 --json "$TMP/wk.json"
if [ "$RC" -eq 0 ] && python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['window_cycles']==8000 and j['cycles']==8000 and j['kernels'][0]['launches']>=1" "$TMP/wk.json"; then
  ok "--window-cycles turns a run without a window into a fixed-window run"
else bad "--window-cycles turns a run without a window into a fixed-window run" "exit $RC"; fi
expect_fail "--window-cycles ending before a kernel arrives" 2 "kernels[1] arrives at cycle 500" \
  run --config warped-slicer --mix "$TMP/window.json" --scheduler golden --window-cycles 400
expect_fail "--window-start without a window" 2 "--window-start: a window start goes with a window length" \
  run --config warped-slicer --kernel test.compute --scheduler golden --window-start 100
expect_fail "--window-cycles 0" 2 "--window-cycles" \
  run --config warped-slicer --mix "$TMP/window.json" --scheduler golden --window-cycles 0

# ---------------------------------------------------------------- bench
gsim bench --scheduler golden --cycles 3000 --json
if [ "$RC" -eq 0 ] && python3 - "$OUT" <<'EOF'; then ok "bench --json"; else bad "bench --json" "exit $RC"; fi
import json, sys
j = json.load(open(sys.argv[1]))
for key in ["cycles_per_second", "peak_rss_mb", "sms", "kernels", "scheduler"]:
    assert key in j, f"missing {key}"
assert j["sms"] == 16 and j["cycles"] == 3000 and j["cycles_per_second"] > 0 and j["peak_rss_mb"] > 0
assert j["scheduler"] == "golden" and len(j["kernels"]) >= 2
EOF
# Scaled bench: --sms N --kernels K, every scheduler the build has, one row each.
gsim bench --scheduler all --sms 24 --kernels 3 --cycles 2000 --json
HAVE_RTL=0; grep -qx "lockstep" "$TMP/list_schedulers" && HAVE_RTL=1
if [ "$RC" -eq 0 ] && python3 - "$OUT" "$HAVE_RTL" <<'EOF'; then ok "bench --sms --kernels --scheduler all"; else bad "bench --sms --kernels --scheduler all" "exit $RC"; fi
import json, sys
rows = json.load(open(sys.argv[1]))
want = ["golden", "rtl", "lockstep"] if sys.argv[2] == "1" else ["golden"]
assert [r["scheduler"] for r in rows] == want, rows
for r in rows:
    assert r["sms"] == 24 and r["config"] == "warped-slicer@24sms" and r["kernels"] == ["HOT", "BLK", "HOT"]
    assert r["sm_cycles_per_second"] >= 24 * r["cycles_per_second"] - 24 and r["peak_rss_mb"] > 0
EOF
expect_fail "bench --sms on a config with two SM types" 2 "one SM type" bench --config heterocore --sms 8 --cycles 100
# --set reaches the policy's settings; --require-partitions: left-over records none (exit 8),
# warped-slicer with a short profile puts its split in force within the cycles
expect_fail "bench --require-partitions, none put in force" 8 "put 0 partition(s)" bench --scheduler golden --cycles 2000 --require-partitions 1
gsim bench --scheduler golden --policy warped-slicer --cycles 20000 --set policy.warped-slicer.warmup_cycles=1000 --set policy.warped-slicer.sample_cycles=1000 --require-partitions 1 --json
if [ "$RC" -eq 0 ] && python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["partitions"] >= 1 else 1)' "$OUT"; then ok "bench --set policy setting, partitions"; else bad "bench --set policy setting, partitions" "exit $RC"; fi
expect_fail "bench --set unknown field" 2 "nonsense" bench --scheduler golden --cycles 100 --set nonsense=1
expect_fail "bench --kernels beyond its bound" 2 "--kernels" bench --kernels 33 --cycles 100


# ---------------------------------------------------------------- the user's view: names, own kernels, outputs
# Every name and alias of the policy registry is accepted; an unknown one names the closest.
gsim list policies --names
cp "$OUT" "$TMP/policy_names"
for alias in ppq ppq-exclusive; do
  gsim run --mix test-pair --policy "$alias" --scheduler golden -q --json "$TMP/alias.json"
  if [ "$RC" -eq 0 ] && grep -q '"policy": "ppq-excl"' "$TMP/alias.json"; then ok "--policy $alias is ppq-excl";
  else bad "--policy $alias is ppq-excl" "exit $RC"; fi
done
for p in oracle sjf mpmax srtf-zs ewm hetero-agnostic hetero-class hetero-stp hetero-balanced; do
  grep -qx "$p" "$TMP/policy_names" && ok "gsim list policies names $p" || bad "gsim list policies names $p"
done
expect_fail "--policy PPQ suggests ppq" 2 "did you mean 'ppq'" run --mix test-pair --policy PPQ --scheduler golden
grep -q "oracle" "$ERR" && grep -q "hetero-balanced" "$ERR" && ok "the unknown-policy message lists every policy" ||
  bad "the unknown-policy message lists every policy"
expect_fail "--policy oracle refuses --scheduler rtl" 2 "is C++ only" run --mix test-pair --policy oracle --scheduler rtl
expect_fail "an analysis policy refuses --cta-limit" 2 "decides CTA caps" run --mix test-pair --policy mpmax --cta-limit 2 --scheduler golden
gsim list policies --long
grep -q "^oracle .*runs under left-over" "$OUT" && grep -q "^warped-slicer .*RTL module gs_policy_warped_slicer" "$OUT" &&
  ok "gsim list policies --long" || bad "gsim list policies --long"
# CLI11's errors in gsim's words.
expect_fail "a mistyped option names the closest" 2 "did you mean '--policy'" run --polcy even
grep -q "^gsim: error: unknown option '--polcy'" "$ERR" && ok "a parse error has the gsim: error: prefix" ||
  bad "a parse error has the gsim: error: prefix"
gsim -V
if [ "$RC" -eq 0 ] && grep -q "^gsim [0-9]" "$OUT"; then ok "gsim -V"; else bad "gsim -V" "exit $RC"; fi
# --json - writes the document to stdout, and nothing else goes there.
gsim run --mix test-pair --scheduler golden -q --json -
if [ "$RC" -eq 0 ] && python3 -c "import json,sys; j=json.load(open(sys.argv[1])); assert j['mix']=='test-pair'" "$OUT"; then
  ok "--json - is standard output"; else bad "--json - is standard output" "exit $RC"; fi
[ ! -e ./- ] && ok "--json - writes no file named -" || bad "--json - writes no file named -"
expect_fail "two outputs to standard output" 2 "only one output" run --mix test-pair --scheduler golden -q --json - --csv -
# --kernel: the suite's preset is the config, and it is simulated once.
gsim run --kernel test.memory --scheduler golden --json "$TMP/k.json"
if [ "$RC" -eq 0 ] && grep -q "config warped-slicer, as named by the suite file of kernel test.memory" "$ERR" &&
   python3 - "$TMP/k.json" <<'EOF'; then ok "--kernel: the suite's config, one simulation"; else bad "--kernel: the suite's config, one simulation" "exit $RC"; fi
import json, sys
j = json.load(open(sys.argv[1]))
k = j["kernels"][0]
assert j["config"] == "warped-slicer" and k["cycles_alone"] == k["cycles_shared"], k
a, s = j["counters"]["kernels"][0]["alone"], j["counters"]["kernels"][0]["all"]
assert a == s, (a, s)
EOF
# The user's own kernels: a library file beside the shipped ones, and an inline descriptor.
cat > "$TMP/mine.json" <<'EOF'
{"suite": "mine", "source": "test", "preset": "warped-slicer",
 "kernels": [{"name": "my.stream", "behaviour": "memory", "threads_per_cta": 128, "grid_ctas": 32,
              "insts_per_warp": 200, "ldst_permille": 200, "pattern": "streaming"}]}
EOF
gsim run --kernels "$TMP/mine.json" --kernel my.stream --scheduler golden -q --json "$TMP/mine_run.json"
if [ "$RC" -eq 0 ] && grep -q '"mix": "kernel:my.stream"' "$TMP/mine_run.json"; then ok "--kernels FILE adds the user's kernels";
else bad "--kernels FILE adds the user's kernels" "exit $RC"; fi
sed 's/my.stream/HOT/' "$TMP/mine.json" > "$TMP/dup.json"
expect_fail "--kernels: a library name twice names both files" 2 "already defined in" run --kernels "$TMP/dup.json" --kernel HOT --scheduler golden
sed 's/"grid_ctas": 32/"grid_ctas": 0/' "$TMP/mine.json" > "$TMP/badk.json"
expect_fail "--kernels: a bad field names the file and field" 2 "grid_ctas" run --kernels "$TMP/badk.json" --kernel my.stream --scheduler golden
cat > "$TMP/inline.json" <<'EOF'
{"name": "inline", "config": "warped-slicer",
 "kernels": [{"kernel": "test.compute"},
             {"kernel": {"name": "my.inline", "behaviour": "memory", "threads_per_cta": 128, "grid_ctas": 16,
                         "insts_per_warp": 100, "ldst_permille": 100}, "context": 1}]}
EOF
gsim run --mix "$TMP/inline.json" --scheduler golden -q --json "$TMP/inline_run.json"
if [ "$RC" -eq 0 ] && grep -q '"name": "my.inline"' "$TMP/inline_run.json"; then ok "a mix with an inline descriptor";
else bad "a mix with an inline descriptor" "exit $RC"; fi
sed 's/my.inline/hot/' "$TMP/inline.json" > "$TMP/inline_dup.json"
expect_fail "an inline descriptor may not take a library name" 2 "name of a library kernel" run --mix "$TMP/inline_dup.json" --scheduler golden
# Thread IPC and the alone runs' counters in --json.
python3 - "$TMP/inline_run.json" <<'EOF' && ok "thread IPC and alone counters in --json" || bad "thread IPC and alone counters in --json"
import json, sys
j = json.load(open(sys.argv[1]))
for kc in j["counters"]["kernels"]:
    for g in (kc["all"], kc["alone"]):
        assert g["thread_ipc"] > g["ipc"] > 0, g
EOF
# --max-cycles names the run it stopped.
expect_fail "--max-cycles names the alone run" 5 "alone run of kernel test.compute (1 of 2" run --mix test-pair --scheduler golden -q --max-cycles 50
# NTT below 1 (docs/metrics.md, "NTT below 1"): test.memory finishes sooner beside test.compute,
# because its slowest CTA is faster when its CTAs start staggered.
gsim run --mix test-pair --scheduler golden -q --json "$TMP/ntt.json" --ctas "$TMP/ntt_shared.csv"
gsim run --kernel test.memory --scheduler golden -q --ctas "$TMP/ntt_alone.csv"
python3 - "$TMP/ntt.json" "$TMP/ntt_shared.csv" "$TMP/ntt_alone.csv" <<'EOF' && ok "NTT below 1" || bad "NTT below 1"
import csv, json, sys
j = json.load(open(sys.argv[1]))
m = [k for k in j["kernels"] if k["name"] == "test.memory"][0]
assert m["ntt"] < 1 and j["stp"] > 2, (m, j["stp"])
def durations(f):
    return sorted(int(r["end_cycle"]) - int(r["start_cycle"]) for r in csv.DictReader(open(f)) if r["kernel"] == "test.memory")
shared, alone = durations(sys.argv[2]), durations(sys.argv[3])
assert max(shared) < max(alone) and min(shared) > min(alone), (min(shared), max(shared), min(alone), max(alone))
EOF

# gsim show config: every field, its value and its source.
gsim show config heterocore --set 'sm_types[*].l1_assoc=8'
if [ "$RC" -eq 0 ] && grep -Eq "^  sm_types\[1\]\.l1_assoc +8 +--set sm_types\[\*\]\.l1_assoc=8$" "$OUT" &&
   grep -Eq "^  core_clock_mhz +700 +file$" "$OUT" && grep -Eq "^  sm_types\[0\]\.cta_launch_cycles +0 +default$" "$OUT" &&
   grep -q "^and the config it reads, .*heterocore-baseline.json" "$OUT"; then ok "gsim show config: values and sources";
else bad "gsim show config: values and sources" "exit $RC"; fi
# a policy's setting by its policy's name (the registry's settings section; docs/config_schema.md)
gsim show config heterocore --set policy.hetero-dynamic.warmup_cycles=1000
if [ "$RC" -eq 0 ] && grep -Eq "^  hetero\.warmup_cycles +1000 " "$OUT"; then ok "--set policy.<policy>.<setting>";
else bad "--set policy.<policy>.<setting>" "exit $RC"; fi
expect_fail "--set policy.<p>.<s>: a policy without settings" 2 "has no settings" show config warped-slicer --set policy.npq.x=1
expect_fail "--set policy.<p>.<s>: out of range" 2 "warped_slicer.phase_windows" show config warped-slicer --set policy.warped-slicer.phase_windows=16
expect_fail "gsim show config: an unknown preset" 2 "no such config" show config nope
expect_fail "gsim show config: a bad --set" 2 "l2_assoc" show config warped-slicer --set l2_assoc=-1

# gsim occupancy: the suite's preset when --config is not given; the user's kernels too.
gsim occupancy --kernel HOT
if [ "$RC" -eq 0 ] && grep -q "^kernel HOT on config warped-slicer" "$OUT" && grep -q "as named by the suite file of kernel HOT" "$ERR"; then
  ok "occupancy without --config: the suite's preset"; else bad "occupancy without --config: the suite's preset" "exit $RC"; fi
gsim occupancy --kernels "$TMP/mine.json" --kernel my.stream
if [ "$RC" -eq 0 ] && grep -q "^kernel my.stream on config warped-slicer" "$OUT"; then ok "occupancy --kernels FILE";
else bad "occupancy --kernels FILE" "exit $RC"; fi

# gsim calibrate: stand-ins alone against the papers' alone figures (docs/workloads.md "Alone targets").
gsim calibrate --kernel HOT --kernel BLK -q --json "$TMP/calib.json"
if [ "$RC" -eq 0 ] && grep -Eq "^HOT +ipc_thread +262.5..437.5 +[0-9.]+ +ok " "$OUT" && grep -q "targets: .* in band" "$OUT" &&
   grep -Eq "^HOT +class +compute-nonsat +compute-nonsat \(peak [0-9]+/[0-9]+, p\(N-1\) [0-9.]+, p\(N\) [0-9.]+\) +ok " "$OUT" &&
   grep -Eq "^BLK +class +memory +memory \(peak [0-9]+/[0-9]+, p\(N-1\) [0-9.]+, p\(N\) [0-9.]+\) +ok " "$OUT" &&
   python3 - "$TMP/calib.json" <<'EOF'; then ok "calibrate: a row per target, JSON rows"; else bad "calibrate: a row per target, JSON rows" "exit $RC"; fi
import json, sys
rows = json.load(open(sys.argv[1]))
assert {r["kernel"] for r in rows} == {"HOT", "BLK"}, rows
assert all(r["status"] in ("ok", "OUT", "not measured") for r in rows)
assert any(r["metric"] == "ipc_thread" and r["ours"] > 0 for r in rows)
assert all(r["evidence"].startswith("peak ") for r in rows if r["metric"] == "class"), rows
EOF
# --check on a copy of the targets with a BLK IPC band no run reaches (BLK itself is in band)
python3 - "$DATA/workloads/calibration/targets.json" "$TMP/targets_blk_out.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["kernels"]["BLK"]["targets"]:
    if t["metric"] == "ipc_thread":
        t["band"] = [1.0, 2.0]
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_fail "calibrate --check names the kernels out of band" 7 "out of band: BLK" calibrate --kernel HOT --kernel BLK -q --check --targets "$TMP/targets_blk_out.json"
# the same band marked known_gap: shown and counted apart, --check passes
python3 - "$TMP/targets_blk_out.json" "$TMP/targets_blk_gap.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["kernels"]["BLK"]["targets"]:
    if t["metric"] == "ipc_thread":
        t["known_gap"] = "a test band no run reaches"
json.dump(d, open(sys.argv[2], "w"))
EOF
gsim calibrate --kernel BLK -q --check --targets "$TMP/targets_blk_gap.json"
if [ "$RC" -eq 0 ] && grep -Eq "^BLK +ipc_thread +1..2 +[0-9.]+ +OUT \(known gap\)" "$OUT" &&
   grep -q "1 out of band as a known gap" "$OUT"; then
  ok "calibrate --check: a known gap is listed, counted apart and passes"
else
  bad "calibrate --check: a known gap is listed, counted apart and passes" "exit $RC"
fi
# HeteroCore's ratios: the kernel on the big and small SMs of the config at.config names and on
# its baseline; a ratio target without at.config is a malformed target (file and kernel named)
gsim calibrate --kernel hc.NQU -q --json "$TMP/calib_hc.json"
if [ "$RC" -eq 0 ] && grep -Eq "^hc.NQU +tlp +thick +(thick|lean) \(small/base [0-9.]+\)" "$OUT" &&
   python3 - "$TMP/calib_hc.json" <<'EOF'; then ok "calibrate: HeteroCore TLP class and ratios measured"; else bad "calibrate: HeteroCore TLP class and ratios measured" "exit $RC"; fi
import json, sys
rows = {r["metric"]: r for r in json.load(open(sys.argv[1])) if r["metric"] != "ctas_per_sm"}
for m in ("ipc_ratio_big", "ipc_ratio_small", "speedup_hetero"):
    assert rows[m]["status"] != "not measured" and rows[m]["ours"] > 0, rows[m]
assert rows["tlp"]["ours"] in ("thick", "lean"), rows["tlp"]
EOF
python3 - "$DATA/workloads/calibration/targets.json" "$TMP/targets_noat.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["kernels"]["hc.NQU"]["targets"]:
    t.pop("at", None) if t["metric"] == "ipc_ratio_small" else None
json.dump(d, open(sys.argv[2], "w"))
EOF
expect_fail "calibrate: a HeteroCore ratio without at.config" 2 "ipc_ratio_small needs at.config" calibrate --kernel hc.NQU -q --targets "$TMP/targets_noat.json"
expect_fail "calibrate --kernel without targets" 2 "no targets for it" calibrate --kernel test.compute
expect_fail "calibrate --suite unknown" 2 "no such suite" calibrate --suite nope

# calibrate compares a class with each value of its band, not a substring of them.
cat > "$TMP/targets.json" <<'EOF'
{"suites": {"warped-slicer": {"preset": "warped-slicer"}},
 "kernels": {"HOT": {"suite": "warped-slicer", "targets": [
   {"metric": "dominant_stall", "value": "dependency", "band": ["dependency"], "source": "test"},
   {"metric": "dominant_stall", "value": "x", "band": ["nodependency"], "source": "test"},
   {"metric": "ipc_thread", "value": 1, "band": [null, 1], "source": "test"}]}}}
EOF
gsim calibrate --targets "$TMP/targets.json" -q
if [ "$RC" -eq 0 ] && grep -Eq "^HOT +dominant_stall +dependency +dependency +ok" "$OUT" &&
   grep -Eq "^HOT +dominant_stall +nodependency +dependency +OUT" "$OUT" && grep -Eq "^HOT +ipc_thread +-inf..1 +[0-9.]+ +OUT" "$OUT"; then
  ok "calibrate: a class matches a band value exactly; an open band side"; else bad "calibrate: a class matches a band value exactly; an open band side" "exit $RC"; fi

summary
