#!/usr/bin/env python3
"""CTest profile_json / profile_plot: `gsim profile` (Warped-Slicer Fig. 3a as a command) on two
fast test kernels, its CSV and JSON checked against each other and against the counters' rules,
then drawn by sim_top/plots/profile.py.

  test_profile.py GSIM OUTDIR json    one point per CTA count 1..N, the CSV and the JSON agree, IPC
                                      = instructions / window, shares within [0, 1], the
                                      memory-bound kernel stalls on memory more than the
                                      cache-friendly one, and a second run writes the same bytes
  test_profile.py GSIM OUTDIR plot    the plot: PNG and SVG written and well formed
                                      (exit 77 = skipped, when matplotlib is not installed)
"""
import csv
import json
import os
import subprocess
import sys

import drawing_checks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def profile(gsim, out):
    cmd = [gsim, "profile", "--config", "warped-slicer", "--kernel", "test.memory", "--kernel", "test.cache",
           "--max-ctas", "3", "--warmup", "2000", "--sample", "4000", "-q", "--out", out]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def main():
    gsim, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    base = os.path.join(out, "prof")
    profile(gsim, base)
    p = json.load(open(base + ".json"))

    if what == "json":
        assert p["format"] == "gsched-profile-1" and p["config"] == "warped-slicer", p["format"]
        assert (p["warmup"], p["sample"]) == (2000, 4000)
        assert [k["name"] for k in p["kernels"]] == ["test.memory", "test.cache"]
        rows = list(csv.DictReader(open(base + ".csv")))
        assert len(rows) == 6, len(rows)
        for k in p["kernels"]:
            assert [q["ctas"] for q in k["points"]] == [1, 2, 3], k["points"]
            assert k["occupancy"] >= 3
            for q in k["points"]:
                row = next(r for r in rows if r["kernel"] == k["name"] and int(r["ctas"]) == q["ctas"])
                window = q["window_end"] - q["window_start"]
                assert window > 0 and abs(q["ipc"] - q["instructions"] / window) < 1e-5, q
                assert abs(float(row["ipc"]) - q["ipc"]) < 1e-5 and int(row["instructions"]) == q["instructions"]
                for key in ("mem_stall", "l1_miss", "l2_miss"):
                    assert 0 <= q[key] <= 1 and abs(float(row[key]) - q[key]) < 1e-5, (key, q)
                if not q["whole_run"]:
                    assert (q["window_start"], q["window_end"]) == (2000, 6000), q
        mem, cache = p["kernels"]
        assert all(m["mem_stall"] > c["mem_stall"] for m, c in zip(mem["points"], cache["points"])), (mem, cache)
        assert all(m["l1_miss"] > c["l1_miss"] for m, c in zip(mem["points"], cache["points"])), (mem, cache)
        assert mem["points"][1]["ipc"] > mem["points"][0]["ipc"], "a second CTA per SM adds no IPC"
        first = open(base + ".json").read()
        profile(gsim, base)
        assert open(base + ".json").read() == first, "a second run wrote other bytes"
        print(f"ok: {base}.json and .csv")
        return 0

    if drawing_checks.matplotlib_missing():
        return 77
    subprocess.run([sys.executable, os.path.join(ROOT, "sim_top", "plots", "profile.py"), base + ".json",
                    "--out", base], check=True)
    drawing_checks.check_drawing(base, "test.memory", "without the kernel legend")
    return 0


if __name__ == "__main__":
    sys.exit(main())
