#!/usr/bin/env python3
"""CTest sweep_geomean_table / sweep_geomean_plot: sim_top/plots/sweep_geomean.py on a small pairs
sweep run here (the three test kernels, second kernel at cycle 0 and at 50% of the first's alone
runtime, under left-over shared and exclusive).

  test_sweep_geomean.py GSIM OUTDIR table   every cell is the geometric mean over the runs of that
                                            policy and arrival, recomputed here from the CSV;
                                            exclusive runs form their own row
  test_sweep_geomean.py GSIM OUTDIR plot    PNG and SVG written and well formed
                                            (exit 77 = skipped, when matplotlib is not installed)
"""
import csv
import json
import math
import os
import subprocess
import sys

import drawing_checks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "sim_top", "plots", "sweep_geomean.py")


def main():
    gsim, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    spec = {"name": "geomean", "configs": ["warped-slicer"], "policies": ["left-over"],
            "sm_sharing": ["shared", "exclusive"], "scheduler": "golden",
            "pairs": {"kernels": ["test.compute", "test.memory", "test.cache"], "stagger": [0], "stagger_pct": [50]}}
    sweep_file = os.path.join(out, "geomean.json")
    with open(sweep_file, "w") as f:
        json.dump(spec, f)
    sweep_out = os.path.join(out, "geomean")
    subprocess.run([gsim, "sweep", sweep_file, "--out", sweep_out, "-q"], check=True)
    results = os.path.join(sweep_out, "results.csv")

    if what == "table":
        p = subprocess.run([sys.executable, SCRIPT, results, "--by-arrival", "--markdown"], check=True,
                           stdout=subprocess.PIPE, text=True)
        shown = {}
        arrival = None
        for line in p.stdout.splitlines():
            if line.startswith("second kernel at"):
                arrival = "50pct" if "50%" in line else line.split()[-1].rstrip(":")
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 6 and cells[0] not in ("policy", "---"):
                shown[(arrival, cells[0])] = [float(c) for c in cells[1:4]]
        runs = {}
        with open(results, newline="") as f:
            for r in csv.DictReader(f):
                label = r["policy"] + (" (SMs exclusive)" if r["sm_sharing"] == "exclusive" else "")
                runs[r["run_id"]] = (r["mix"].rsplit("_at", 1)[1], label, [float(r[m]) for m in ("stp", "antt", "strictf")])
        want = {}
        for arrival, label, vals in runs.values():
            want.setdefault((arrival, label), []).append(vals)
        assert set(want) == set(shown) and len(want) == 4, (sorted(want), sorted(shown))
        for key, vs in want.items():
            assert len(vs) == 6, (key, len(vs))   # 3 kernels: 6 ordered pairs per arrival
            for i in range(3):
                g = math.exp(sum(math.log(v[i]) for v in vs) / len(vs))
                assert abs(shown[key][i] - g) < 0.0006, (key, i, shown[key][i], g)
        print(f"ok: {len(shown)} rows recomputed")
        return 0

    if drawing_checks.matplotlib_missing():
        return 77
    base = os.path.join(out, "geomean_plot")
    subprocess.run([sys.executable, SCRIPT, results, "--by-arrival", "--out", base], check=True)
    drawing_checks.check_drawing(base, "StrictF", "without the StrictF panel")
    return 0


if __name__ == "__main__":
    sys.exit(main())
