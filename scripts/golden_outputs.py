#!/usr/bin/env python3
"""Reference outputs of the model: every shipped mix, run by the golden scheduler, must give the
same JSON as recorded in verif/golden_outputs.json.

The model's speed-ups (per-bank DRAM queues, sleeping warp schedulers, idle skipping) must not
change a single simulated event; this is the check that they do not. Each mix runs
`gsim run --mix M --scheduler golden --quiet --json F` (its own config, the default policy and
seed) and the whole JSON, less "gsim_version" (which names the build), is hashed with SHA-256
after canonical dumping (sorted keys).

  golden_outputs.py --gsim PATH [--mix NAME ...]            check (exit 1 on any difference)
  golden_outputs.py --gsim PATH --update [--mix NAME ...]   rewrite the references

A change that is meant to move results (a calibration, a model fix) updates the references in
the same commit and says why. Used by the ctests golden_output_<mix> (label cli).
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIX_DIR = os.path.join(ROOT, "sim_top", "workloads", "mixes")
REFERENCE = os.path.join(ROOT, "verif", "golden_outputs.json")


def shipped_mixes():
    return sorted(f[:-5] for f in os.listdir(MIX_DIR) if f.endswith(".json"))


def run_mix(gsim, mix):
    """Runs one mix; returns (digest, summary) or raises RuntimeError with gsim's message."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        p = subprocess.run([gsim, "run", "--mix", mix, "--scheduler", "golden", "--quiet", "--json", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        if p.returncode != 0:
            raise RuntimeError(f"gsim run --mix {mix} exited {p.returncode}: {p.stderr.strip()}")
        with open(out) as f:
            result = json.load(f)
    result.pop("gsim_version", None)
    canonical = json.dumps(result, sort_keys=True, separators=(",", ":"))
    summary = {"config": result["config"], "policy": result["policy"], "cycles": result["cycles"]}
    if "processes" in result:  # a process mix (docs/workloads.md, "Processes"): each run's turnaround
        summary["turnarounds"] = {p["name"]: p["turnarounds"] for p in result["processes"]}
    else:
        summary["cycles_shared"] = [k["cycles_shared"] for k in result["kernels"]]
    return hashlib.sha256(canonical.encode()).hexdigest(), summary


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gsim", required=True, help="the gsim binary")
    ap.add_argument("--mix", action="append", help="only this mix (repeatable); default every shipped mix")
    ap.add_argument("--update", action="store_true", help="rewrite the references of the mixes run")
    args = ap.parse_args()

    mixes = args.mix or shipped_mixes()
    unknown = [m for m in mixes if m not in shipped_mixes()]
    if unknown:
        sys.exit(f"golden_outputs.py: not a shipped mix (sim_top/workloads/mixes): {', '.join(unknown)}")
    refs = {}
    if os.path.exists(REFERENCE):
        with open(REFERENCE) as f:
            refs = json.load(f)

    failed = 0
    for mix in mixes:
        try:
            digest, summary = run_mix(args.gsim, mix)
        except RuntimeError as e:
            print(f"FAIL {mix}: {e}")
            failed += 1
            continue
        if args.update:
            refs[mix] = {"sha256": digest, **summary}
            print(f"updated {mix}: {summary['cycles']} cycles")
            continue
        ref = refs.get(mix)
        if ref is None:
            print(f"FAIL {mix}: no reference in verif/golden_outputs.json (run with --update and commit it)")
            failed += 1
        elif ref["sha256"] != digest:
            what = "turnarounds" if "turnarounds" in summary else "cycles_shared"
            print(f"FAIL {mix}: output differs from the reference\n"
                  f"  reference: {ref['cycles']} cycles, kernels take {ref.get(what)}\n"
                  f"  now:       {summary['cycles']} cycles, kernels take {summary[what]}\n"
                  f"  (identical cycles mean a counter moved; if the change is intended, run with --update "
                  f"and say why in the commit)")
            failed += 1
        else:
            print(f"ok {mix}: {summary['cycles']} cycles")
    if args.update:
        with open(REFERENCE, "w") as f:
            json.dump(dict(sorted(refs.items())), f, indent=1)
            f.write("\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
