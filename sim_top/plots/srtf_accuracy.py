#!/usr/bin/env python3
"""Pai et al. Fig. 11 from `gsim accuracy`: the Simple Slicing predictor's predictions normalised
to the actual runtime, one pair of boxes per group and kernel (SS and slice-unaware).

  gsim accuracy --config pai-gtx480 --kernels pai --csv single-sim.csv
  gsim accuracy --mix pai-nlm2-sad --last-slice --csv multi-sim.csv
  python3 sim_top/plots/srtf_accuracy.py single-sim.csv multi-sim.csv --out srtf_accuracy [--title T]

Reads one or more CSVs of `gsim accuracy --csv` (columns group,trace,kernel,sm,cycle,mode,ratio,
..., last_slice; docs/srtf-accuracy.md) and writes OUT.png and OUT.svg. The y axis (predicted /
actual) is logarithmic, with lines at 0.5, 1 and 2; boxes span the quartiles, whiskers the
5th to 95th percentile, with the median as a line; groups are separated by a gap and named under
the axis. --last-slice keeps only the SS predictions made in each kernel's last slice (what the
paper counts for mpmax; already so when gsim accuracy ran with --last-slice). --markdown prints
the medians and 0.5x..2x shares as a Markdown table.
"""
import argparse
import sys
from collections import OrderedDict

import plotlib

MODES = ("SS", "unaware")
COLOURS = {"SS": "#1f77b4", "unaware": "#ff7f0e"}
NEED = ("group", "kernel", "mode", "ratio", "last_slice")


def read(paths, last_slice):
    """{(group, kernel): {mode: [ratio, ...]}} in order of first appearance; a malformed file is a
    plotlib.InputError naming the file, the line and the field."""
    data = OrderedDict()
    for path in paths:
        for r in plotlib.read_csv(path, NEED, numbers=("ratio",), what="a gsim accuracy --csv file"):
            if r["mode"] not in MODES:
                raise plotlib.InputError(f"{path} line {r.line}: field 'mode' is '{r['mode']}', expected SS or unaware")
            if r["ratio"] <= 0:
                raise plotlib.InputError(f"{path} line {r.line}: field 'ratio' is {r['ratio']}, must be > 0")
            if last_slice and r["mode"] == "SS" and r["last_slice"] != "1":
                continue
            data.setdefault((r["group"], r["kernel"]), {m: [] for m in MODES})[r["mode"]].append(r["ratio"])
    if not data:
        raise plotlib.InputError("no predictions in " + ", ".join(paths))
    return data


def quantile(v, p):
    """Linear interpolation between order statistics (numpy's default, as gsim accuracy)."""
    v = sorted(v)
    pos = p * (len(v) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (pos - lo)


def markdown(data):
    lines = ["| group | kernel | SS median | SS in 0.5x-2x | unaware median | unaware in 0.5x-2x |",
             "|---|---|---:|---:|---:|---:|"]
    for (g, k), by in data.items():
        cells = []
        for m in MODES:
            v = by[m]
            if v:
                share = sum(1 for r in v if 0.5 <= r <= 2) / len(v)
                cells += [f"{quantile(v, 0.5):.3f}", f"{100 * share:.1f}% (n={len(v)})"]
            else:
                cells += ["-", "-"]
        lines.append(f"| {g} | {k} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="CSV files written by gsim accuracy --csv")
    ap.add_argument("--out", required=True, help="output path without extension (.png and .svg are written)")
    ap.add_argument("--last-slice", action="store_true", help="SS: only predictions in each kernel's last slice")
    ap.add_argument("--markdown", action="store_true", help="print medians and 0.5x-2x shares as a Markdown table")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    plotlib.inputs(*args.csv)
    data = read(args.csv, args.last_slice)
    if args.markdown:
        print(markdown(data))

    plt = plotlib.pyplot("srtf_accuracy.py")
    from matplotlib.patches import Patch

    fig, ax = plt.subplots(figsize=(max(6.0, 0.55 * len(data) + 2), 4.8))
    x, ticks, labels, group_spans = 0.0, [], [], []
    prev_group, group_start = None, 0.0
    for (g, k), by in data.items():
        if prev_group is not None and g != prev_group:
            group_spans.append((prev_group, group_start, x - 1.0))
            x += 0.8                     # a gap between groups
            group_start = x
        if prev_group is None:
            group_start = x
        prev_group = g
        for j, m in enumerate(MODES):
            v = by[m]
            if not v:
                continue
            pos = x + (j - 0.5) * 0.38
            b = ax.boxplot([v], positions=[pos], widths=0.32, whis=(5, 95), showfliers=False, patch_artist=True)
            for patch in b["boxes"]:
                patch.set_facecolor(COLOURS[m])
                patch.set_alpha(0.75)
            for med in b["medians"]:
                med.set_color("black")
        ticks.append(x)
        labels.append(k)
        x += 1.0
    group_spans.append((prev_group, group_start, x - 1.0))

    for y, style in ((0.5, ":"), (1.0, "-"), (2.0, ":")):
        ax.axhline(y, color="grey", linestyle=style, linewidth=0.8, zorder=0)
    ax.set_yscale("log")
    lo, hi = ax.get_ylim()
    ticks_y = [y for y in (1 / 16, 1 / 8, 0.25, 0.5, 1, 2, 4, 8, 16) if lo <= y <= hi]
    ax.set_yticks(ticks_y)
    ax.set_yticklabels([f"{y:g}" for y in ticks_y])
    ax.minorticks_off()
    ax.set_ylabel("predicted / actual runtime")
    ax.set_xticks(ticks)
    ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=8)
    ax.set_xlim(-0.7, x - 0.3)
    for g, lo, hi in group_spans:
        ax.annotate(g, xy=((lo + hi) / 2, 1.0), xycoords=("data", "axes fraction"), xytext=(0, 4),
                    textcoords="offset points", ha="center", va="bottom", fontsize=9, fontweight="bold")
        if lo > 0:
            ax.axvline(lo - 0.9, color="lightgrey", linewidth=0.8)
    ax.legend(handles=[Patch(facecolor=COLOURS["SS"], alpha=0.75, label="SS (slice-aware, every block end)"),
                       Patch(facecolor=COLOURS["unaware"], alpha=0.75, label="slice-unaware (first prediction)")],
              fontsize=8, loc="lower right")
    ax.set_title(args.title or "Simple Slicing predictor accuracy (Pai et al. Fig. 11)", fontsize=10, pad=18)
    plotlib.save(fig, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(plotlib.run("srtf_accuracy.py", main))
