#!/usr/bin/env python3
"""CTest timeline_json / timeline_plot: `gsim run --timeline` on a context-switch run, the file
checked against the run's own rules, then drawn by sim_top/plots/timeline.py.

  test_timeline.py GSIM OUTDIR json    the file: every CTA finishes exactly once, every saved CTA
                                       resumes later on some SM, preemptions are recorded
  test_timeline.py GSIM OUTDIR plot    the plot: PNG and SVG written and well formed
                                       (exit 77 = skipped, when matplotlib is not installed)
"""
import json
import os
import subprocess
import sys

import drawing_checks
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    gsim, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "timeline.json")
    cmd = [gsim, "run", "--config", "tanasic-k20c", "--mix", "ppq-priority", "--policy", "ppq-excl",
           "--preempt", "switch", "--scheduler", "golden", "--quiet", "--timeline", path]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    t = json.load(open(path))

    if what == "json":
        assert t["format"] == "gsched-timeline-1" and t["sms"] == 13, t["sms"]
        assert t["cta_columns"] == ["kernel", "cta", "sm", "start_cycle", "end_cycle", "saved"]
        grid = {k["id"]: k["ctas"] for k in t["kernels"]}
        finished = defaultdict(int)
        saved_at = defaultdict(list)
        starts = defaultdict(list)
        for kernel, cta, sm, start, end, saved in t["ctas"]:
            assert 0 <= sm < t["sms"] and start <= end <= t["cycles"], (kernel, cta, sm, start, end)
            starts[(kernel, cta)].append(start)
            if saved:
                saved_at[(kernel, cta)].append(end)
            else:
                finished[(kernel, cta)] += 1
        for k, n in grid.items():
            for c in range(n):
                assert finished[(k, c)] == 1, f"kernel {k} CTA {c} finished {finished[(k, c)]} times"
        assert saved_at, "a switch run with a high-priority arrival saves CTAs"
        for key, ends in saved_at.items():
            for end in ends:
                assert any(s >= end for s in starts[key]), f"saved CTA {key} never resumed after cycle {end}"
        assert len(t["preemptions"]) == t["sms"], t["preemptions"]   # the arrival takes every SM
        # victim: the low-priority kernel, or none (every kernel on the SM, which holds only it)
        assert all(p["mode"] == "switch" and p["victim"] in (None, 0) for p in t["preemptions"])
        assert all(p["cycle"] >= t["kernels"][1]["arrival_cycle"] for p in t["preemptions"])
        print(f"ok: {len(t['ctas'])} CTA intervals, {sum(len(v) for v in saved_at.values())} saved, "
              f"{len(t['preemptions'])} preemptions")
        return 0

    if drawing_checks.matplotlib_missing():
        return 77
    base = os.path.join(out, "timeline")
    subprocess.run([sys.executable, os.path.join(ROOT, "sim_top", "plots", "timeline.py"), path, "--out", base],
                   check=True)
    assert os.path.getsize(base + ".png") > 10000, "PNG suspiciously small"
    assert open(base + ".svg").read().count("<path") > 100, "SVG without the CTA bars"
    drawing_checks.check_drawing(base, "<path", "without drawn paths")
    return 0


if __name__ == "__main__":
    sys.exit(main())
