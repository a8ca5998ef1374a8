#!/usr/bin/env python3
"""CTest sbm_table6_table / sbm_table6_plot: sim_top/plots/sbm_table6.py on a small fixed-window
sweep run here (one SBM pair on sbm-gcn32 under sbm-base, mwg, ewm and sbm, with the sbm
profiling window shortened by `sets` so that the whole flow ends before the measured window).

  test_sbm_table6.py GSIM OUTDIR table   each IPC and ANTT cell is the run's windows.csv figure,
                                         SBM's gain over each baseline is recomputed here, and
                                         "SBM chose" names a configuration of Table 3;
                                         --phases lists the sbm run's measured phases
  test_sbm_table6.py GSIM OUTDIR plot    PNG and SVG written and well formed
                                         (exit 77 = skipped, when matplotlib is not installed)
"""
import csv
import json
import os
import re
import subprocess
import sys

import drawing_checks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "sim_top", "plots", "sbm_table6.py")
POLICIES = ("sbm-base", "mwg", "ewm", "sbm")


def main():
    gsim, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    mix = {"name": "sbm-t6-fw_mm", "notes": ["test pair; SBM chose MWGB2."], "window_start": 30000,
           "window_cycles": 10000,
           "kernels": [{"kernel": "sbm.fw.128x1", "context": 0}, {"kernel": "sbm.mm.128x1", "context": 1}]}
    mix_file = os.path.join(out, "fw_mm.json")
    with open(mix_file, "w") as f:
        json.dump(mix, f)
    spec = {"name": "t6", "configs": ["sbm-gcn32"], "sets": [["sbm.warmup_cycles=500", "sbm.sample_cycles=1500"]],
            "mixes": [mix_file], "policies": list(POLICIES), "scheduler": "golden"}
    sweep_file = os.path.join(out, "t6.json")
    with open(sweep_file, "w") as f:
        json.dump(spec, f)
    sweep_out = os.path.join(out, "t6")
    subprocess.run([gsim, "sweep", sweep_file, "--out", sweep_out, "-q"], check=True)

    if what == "table":
        p = subprocess.run([sys.executable, SCRIPT, sweep_out, "--markdown"], check=True, stdout=subprocess.PIPE,
                           text=True)
        lines = [l for l in p.stdout.splitlines() if l.startswith("| ")]
        row = [c.strip() for c in lines[1].strip("|").split("|")]
        assert row[0] == "fw_mm" and row[1] == "MWGB2", row
        assert re.fullmatch(r"Base|B[12]_L12?|MWG \d+\+\d+|MWGB[12] \d+\+\d+", row[2]), row[2]
        assert row[3].startswith("CI sbm."), row[3]
        runs = {}
        with open(os.path.join(sweep_out, "windows.csv"), newline="") as f:
            for r in csv.DictReader(f):
                runs[r["policy"]] = (float(r["mix_ipc"]), float(r["antt_sbm"]))
        assert set(runs) == set(POLICIES), runs
        for i, pol in enumerate(POLICIES):
            assert abs(float(row[4 + i]) - runs[pol][0]) < 0.006, (pol, row[4 + i], runs[pol])
            assert abs(float(row[8 + i]) - runs[pol][1]) < 0.0006, (pol, row[8 + i], runs[pol])
        gains = {l.split("|")[1].strip(): l for l in lines if l.split("|")[1].strip() in ("BASE", "MWG", "EWM")}
        for name, pol in (("BASE", "sbm-base"), ("MWG", "mwg"), ("EWM", "ewm")):
            g = float(gains[name].split("|")[2].strip().rstrip("%"))
            want = 100 * (runs["sbm"][0] / runs[pol][0] - 1)
            assert abs(g - want) < 0.06, (name, g, want)
        # --phases: SBM's profiling phases from the sbm run's window records
        p = subprocess.run([sys.executable, SCRIPT, sweep_out, "--phases", "--markdown"], check=True,
                           stdout=subprocess.PIPE, text=True)
        prow = [c.strip() for c in [l for l in p.stdout.splitlines() if l.startswith("| ")][1].strip("|").split("|")]
        assert prow[0] == "fw_mm" and prow[1] == row[2], (prow, row)
        samples = [float(x) for x in prow[5].replace("/", " ").split()]
        assert 5 <= len(samples) <= 9, samples   # Algorithm 1's five phases, at most four tuning ones
        assert float(prow[2]) in samples, prow    # the choice is one of the phases it measured
        assert abs(float(prow[3]) - runs["sbm"][0]) < 0.006 and abs(float(prow[4]) - runs["mwg"][0]) < 0.006, prow
        with open(os.path.join(sweep_out, "runs", [f for f in os.listdir(os.path.join(sweep_out, "runs"))
                                                   if "__sbm__" in f][0])) as f:
            windows = json.load(f)["windows"]
        first = windows[0]
        want = sum(k["insts"] for k in first["kernels"]) / (first["to"] - first["from"])
        assert abs(samples[0] - want) < 0.006, (samples[0], want)   # Base's sample IPC, recomputed
        print("ok: one application, four policies, three gains recomputed, %d profiling phases" % len(samples))
        return 0

    if drawing_checks.matplotlib_missing():
        return 77
    base = os.path.join(out, "t6_plot")
    subprocess.run([sys.executable, SCRIPT, sweep_out, "--out", base], check=True)
    drawing_checks.check_drawing(base, "IPC normalized to BASE", "without the axis label")
    base8 = os.path.join(out, "t6_antt")
    subprocess.run([sys.executable, SCRIPT, sweep_out, "--antt-out", base8], check=True)
    drawing_checks.check_drawing(base8, "ANTT_SBM normalized to BASE", "without the axis label")
    return 0


if __name__ == "__main__":
    sys.exit(main())
