#!/usr/bin/env python3
"""Per-workload bars of a sweep, each policy normalised to a baseline policy, with the geometric
mean over workloads, as the papers draw them (e.g. Tanasic Fig. 7, Warped-Slicer Fig. 9).

  gsim sweep sim_top/sweeps/ppq-k20c.json --out sweep-results/ppq-k20c
  python3 sim_top/plots/sweep_bars.py sweep-results/ppq-k20c/results.csv --metric stp \\
      --baseline left-over --out ppq_stp [--markdown]

A workload is one (config, mix, preemption, SM sharing) of the sweep. For every seed, the run's
metric under each policy is divided by the baseline's on the same workload and seed; the bar is
the mean over seeds, and the last group ("GMEAN") the geometric mean of the bars over workloads.
Metrics: stp (higher is better), antt (lower is better), strictf, cycles (the run's), ntt of
one kernel (--kernel NAME), or ntt-top: the NTT of the run's highest-priority kernel (one kernel
must hold the highest priority; Tanasic's prioritized process). --gain draws baseline / policy
instead, an improvement for the lower-is-better metrics (Tanasic Fig. 5: T_FCFS / T_policy of
the prioritized process; its alone time cancels). --by kernels groups the workloads by how many
kernels their mix launches (and config, preemption and SM sharing where these vary): one bar per
group and policy, the arithmetic mean over its workloads
(the geometric mean beside it in the table), as Tanasic Fig. 5 draws 2, 4 and 8 processes.
Writes OUT.png and OUT.svg; --markdown also prints the table of the bars (rows: workloads or
groups, columns: policies), the form docs use. Input: the results.csv of `gsim sweep`
(docs/sweep.md).

  gsim sweep sim_top/sweeps/ppq-gain.json
  python3 sim_top/plots/sweep_bars.py sweep-results/ppq-gain/results.csv --metric ntt-top \\
      --baseline left-over --gain --by kernels --markdown --out ppq_gain
"""
import argparse
import math
import sys
from collections import defaultdict, OrderedDict

import plotlib

RUN_METRICS = ("stp", "antt", "strictf", "cycles")
KERNEL_METRICS = ("ntt", "ntt-top")


def read_rows(path):
    """The rows of a sweep's results.csv, the columns read checked (priority an integer, the
    metrics numbers); a malformed file is a plotlib.InputError naming the file, line and field."""
    need = {"run_id", "config", "mix", "policy", "preempt", "seed", "sm_sharing", "kernel", "priority", "ntt"} | set(RUN_METRICS)
    return plotlib.read_csv(path, need, numbers=("ntt",) + tuple(RUN_METRICS), integers=("priority",),
                            what="a gsim sweep results.csv")


def top_priority_rows(rows, path):
    """The row of each run's highest-priority kernel; exits when two kernels of a run share it."""
    by_run = defaultdict(list)
    for r in rows:
        by_run[r["run_id"]].append(r)
    out = []
    for run_id, kernels in by_run.items():
        top = max(int(k["priority"]) for k in kernels)
        best = [k for k in kernels if int(k["priority"]) == top]
        if len(best) != 1:
            raise plotlib.InputError(f"{path}: run {run_id}: {len(best)} kernels share the highest priority {top}; "
                                     "--metric ntt-top needs one prioritized kernel per run")
        out.append(best[0])
    return out


def values(rows, metric, kernel, path):
    """{(workload, seed): {policy: value}}; workload = (config, mix, preempt, sm_sharing)."""
    out = defaultdict(dict)
    if metric == "ntt-top":
        rows = top_priority_rows(rows, path)
    for r in rows:
        if metric == "ntt":
            if r["kernel"] != kernel:
                continue
            v = float(r["ntt"])
        elif metric == "ntt-top":
            v = float(r["ntt"])
        else:
            v = float(r[metric])
        key = ((r["config"], r["mix"], r["preempt"], r["sm_sharing"]), r["seed"])
        out[key][r["policy"]] = v   # run metrics repeat on every kernel row of the run: same value
    return out


def kernel_counts(rows):
    """{workload: number of kernels its mix launches}."""
    per_run = defaultdict(int)
    workload_of = {}
    for r in rows:
        per_run[r["run_id"]] += 1
        workload_of[r["run_id"]] = (r["config"], r["mix"], r["preempt"], r["sm_sharing"])
    return {workload_of[run]: n for run, n in per_run.items()}


def geomean(xs):
    good = [x for x in xs if x > 0 and not math.isnan(x)]
    return math.exp(sum(math.log(x) for x in good) / len(good)) if good else float("nan")


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
    ap.add_argument("--metric", default="stp", choices=list(RUN_METRICS) + list(KERNEL_METRICS))
    ap.add_argument("--kernel", help="with --metric ntt: the kernel whose normalized turnaround is drawn")
    ap.add_argument("--baseline", default="left-over", help="the policy every bar is divided by")
    ap.add_argument("--gain", action="store_true", help="draw baseline / policy (an improvement for lower-is-better metrics)")
    ap.add_argument("--by", choices=["workload", "kernels"], default="workload",
                    help="one bar per workload (default) or per number of kernels in the mix (mean over its workloads)")
    ap.add_argument("--log", action="store_true", help="logarithmic y axis (ratios spanning decades)")
    ap.add_argument("--policies", help="comma-separated policies to draw, in this order (default: all but the baseline)")
    ap.add_argument("--out", help="output path without extension (.png and .svg are written)")
    ap.add_argument("--markdown", action="store_true", help="print the table of the bars as Markdown")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    plotlib.inputs(args.csv)
    if args.metric == "ntt" and not args.kernel:
        sys.exit("sweep_bars.py: --metric ntt needs --kernel NAME")
    if not args.out and not args.markdown:
        sys.exit("sweep_bars.py: give --out, --markdown or both")

    rows = read_rows(args.csv)
    vals = values(rows, args.metric, args.kernel, args.csv)
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
                ratios[(workload, p)].append(base / per[p] if args.gain else per[p] / base)
    workloads = list(OrderedDict.fromkeys(w for (w, _s) in sorted(vals)))
    bars = {p: [sum(ratios[(w, p)]) / len(ratios[(w, p)]) if ratios[(w, p)] else float("nan") for w in workloads]
            for p in policies}
    gmean = {p: geomean(bars[p]) for p in policies}
    names = [label(w, workloads).replace("\n", " ") for w in workloads]
    geo_of_group = None
    if args.by == "kernels":   # bars become per-group means over workloads
        # a group: the kernel count and whatever else of the workload varies but the mix
        counts = kernel_counts(rows)
        group_of = {w: (counts[w], w[0], w[2], w[3]) for w in workloads}
        groups_sorted = sorted(set(group_of.values()))
        members = {g: [i for i, w in enumerate(workloads) if group_of[w] == g] for g in groups_sorted}
        varies = [len({g[k] for g in groups_sorted}) > 1 for k in range(4)]
        names = [" ".join([f"{g[0]} kernels"] + [str(g[k]) for k in (1, 2, 3) if varies[k]]) +
                 f" ({len(members[g])} workloads)" for g in groups_sorted]
        group_labels = ["\n".join([f"{g[0]} kernels"] + [str(g[k]) for k in (1, 2, 3) if varies[k]]) +
                        f"\n({len(members[g])})" for g in groups_sorted]
        geo_of_group = {p: [geomean([bars[p][i] for i in members[g]]) for g in groups_sorted] for p in policies}
        bars = {p: [sum(bars[p][i] for i in members[g]) / len(members[g]) for g in groups_sorted] for p in policies}

    metric_name = "NTT of the top-priority kernel" if args.metric == "ntt-top" else args.metric.upper()
    what = metric_name + (f" of {args.kernel}" if args.kernel else "")
    ratio = f"{args.baseline} / policy" if args.gain else f"policy / {args.baseline}"
    if args.markdown:
        first = "kernels per workload" if args.by == "kernels" else "workload"
        print(f"| {first} | " + " | ".join(policies) + " |")
        print("|---|" + "---:|" * len(policies))
        for i, n in enumerate(names):
            cells = [f"{bars[p][i]:.3f}" + (f" ({geo_of_group[p][i]:.3f})" if geo_of_group else "") for p in policies]
            print(f"| {n} | " + " | ".join(cells) + " |")
        print("| **geomean** | " + " | ".join(f"**{gmean[p]:.3f}**" for p in policies) + " |")
        per = (" per group: arithmetic mean over its workloads (geometric mean);" if geo_of_group else "")
        print(f"\n{what}, {ratio} (mean over seeds;{per} {len(workloads)} workloads; geomean row: over all workloads)")
    if not args.out:
        return 0

    plt = plotlib.pyplot("sweep_bars.py")
    groups = ([label(w, workloads) for w in workloads] if args.by == "workload" else group_labels) + ["GMEAN"]
    n = len(policies)
    width = 0.8 / max(n, 1)
    fig, ax = plt.subplots(figsize=(min(12.0, max(6.0, 0.35 * len(groups) * max(n, 2) + 2)), 5.2 if len(groups) > 12 else 4.2))
    for i, p in enumerate(policies):
        xs = [g + (i - (n - 1) / 2) * width for g in range(len(groups))]
        ax.bar(xs, bars[p] + [gmean[p]], width, label=p)
    if args.log:
        ax.set_yscale("log")
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.axvline(len(groups) - 1.5, color="grey", linewidth=0.5, linestyle=":")
    ax.set_xticks(range(len(groups)))
    # Many workloads (Warped-Slicer's 30 pairs): slanted labels, which would overlap level.
    slant = len(groups) > 12
    ax.set_xticklabels(groups, fontsize=8, rotation=55 if slant else 0, ha="right" if slant else "center",
                       rotation_mode="anchor" if slant else "default")
    ax.set_ylabel(f"{what}: {ratio}")
    better = {"stp": "higher is better", "antt": "lower is better", "strictf": "higher is fairer",
              "cycles": "lower is better", "ntt": "lower is better", "ntt-top": "lower is better"}[args.metric]
    if args.gain:
        better = "higher is better" if better == "lower is better" else "lower is better"
    ax.set_title(args.title or f"{what}, {ratio} ({better})")
    label_lines = max(g.count("\n") + 1 for g in groups)   # the legend goes below the tick labels
    if slant:   # above the axes: below, the slanted labels take a height that depends on their length
        ax.set_title(ax.get_title(), pad=22)
        ax.legend(fontsize=8, ncol=min(n, 8), loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    else:
        ax.legend(fontsize=8, ncol=min(n, 8), loc="upper center", bbox_to_anchor=(0.5, -0.06 - 0.055 * label_lines),
                  frameon=False)
    plotlib.save(fig, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(plotlib.run("sweep_bars.py", main))
