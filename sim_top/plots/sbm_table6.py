#!/usr/bin/env python3
"""SBM's Fig. 7 and 8 and Table 6 from a sweep of the Table 6 applications: per application the
mix IPC and ANTT_SBM of BASE (sbm-base), MWG, EWM and SBM over the fixed window, SBM's gain over
each, and the configuration SBM chose beside the one Table 6 gives.

  gsim sweep sim_top/sweeps/sbm-table6.json --out sweep-results/sbm-table6
  python3 sim_top/plots/sbm_table6.py sweep-results/sbm-table6 --markdown --out sbm_fig7

The configuration SBM chose is read from the run's last partition (gsim run --json
"partitions", docs/cli.md): separate halves ("spatial") are Base, B<x>_L2 or B<x>_L12 by the
bypass level of task x; both tasks on every SM ("shared") are MWG or MWGB<x>, with the CTAs per
SM of each task (occ_th and the computation-intensive task show there). Table 6's configuration
comes from the mix's notes ("SBM chose ..."). EWM's choice is the run's "ewm" key. Gains are
arithmetic means of the per-application ratios (the paper's "in average"). --out OUT writes
OUT.png and OUT.svg: IPC normalized to BASE per application and policy (Fig. 7); --antt-out
OUT the same for ANTT_SBM (Fig. 8).

  gsim sweep sim_top/sweeps/sbm-fig11.json --out sweep-results/sbm-fig11
  python3 sim_top/plots/sbm_table6.py sweep-results/sbm-fig11 --fig11 --markdown

--phases: per application, SBM's profiling phases as its run recorded them (each phase's
mix IPC in its sample window), the configuration chosen and its sample IPC, beside its IPC
and MWG's over the measured window: where a choice that won its sample loses the window.

--fig11 (Sec. 6.5, Fig. 11): the sweep's sbm runs grouped by profiling window (the config
variant of `sets`, "warm-up+sample" in K cycles); per application each window's IPC divided by
the best window's, and the mean per window (Fig. 11's "IPC normalized to the optimal profiling
IPC"), with the configuration each window made SBM choose.
"""
import argparse
import json
import os
import re
import sys
from collections import OrderedDict

import plotlib

POLICIES = (("sbm-base", "BASE"), ("mwg", "MWG"), ("ewm", "EWM"), ("sbm", "SBM"))


def fail(msg):
    plotlib.fail("sbm_table6.py", msg)


def read_run(out_dir, run_id):
    """The run JSON of a sweep row (plotlib.Node: a missing field names the file and the field)."""
    return plotlib.read_json(os.path.join(out_dir, "runs", run_id + ".json"), "a gsim run --json result")


def chosen_config(run):
    """Table 3's name of the configuration in force at the end of a run, from its partitions."""
    parts = run.objects("partitions", [])
    if not len(parts):
        return "-"
    return partition_config(parts[-1])


def partition_config(last):
    """Table 3's name of one partition record's configuration (with the quotas when shared)."""
    ks = last.objects("kernels")
    if len(ks) != 2:
        return "-"
    bypassed = [i + 1 for i, k in enumerate(ks) if k.get("bypass", "none") != "none"]
    if last["mode"] == "spatial":
        if not bypassed:
            return "Base"
        level = ks[bypassed[0] - 1]["bypass"]
        return "B%d_%s" % (bypassed[0], "L12" if level == "l1l2" else "L2")
    quotas = "%d+%d" % tuple(k.integer("ctas_per_sm") if "ctas_per_sm" in k else 0 for k in ks)
    return ("MWGB%d" % bypassed[0] if bypassed else "MWG") + " " + quotas


def paper_config(mix_file):
    try:
        with open(mix_file) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return "?"
    notes = doc.get("notes", []) if isinstance(doc, dict) else []
    for n in notes if isinstance(notes, list) else [notes]:
        if not isinstance(n, str):
            continue
        m = re.search(r"SBM chose ([A-Za-z0-9_]+)", n)
        if m:
            return m.group(1)
    return "?"


def read_sweep(out_dir):
    """application -> {policy: {"ipc", "antt_sbm", "config", ...}}, in windows.csv order."""
    path = os.path.join(out_dir, "windows.csv")
    if not os.path.exists(path):
        fail("%s: no such file (run the sweep first)" % path)
    apps = OrderedDict()
    need = {"run_id", "mix", "policy", "mix_ipc", "antt_sbm"}
    for row in plotlib.read_csv(path, need, numbers=("mix_ipc", "antt_sbm"), what="a fixed-window sweep's windows.csv"):
        app = row["mix"]
        pol = row["policy"]
        if pol not in dict(POLICIES):
            continue
        rec = apps.setdefault(app, {}).setdefault(pol, {})
        if rec:
            continue   # one row per kernel: the run's figures are on every row
        rec["ipc"] = row["mix_ipc"]
        rec["run_id"] = row["run_id"]
        rec["antt_sbm"] = row["antt_sbm"]
        run = read_run(out_dir, row["run_id"])
        rec["config"] = chosen_config(run)
        if "ewm" in run:
            rec["ewm"] = "CI %s occ_th %d" % (run["ewm"]["ci"], run["ewm"].integer("occ_th"))
        args = run.get("sweep_inputs", {}).get("args", []) if "sweep_inputs" in run else []
        if "--mix" in args:
            rec["mix_file"] = args[list(args).index("--mix") + 1]
    if not apps:
        fail("%s: no runs of %s" % (path, ", ".join(p for p, _ in POLICIES)))
    return apps


def table(apps):
    head = ["application", "Table 6", "SBM chose", "EWM chose"] + ["IPC " + n for _, n in POLICIES] + \
           ["ANTT " + n for _, n in POLICIES]
    rows = []
    ratios = {p: [] for p, _ in POLICIES}
    antt_ratios = {p: [] for p, _ in POLICIES}
    for app, pols in apps.items():
        sbm = pols.get("sbm", {})
        mix_file = next((r.get("mix_file") for r in pols.values() if r.get("mix_file")), None)
        row = [app.replace("sbm-t6-", ""), paper_config(mix_file) if mix_file else "?", sbm.get("config", "-"),
               pols.get("ewm", {}).get("ewm", "-")]
        row += ["%.2f" % pols[p]["ipc"] if p in pols else "-" for p, _ in POLICIES]
        row += ["%.3f" % pols[p]["antt_sbm"] if p in pols else "-" for p, _ in POLICIES]
        rows.append(row)
        if "ipc" in sbm:
            for p, _ in POLICIES:
                if p in pols and pols[p]["ipc"] > 0:
                    ratios[p].append(sbm["ipc"] / pols[p]["ipc"])
                    antt_ratios[p].append(sbm["antt_sbm"] / pols[p]["antt_sbm"])
    gains = [(n, 100 * (sum(ratios[p]) / len(ratios[p]) - 1), 100 * (sum(antt_ratios[p]) / len(antt_ratios[p]) - 1),
              max(ratios[p]) * 100 - 100, len(ratios[p]))
             for p, n in POLICIES if p != "sbm" and ratios[p]]
    return head, rows, gains


def print_table(head, rows, gains, markdown):
    plotlib.print_table(head, rows, markdown)
    print()
    if markdown:
        print("| SBM over | IPC (mean of ratios) | ANTT_SBM (mean of ratios; negative = better) | best IPC gain | applications |")
        print("|---|---|---|---|---|")
        for n, g, a, best, k in gains:
            print("| %s | %+.1f%% | %+.1f%% | %+.1f%% | %d |" % (n, g, a, best, k))
    else:
        for n, g, a, best, k in gains:
            print("SBM over %-4s IPC %+.1f%%  ANTT_SBM %+.1f%%  best %+.1f%%  (%d applications)" % (n, g, a, best, k))


def plot(apps, out, key="ipc", ylabel="IPC normalized to BASE"):
    """Per application and policy, `key` ("ipc" for Fig. 7, "antt_sbm" for Fig. 8) divided by
    BASE's."""
    plt = plotlib.pyplot("sbm_table6.py")
    names = [a.replace("sbm-t6-", "") for a in apps]
    fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(names)), 4))
    width = 0.8 / len(POLICIES)
    for i, (p, label) in enumerate(POLICIES):
        vals = []
        for a in apps.values():
            base = a.get("sbm-base", {}).get(key, 0)
            vals.append(a[p][key] / base if p in a and base > 0 else 0)
        ax.bar([j + (i - (len(POLICIES) - 1) / 2) * width for j in range(len(names))], vals, width, label=label)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_ylabel(ylabel)
    ax.legend(ncol=len(POLICIES), loc="upper center", bbox_to_anchor=(0.5, -0.3), frameon=False)
    plotlib.save(fig, out)


def window_label(config, where="config"):
    """'sbm-gcn32{sbm.warmup_cycles=0,sbm.sample_cycles=15000}' -> '0K+15K' (the config's own: 'defaults');
    `where` names the field in errors."""
    m = re.search(r"\{(.*)\}", config)
    if not m:
        return "defaults"
    kv = dict(x.split("=", 1) for x in re.split(r"[,;] ?", m.group(1)) if "=" in x)
    try:
        warm = int(kv.get("sbm.warmup_cycles", -1))
        sample = int(kv.get("sbm.sample_cycles", -1))
    except ValueError:
        raise plotlib.InputError("%s is '%s': sbm.warmup_cycles and sbm.sample_cycles must be integers" % (where, config))
    k = lambda v: "?" if v < 0 else ("%gK" % (v / 1000))
    return "%s+%s" % (k(warm), k(sample))


def fig11(out_dir, markdown):
    path = os.path.join(out_dir, "windows.csv")
    if not os.path.exists(path):
        fail("%s: no such file (run the sweep first)" % path)
    ipc = OrderedDict()      # application -> {window: ipc}
    chose = OrderedDict()    # application -> {window: configuration}
    windows = []
    for row in plotlib.read_csv(path, {"run_id", "mix", "policy", "config", "mix_ipc"}, numbers=("mix_ipc",),
                                what="a fixed-window sweep's windows.csv"):
        if row["policy"] != "sbm":
            continue
        w = window_label(row["config"], "%s line %d: field 'config'" % (path, row.line))
        if w not in windows:
            windows.append(w)
        app = row["mix"].replace("sbm-t6-", "")
        if w in ipc.setdefault(app, {}):
            continue
        ipc[app][w] = row["mix_ipc"]
        chose.setdefault(app, {})[w] = chosen_config(read_run(out_dir, row["run_id"]))
    if not ipc:
        fail("%s: no sbm runs" % path)
    head = ["application"] + windows + ["chosen (" + ", ".join(windows) + ")"]
    rows = []
    sums = {w: [] for w in windows}
    for app, by_w in ipc.items():
        best = max(by_w.values())
        row = [app]
        for w in windows:
            if w in by_w and best > 0:
                sums[w].append(by_w[w] / best)
                row.append("%.3f" % (by_w[w] / best))
            else:
                row.append("-")
        row.append(" / ".join(chose[app].get(w, "-") for w in windows))
        rows.append(row)
    rows.append(["mean"] + ["%.3f" % (sum(v) / len(v)) if v else "-" for v in sums.values()] + [""])
    plotlib.print_table(head, rows, markdown)


def phases(out_dir, markdown):
    """Per application, SBM's profiling phases as the sbm run recorded them (gsim run --json
    "partitions" and "windows", docs/cli.md "Policy reports"; a window measured the last partition
    before it): each phase's mix IPC in its sample, the configuration chosen and its sample IPC,
    beside the IPC of that configuration and of MWG over the measured window."""
    apps = read_sweep(out_dir)
    head = ["application", "SBM chose", "its sample IPC", "its window IPC", "MWG window IPC",
            "phase sample IPCs (Base B1_L12 B2_L12 B1_L2 B2_L2 / tuning occ_th 0..)"]
    rows = []
    for app, pols in apps.items():
        if "sbm" not in pols:
            continue
        run = read_run(out_dir, pols["sbm"]["run_id"])
        parts, windows = run.objects("partitions", []), run.objects("windows", [])
        ipcs, chosen_ipc = [], "-"
        final = partition_config(parts[-1]) if len(parts) else "-"
        for w in windows:
            before = [p for p in parts if p.integer("cycle") <= w.integer("cycle")]
            if not before:
                fail("%s: run %s: a window at cycle %d before any partition" % (out_dir, pols["sbm"]["run_id"],
                                                                                  w.integer("cycle")))
            span = w.num("to") - w.num("from")
            ipc = sum(k.num("insts") for k in w.objects("kernels")) / span if span > 0 else 0.0
            ipcs.append(ipc)
            if partition_config(before[-1]) == final:
                chosen_ipc = "%.2f" % ipc
        cells = ["%.2f" % x for x in ipcs]
        shown = " ".join(cells[:5]) + (" / " + " ".join(cells[5:]) if len(cells) > 5 else "")
        rows.append([app.replace("sbm-t6-", ""), final, chosen_ipc, "%.2f" % pols["sbm"]["ipc"],
                     "%.2f" % pols["mwg"]["ipc"] if "mwg" in pols else "-", shown])
    if not rows:
        fail("%s: no sbm runs" % out_dir)
    plotlib.print_table(head, rows, markdown)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sweep_dir", help="the --out directory of gsim sweep sim_top/sweeps/sbm-table6.json")
    ap.add_argument("--markdown", action="store_true", help="markdown tables")
    ap.add_argument("--out", help="write OUT.png and OUT.svg (Fig. 7: IPC normalized to BASE)")
    ap.add_argument("--antt-out", help="write OUT.png and OUT.svg (Fig. 8: ANTT_SBM normalized to BASE)")
    ap.add_argument("--fig11", action="store_true",
                    help="Fig. 11: sbm's IPC per profiling window (the sweep's sets), normalized to the best")
    ap.add_argument("--phases", action="store_true",
                    help="SBM's profiling phases per application: sample IPCs, the choice, its window IPC")
    a = ap.parse_args()
    plotlib.inputs(a.sweep_dir)
    if a.phases:
        phases(a.sweep_dir, a.markdown)
        return
    if a.fig11:
        fig11(a.sweep_dir, a.markdown)
        return
    apps = read_sweep(a.sweep_dir)
    head, rows, gains = table(apps)
    print_table(head, rows, gains, a.markdown)
    if a.out:
        plot(apps, a.out)
    if a.antt_out:
        plot(apps, a.antt_out, "antt_sbm", "ANTT_SBM normalized to BASE\n(lower is better)")


if __name__ == "__main__":
    sys.exit(plotlib.run("sbm_table6.py", main))
