#!/usr/bin/env python3
"""Warped-Slicer Table III beside ours: the CTAs per SM each kernel of a pair gets.

  gsim sweep sim_top/sweeps/warped-slicer-pairs.json
  python3 sim_top/plots/ws_partitions.py sweep-results/warped-slicer-pairs [--markdown]

Reads the run JSONs of the sweep (<dir>/runs/*.json, written by `gsim run --json`): for
warped-slicer, the first partition that covers both kernels of the pair ("partitions",
docs/cli.md, "Policy reports"; "spatial" when it fell back to SMs split between them); for the Oracle,
its best CTA combination ("oracle"); and the cycles of every policy, to give each policy's IPC
normalised to Left-Over (all policies run the same instructions, so that is the inverse ratio of
cycles). Beside them, the paper's Table III (Dyn = Warped-Slicer, Even) for the same pair; the
paper names Compute + Compute pairs in its own order, which is followed by swapping the counts.
Prints one row per pair; --markdown prints the table as Markdown.
"""
import argparse
import glob
import math
import os
import re
import sys

import plotlib

# Warped-Slicer (ISCA 2016) Table III: (first, second) -> (Dyn, Even); "spatial" or (a, b).
PAPER = {
    ("DXT", "MVP"): ((7, 1), (4, 4)), ("DXT", "NN"): ((4, 4), (4, 4)), ("HOT", "MVP"): ((3, 1), (1, 4)),
    ("HOT", "NN"): ((2, 4), (1, 4)), ("IMG", "MVP"): ((7, 1), (4, 4)), ("IMG", "NN"): ((3, 5), (4, 4)),
    ("MM", "MVP"): ((5, 1), (2, 4)), ("MM", "NN"): ((3, 5), (2, 4)),
    ("DXT", "BFS"): ((6, 2), (4, 1)), ("DXT", "BLK"): ((4, 4), (4, 4)), ("DXT", "KNN"): ((4, 4), (4, 3)),
    ("DXT", "LBM"): ((5, 3), (4, 3)), ("HOT", "BFS"): ("spatial", (1, 1)), ("HOT", "BLK"): ((2, 4), (1, 4)),
    ("HOT", "KNN"): ((2, 4), (1, 3)), ("HOT", "LBM"): ((3, 1), (1, 3)),
    ("IMG", "BFS"): ((6, 2), (4, 1)), ("IMG", "BLK"): ((5, 3), (4, 4)), ("IMG", "KNN"): ((4, 4), (4, 3)),
    ("IMG", "LBM"): ((7, 1), (4, 3)), ("MM", "BFS"): ("spatial", (2, 1)), ("MM", "BLK"): ((3, 4), (2, 4)),
    ("MM", "KNN"): ((4, 4), (2, 3)), ("MM", "LBM"): ((5, 1), (2, 3)),
    ("DXT", "IMG"): ((4, 4), (4, 4)), ("HOT", "DXT"): ((2, 6), (1, 4)), ("HOT", "IMG"): ((2, 6), (1, 4)),
    ("MM", "DXT"): ((3, 5), (2, 4)), ("MM", "HOT"): ((2, 2), (2, 1)), ("MM", "IMG"): ((3, 5), (2, 4)),
}


def paper_for(a, b):
    """The paper's (Dyn, Even) for the pair (a, b) in our order, or None."""
    if (a, b) in PAPER:
        return PAPER[(a, b)]
    if (b, a) in PAPER:
        swap = lambda p: p if p == "spatial" else (p[1], p[0])
        dyn, even = PAPER[(b, a)]
        return swap(dyn), swap(even)
    return None


def fmt(p):
    return "-" if p is None else p if isinstance(p, str) else f"({p[0]},{p[1]})"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sweep_dir", help="output directory of gsim sweep sim_top/sweeps/warped-slicer-pairs.json")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    plotlib.inputs(args.sweep_dir)
    runs = sorted(glob.glob(os.path.join(args.sweep_dir, "runs", "*.json")))
    if not runs:
        plotlib.fail("ws_partitions.py", f"{args.sweep_dir}/runs holds no run JSON (run the sweep first)")
    pairs = {}
    for path in runs:
        d = plotlib.read_json(path, "a gsim run --json result")   # a missing field names the file and the field
        m = re.match(r"pair_(.+)_(.+)_at\d+$", d.text("mix"))
        if not m:
            continue
        key = (m.group(1), m.group(2))
        row = pairs.setdefault(key, {"cycles": {}})
        policy = d.text("policy")
        row["cycles"][policy] = d.num("cycles")
        if policy == "warped-slicer":
            both = [p for p in d.objects("partitions", []) if len(p.objects("kernels")) == 2]
            if both:
                p = both[0]
                row["ws"] = "spatial" if p["mode"] == "spatial" else tuple(k.integer("ctas_per_sm") for k in p["kernels"])
            else:
                row["ws"] = "none"
        if policy == "oracle":
            row["oracle"] = tuple(k.integer("ctas_per_sm") for k in d["oracle"].objects("best"))
    policies = ["even", "spatial", "warped-slicer", "oracle"]
    header = ["pair", "paper Dyn", "paper Even", "warped-slicer", "oracle"] + [f"IPC {p}" for p in policies]
    rows = []
    logs = {p: [] for p in policies}
    for (a, b), row in sorted(pairs.items()):
        paper = paper_for(a, b)
        lo = row["cycles"].get("left-over")
        ipc = []
        for p in policies:
            c = row["cycles"].get(p)
            v = lo / c if lo and c else float("nan")
            if not math.isnan(v):
                logs[p].append(math.log(v))
            ipc.append(f"{v:.3f}")
        rows.append([f"{a}_{b}", fmt(paper[0] if paper else None), fmt(paper[1] if paper else None),
                     fmt(row.get("ws")), fmt(row.get("oracle"))] + ipc)
    gm = [f"{math.exp(sum(v) / len(v)):.3f}" if v else "-" for v in logs.values()]
    rows.append(["**geomean**", "", "", "", ""] + [f"**{g}**" for g in gm])
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "---|" * 5 + "---:|" * len(policies))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        w = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
        for r in [header] + rows:
            print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)))


if __name__ == "__main__":
    sys.exit(plotlib.run("ws_partitions.py", main))
