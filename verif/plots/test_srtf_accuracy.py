#!/usr/bin/env python3
"""CTest srtf_accuracy_cli / srtf_accuracy_plot: `gsim accuracy` (Pai et al. Fig. 11 as a command)
end to end on a fast test kernel, its CSV checked against its summary and its own rules, its
input errors, then the boxes drawn by sim_top/plots/srtf_accuracy.py.

  test_srtf_accuracy.py GSIM OUTDIR cli    the summary and CSV agree, ratio = predicted / actual,
                                           one slice-unaware row per kernel and SM, the same
                                           bytes twice, a `gsim run --ctas` file gives the same
                                           predictions as the run itself, a pair under mpmax
                                           and its last-slice filter, errors exit 2 naming
                                           the file and field, an absent --h100-traces is a note
  test_srtf_accuracy.py GSIM OUTDIR plot   the plot: PNG and SVG written and well formed
                                           (exit 77 = skipped, when matplotlib is not installed)
"""
import csv
import os
import subprocess
import sys
from collections import Counter

import drawing_checks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ARGS = ["--config", "pai-gtx480", "--kernel", "test.compute", "--kernel", "test.stream"]


def gsim(binary, *args, ok=True):
    p = subprocess.run([binary, *args], capture_output=True, text=True)
    if ok and p.returncode != 0:
        raise AssertionError(f"gsim {' '.join(args)}: exit {p.returncode}\n{p.stderr}")
    return p


def main():
    binary, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "acc.csv")
    p = gsim(binary, "accuracy", *ARGS, "--csv", path)
    rows = list(csv.DictReader(open(path)))

    if what == "cli":
        assert rows and list(rows[0].keys())[:7] == ["group", "trace", "kernel", "sm", "cycle", "mode", "ratio"], rows[:1]
        assert {r["kernel"] for r in rows} == {"test.compute", "test.stream"}
        assert {r["group"] for r in rows} == {"single-sim"}
        for r in rows:
            assert abs(float(r["ratio"]) - int(r["predicted"]) / int(r["actual"])) < 1e-6, r
            assert r["last_slice"] == "1", r   # one kernel alone: one slice
        unaware = Counter((r["kernel"], r["sm"]) for r in rows if r["mode"] == "unaware")
        assert unaware and set(unaware.values()) == {1}, unaware
        ss = Counter(r["kernel"] for r in rows if r["mode"] == "SS")
        assert ss["test.compute"] == 32 and ss["test.stream"] == 640, ss   # one per CTA (block end)
        for line in p.stdout.splitlines():
            f = line.split()
            if f and f[0] == "single-sim":
                n = sum(1 for r in rows if r["kernel"] == f[1] and r["mode"] == f[2])
                assert int(f[3]) == n, (line, n)
        assert "test.stream" in p.stdout and "unaware" in p.stdout, p.stdout
        first = open(path).read()
        gsim(binary, "accuracy", *ARGS, "--csv", path, "-q")
        assert open(path).read() == first, "a second run wrote other bytes"

        # a gsim run --ctas file replays to the same predictions
        ctas = os.path.join(out, "ctas.csv")
        gsim(binary, "run", "--config", "pai-gtx480", "--kernel", "test.compute", "--scheduler", "golden", "-q",
             "--ctas", ctas)
        from_file = os.path.join(out, "from_file.csv")
        gsim(binary, "accuracy", "--config", "pai-gtx480", "--ctas", ctas, "-q", "--csv", from_file)
        a = [(r["sm"], r["cycle"], r["mode"], r["ratio"]) for r in rows if r["kernel"] == "test.compute"]
        b = [(r["sm"], r["cycle"], r["mode"], r["ratio"]) for r in csv.DictReader(open(from_file))]
        assert a == b, "the --ctas replay differs from the simulated run"

        # a pair under Just-in-Time MPMax: group mpmax; --last-slice keeps SS rows of the last slice only
        pair = os.path.join(out, "pair.csv")
        gsim(binary, "accuracy", "--mix", "test-pair", "--policy", "mpmax", "-q", "--csv", pair)
        prow = list(csv.DictReader(open(pair)))
        assert {r["group"] for r in prow} == {"mpmax"} and {r["trace"] for r in prow} == {"test-pair"}, prow[:1]
        last = os.path.join(out, "pair_last.csv")
        gsim(binary, "accuracy", "--mix", "test-pair", "--policy", "mpmax", "--last-slice", "-q", "--csv", last)
        lrow = list(csv.DictReader(open(last)))
        key = lambda r: (r["kernel"], r["sm"], r["cycle"], r["mode"])
        assert sorted(map(key, lrow)) == sorted(key(r) for r in prow if r["mode"] == "unaware" or r["last_slice"] == "1")

        # errors: exit 2, naming the file, line and field
        bad = os.path.join(out, "bad.csv")
        with open(bad, "w") as f:
            f.write("kernel,cta,sm,start_cycle,end_cycle\ntest.compute,0,99,0,10\n")
        e = gsim(binary, "accuracy", "--config", "pai-gtx480", "--ctas", bad, ok=False)
        assert e.returncode == 2 and "bad.csv line 2: field 'sm' is 99" in e.stderr, e.stderr
        e = gsim(binary, "accuracy", "--config", "pai-gtx480", ok=False)
        assert e.returncode == 2 and "give --kernel" in e.stderr, e.stderr
        e = gsim(binary, "accuracy", "--kernel", "test.compute", ok=False)
        assert e.returncode == 2 and "--config is required" in e.stderr, e.stderr
        e = gsim(binary, "accuracy", "--config", "pai-gtx480", "--kernel", "nope", ok=False)
        assert e.returncode == 2 and "nope" in e.stderr, e.stderr
        e = gsim(binary, "accuracy", "--h100-traces", os.path.join(out, "no-such-dir"))
        assert "single-gpu group is skipped" in e.stderr, e.stderr
        h = gsim(binary, "accuracy", "--help")
        assert "--last-slice" in h.stdout and "--h100-traces" in h.stdout, h.stdout
        print(f"ok: {path} ({len(rows)} predictions)")
        return 0

    if drawing_checks.matplotlib_missing():
        return 77
    subprocess.run([sys.executable, os.path.join(ROOT, "sim_top", "plots", "srtf_accuracy.py"), path,
                    "--out", os.path.join(out, "acc")], check=True)
    drawing_checks.check_drawing(os.path.join(out, "acc"), "test.stream", "without the kernel's box label")
    return 0


if __name__ == "__main__":
    sys.exit(main())
