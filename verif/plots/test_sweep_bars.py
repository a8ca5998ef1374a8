#!/usr/bin/env python3
"""CTest sweep_bars_table / sweep_bars_plot: sim_top/plots/sweep_bars.py on the results of the
smoke sweep (sim_top/sweeps/smoke.json, run here by `gsim sweep`).

  test_sweep_bars.py GSIM OUTDIR table   the Markdown table: every bar is the mean over seeds of
                                         STP(policy) / STP(baseline), recomputed here from the CSV,
                                         and the geomean row is their geometric mean
  test_sweep_bars.py GSIM OUTDIR plot    PNG and SVG written and well formed
                                         (exit 77 = skipped, when matplotlib is not installed)
"""
import csv
import math
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "sim_top", "plots", "sweep_bars.py")


def main():
    gsim, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    sweep_out = os.path.join(out, "smoke")
    subprocess.run([gsim, "sweep", os.path.join(ROOT, "sim_top", "sweeps", "smoke.json"), "--out", sweep_out, "-q"],
                   check=True)
    results = os.path.join(sweep_out, "results.csv")

    if what == "table":
        p = subprocess.run([sys.executable, SCRIPT, results, "--metric", "stp", "--baseline", "left-over", "--markdown"],
                           check=True, stdout=subprocess.PIPE, text=True)
        table = {}
        for line in p.stdout.splitlines():
            cells = [c.strip().strip("*") for c in line.strip("|").split("|")]
            if len(cells) == 2 and cells[0] not in ("workload", "---"):
                table[cells[0]] = float(cells[1])
        stp = {}
        with open(results, newline="") as f:
            for r in csv.DictReader(f):
                stp[(r["mix"], r["seed"], r["policy"])] = float(r["stp"])
        mixes = sorted({m for (m, _s, _p) in stp})
        seeds = sorted({s for (_m, s, _p) in stp})
        assert mixes == ["test-pair", "test-staggered"] and seeds == ["1", "2"], (mixes, seeds)
        want = {m: sum(stp[(m, s, "even")] / stp[(m, s, "left-over")] for s in seeds) / len(seeds) for m in mixes}
        for m in mixes:
            assert abs(table[m] - want[m]) < 0.0006, (m, table[m], want[m])
        gmean = math.exp(sum(math.log(v) for v in want.values()) / len(want))
        assert abs(table["geomean"] - gmean) < 0.0006, (table["geomean"], gmean)
        print(f"ok: bars {table}")
        return 0

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("SKIPPED: matplotlib is not installed for this Python (Debian: python3-matplotlib)")
        return 77
    base = os.path.join(out, "smoke_antt")
    subprocess.run([sys.executable, SCRIPT, results, "--metric", "antt", "--out", base], check=True)
    with open(base + ".png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "not a PNG"
    svg = open(base + ".svg").read()
    assert "<svg" in svg and "GMEAN" in svg, "SVG without the geomean group"
    print(f"ok: {base}.png and .svg")
    return 0


if __name__ == "__main__":
    sys.exit(main())
