#!/usr/bin/env python3
"""Geometric means of a sweep's run metrics per policy, as Pai et al. Tables 5 and 6 give them
(geomean STP, ANTT and StrictF over the workloads), optionally split by the arrival of the
generated pairs.

  gsim sweep sim_top/sweeps/pai-pairs.json --out sweep-results/pai-pairs
  gsim sweep sim_top/sweeps/pai-pairs-fifo.json --out sweep-results/pai-pairs-fifo
  python3 sim_top/plots/sweep_geomean.py sweep-results/pai-pairs-fifo/results.csv \\
      sweep-results/pai-pairs/results.csv --by-arrival --markdown --out pai_tables

Rows: one per policy, named as results.csv names it, with " (SMs exclusive)" when the run had
--sm-sharing exclusive (so left-over exclusive, Pai's FIFO, stays apart from left-over shared),
in the order the policies first appear. Columns: STP, ANTT, StrictF (the geometric mean of the
run values over the runs of that policy), the worst ANTT (max) and the number of runs. With
--by-arrival the runs are grouped by the suffix of their generated pair mix (`_at<cycles>` or
`_at<p>pct`, docs/sweep.md) and one table is printed per arrival. Several results.csv files
are read as one (a run id seen twice keeps its last row). --out OUT writes OUT.png and OUT.svg:
one panel per metric, a bar per policy and arrival. Input: the results.csv of `gsim sweep`.
"""
import argparse
import math
import sys
from collections import OrderedDict

import plotlib

METRICS = (("stp", "STP", "higher is better"), ("antt", "ANTT", "lower is better"),
           ("strictf", "StrictF", "1 = fair"))


def read_runs(paths):
    """run_id -> (policy label, arrival, {metric: value}) from one row per run; a malformed file is a
    plotlib.InputError naming the file, line and field."""
    runs = OrderedDict()
    need = {"run_id", "mix", "policy", "sm_sharing", "stp", "antt", "strictf"}
    for path in paths:
        for r in plotlib.read_csv(path, need, numbers=[m for m, _, _ in METRICS], what="a gsim sweep results.csv"):
            label = r["policy"] + (" (SMs exclusive)" if r["sm_sharing"] == "exclusive" else "")
            mix = r["mix"]
            arrival = mix.rsplit("_at", 1)[1] if "_at" in mix else "-"
            runs[r["run_id"]] = (label, arrival, {m: r[m] for m, _, _ in METRICS})
    if not runs:
        raise plotlib.InputError("no runs in " + ", ".join(paths))
    return runs


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs))


def tables(runs, by_arrival):
    """{arrival: {policy: {"stp", "antt", "strictf", "antt_max", "n"}}} in first-seen order."""
    out = OrderedDict()
    groups = OrderedDict()
    for label, arrival, vals in runs.values():
        key = arrival if by_arrival else "all"
        groups.setdefault(key, OrderedDict()).setdefault(label, []).append(vals)
    for key, pols in groups.items():
        out[key] = OrderedDict()
        for label, vs in pols.items():
            row = {m: gmean([max(v[m], 1e-12) for v in vs]) for m, _, _ in METRICS}
            row["antt_max"] = max(v["antt"] for v in vs)
            row["n"] = len(vs)
            out[key][label] = row
    return out


def arrival_title(a):
    if a == "all":
        return "all runs"
    if a.endswith("pct"):
        return f"second kernel at {a[:-3]}% of the first's alone runtime"
    return f"second kernel at cycle {a}"


def markdown(t):
    lines = []
    for arrival, pols in t.items():
        lines.append(f"{arrival_title(arrival)}:\n")
        lines.append("| policy | STP | ANTT | StrictF | worst ANTT | runs |")
        lines.append("|---|---|---|---|---|---|")
        for label, r in pols.items():
            lines.append(f"| {label} | {r['stp']:.3f} | {r['antt']:.3f} | {r['strictf']:.3f} | "
                         f"{r['antt_max']:.2f} | {r['n']} |")
        lines.append("")
    return "\n".join(lines)


def draw(t, out):
    plt = plotlib.pyplot("sweep_geomean.py")
    arrivals = list(t)
    policies = []
    for pols in t.values():
        for p in pols:
            if p not in policies:
                policies.append(p)
    fig, axes = plt.subplots(1, len(METRICS), figsize=(4.2 * len(METRICS), 4.3))
    width = 0.8 / max(1, len(policies))
    for ax, (m, name, sense) in zip(axes, METRICS):
        for i, p in enumerate(policies):
            xs = [a + (i - (len(policies) - 1) / 2) * width for a in range(len(arrivals))]
            ys = [t[a][p][m] if p in t[a] else 0 for a in arrivals]
            ax.bar(xs, ys, width, label=p)
        ax.set_xticks(range(len(arrivals)))
        ax.set_xticklabels([a if a != "all" else "" for a in arrivals])
        ax.set_title(f"geomean {name} ({sense})")
        ax.set_xlabel("arrival of the second kernel" if arrivals != ["all"] else "")
    # one legend below the panels, so that no bar is hidden behind it
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(policies), 6), fontsize=8, frameon=False)
    plotlib.save(fig, out, rect=(0, 0.08, 1, 1))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", nargs="+", help="results.csv of gsim sweep")
    ap.add_argument("--by-arrival", action="store_true", help="one table per arrival of the generated pairs")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    ap.add_argument("--out", help="write OUT.png and OUT.svg")
    a = ap.parse_args()
    plotlib.inputs(*a.csv)
    t = tables(read_runs(a.csv), a.by_arrival)
    if a.markdown or not a.out:
        print(markdown(t))
    if a.out:
        draw(t, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(plotlib.run("sweep_geomean.py", main))
