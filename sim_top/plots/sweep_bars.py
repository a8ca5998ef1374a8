#!/usr/bin/env python3
"""Per-workload bars of a sweep, each policy normalised to a baseline policy, with the geometric
mean over workloads, as the papers draw them (e.g. Tanasic Fig. 7, Warped-Slicer Fig. 9).

  gsim sweep sim_top/sweeps/ppq-k20c.json --out sweep-results/ppq-k20c
  python3 sim_top/plots/sweep_bars.py sweep-results/ppq-k20c/results.csv --metric stp \\
      --baseline left-over --out ppq_stp [--markdown]

A workload is one (config, mix, preemption, SM sharing) of the sweep. For every seed, the run's
metric under each policy is divided by the baseline's on the same workload and seed; the bar is
the mean over seeds, and the last group ("GMEAN") the geometric mean of the bars over workloads.
Metrics: stp (higher is better), antt (lower is better), strictf, cycles (the run's), or ntt of
one kernel (--kernel NAME). Writes OUT.png and OUT.svg; --markdown also prints the table of the
bars (rows: workloads, columns: policies), the form docs use. Input: the results.csv of
`gsim sweep` (docs/sweep.md).
"""
import argparse
import csv
import math
import sys
from collections import defaultdict, OrderedDict

import plotlib

RUN_METRICS = ("stp", "antt", "strictf", "cycles")


def read_rows(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"sweep_bars.py: {path}: {e}")
    need = {"run_id", "config", "mix", "policy", "preempt", "seed", "sm_sharing", "kernel", "ntt"} | set(RUN_METRICS)
    if not rows or not need <= set(rows[0]):
        sys.exit(f"sweep_bars.py: {path}: not a gsim sweep results.csv (columns {sorted(need)})")
    return rows


def values(rows, metric, kernel):
    """{(workload, seed): {policy: value}}; workload = (config, mix, preempt, sm_sharing)."""
    out = defaultdict(dict)
    for r in rows:
        if metric == "ntt":
            if r["kernel"] != kernel:
                continue
            v = float(r["ntt"])
        else:
            v = float(r[metric])
        key = ((r["config"], r["mix"], r["preempt"], r["sm_sharing"]), r["seed"])
        out[key][r["policy"]] = v   # run metrics repeat on every kernel row of the run: same value
    return out


def label(workload, all_workloads):
    """The parts of a workload that vary across the sweep, joined; the mix alone when nothing else varies."""
    parts = []
    for i, name in enumerate(("config", "mix", "preempt", "sm_sharing")):
        if len({w[i] for w in all_workloads}) > 1 or name == "mix":
            parts.append(workload[i])
    return "\n".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("csv", help="results.csv of a gsim sweep")
    ap.add_argument("--metric", default="stp", choices=list(RUN_METRICS) + ["ntt"])
    ap.add_argument("--kernel", help="with --metric ntt: the kernel whose normalized turnaround is drawn")
    ap.add_argument("--baseline", default="left-over", help="the policy every bar is divided by")
    ap.add_argument("--policies", help="comma-separated policies to draw, in this order (default: all but the baseline)")
    ap.add_argument("--out", help="output path without extension (.png and .svg are written)")
    ap.add_argument("--markdown", action="store_true", help="print the table of the bars as Markdown")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    if args.metric == "ntt" and not args.kernel:
        sys.exit("sweep_bars.py: --metric ntt needs --kernel NAME")
    if not args.out and not args.markdown:
        sys.exit("sweep_bars.py: give --out, --markdown or both")

    rows = read_rows(args.csv)
    vals = values(rows, args.metric, args.kernel)
    policies_seen = sorted({p for per in vals.values() for p in per})
    if args.baseline not in policies_seen:
        sys.exit(f"sweep_bars.py: baseline policy {args.baseline!r} is not in {args.csv} (policies: {policies_seen})")
    policies = args.policies.split(",") if args.policies else [p for p in policies_seen if p != args.baseline]
    unknown = [p for p in policies if p not in policies_seen]
    if unknown:
        sys.exit(f"sweep_bars.py: policies {unknown} are not in {args.csv} (policies: {policies_seen})")

    # ratio per (workload, policy): mean over the seeds that have both the policy and the baseline
    ratios = defaultdict(list)
    for (workload, _seed), per in vals.items():
        base = per.get(args.baseline)
        if not base:
            continue
        for p in policies:
            if p in per:
                ratios[(workload, p)].append(per[p] / base)
    workloads = list(OrderedDict.fromkeys(w for (w, _s) in sorted(vals)))
    bars = {p: [sum(ratios[(w, p)]) / len(ratios[(w, p)]) if ratios[(w, p)] else float("nan") for w in workloads]
            for p in policies}
    gmean = {}
    for p in policies:
        good = [x for x in bars[p] if x > 0 and not math.isnan(x)]
        gmean[p] = math.exp(sum(math.log(x) for x in good) / len(good)) if good else float("nan")
    names = [label(w, workloads).replace("\n", " ") for w in workloads]

    what = f"{args.metric.upper()}" + (f" of {args.kernel}" if args.kernel else "")
    if args.markdown:
        print(f"| workload | " + " | ".join(policies) + " |")
        print("|---|" + "---:|" * len(policies))
        for i, n in enumerate(names):
            print(f"| {n} | " + " | ".join(f"{bars[p][i]:.3f}" for p in policies) + " |")
        print("| **geomean** | " + " | ".join(f"**{gmean[p]:.3f}**" for p in policies) + " |")
        print(f"\n{what} normalised to {args.baseline} (mean over seeds; {len(workloads)} workloads)")
    if not args.out:
        return 0

    plt = plotlib.pyplot("sweep_bars.py")
    groups = [label(w, workloads) for w in workloads] + ["GMEAN"]
    n = len(policies)
    width = 0.8 / max(n, 1)
    fig, ax = plt.subplots(figsize=(min(12.0, max(6.0, 0.35 * len(groups) * max(n, 2) + 2)), 4.2))
    for i, p in enumerate(policies):
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, bars[p] + [gmean[p]], width, label=p)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axvline(len(groups) - 1.5, color="grey", linewidth=0.5, linestyle=":")
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(f"{what} / {args.baseline}")
    better = {"stp": "higher is better", "antt": "lower is better", "strictf": "higher is fairer",
              "cycles": "lower is better", "ntt": "lower is better"}[args.metric]
    ax.set_title(args.title or f"{what} normalised to {args.baseline} ({better})")
    ax.legend(fontsize=8, ncol=min(n, 8), loc="upper center", bbox_to_anchor=(0.5, -0.12), frameon=False)
    plotlib.save(fig, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
