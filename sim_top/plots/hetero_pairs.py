#!/usr/bin/env python3
"""HeteroCore (Zhao et al., TPDS 2019) Sec. 6 from two fixed-window sweeps: the pairs on the
heterogeneous GPU under its policies, and the same pairs on the conventional GPU.

  hetero_pairs.py HETERO_DIR BASE_DIR [--markdown] [--pairs] [--out OUT]

HETERO_DIR and BASE_DIR are `gsim sweep` output folders (their windows.csv), e.g. of
sim_top/sweeps/hetero-pairs.json and sim_top/sweeps/hetero-pairs-baseline.json:

  gsim sweep sim_top/sweeps/hetero-pairs.json -j2 --out sweep-results/hetero-pairs
  gsim sweep sim_top/sweeps/hetero-pairs-baseline.json -j2 --out sweep-results/hetero-pairs-baseline
  python3 sim_top/plots/hetero_pairs.py sweep-results/hetero-pairs sweep-results/hetero-pairs-baseline --markdown

Every figure is normalized to the conventional GPU, as the paper reports them ("compared to our
baseline GPU"): a kernel's IPC alone is its IPC alone on the conventional GPU over the same window
(the baseline sweep's `ipc_alone`), so for a pair run
    STP  = sum over its kernels of IPC / IPC_alone(conventional)
    ANTT = mean over its kernels of IPC_alone(conventional) / IPC
and the conventional GPU's own pair run (its one policy: spatial, the even SM partitioning the
paper's Fig. 4 compares with) gives STP_conv and ANTT_conv. A
policy's gains on a pair are STP / STP_conv - 1 and 1 - ANTT / ANTT_conv (ANTT: lower is better,
so a positive gain is a shorter turnaround); the table gives their arithmetic means over the pairs
of each group. Groups by Table 3's TLP classes (below): heterogeneous = one Thick-TLP and one
Lean-TLP kernel, homogeneous = two of a class.

--pairs adds one row per pair (each policy's STP and ANTT gains). --out OUT writes OUT.png and
OUT.svg: the mean gains per policy and group (bars).
"""
import argparse
import csv
import os
import sys
from collections import OrderedDict

import plotlib

# Table 3's TLP classes (docs/workloads.md)
THICK = {"hc.FDTD3D", "hc.NQU", "hc.STO", "hc.B+TREE", "hc.DXTC", "hc.HISTO"}
LEAN = {"hc.LAVAMD", "hc.SYRK", "hc.KMEANS", "hc.SYR2K", "hc.NN", "hc.SC"}
ORDER = ("hetero-agnostic", "hetero-class", "hetero-stp", "hetero-balanced", "hetero-dynamic")


def fail(msg):
    sys.stderr.write("hetero_pairs.py: %s\n" % msg)
    sys.exit(2)


def read_windows(out_dir):
    """{(mix, policy): {kernel: {"ipc", "ipc_alone"}}} from OUT_DIR/windows.csv."""
    path = os.path.join(out_dir, "windows.csv")
    if not os.path.exists(path):
        fail("%s: no windows.csv (is it the output folder of a fixed-window sweep?)" % out_dir)
    runs = OrderedDict()
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            try:
                k = runs.setdefault((r["mix"], r["policy"]), OrderedDict())
                k[r["kernel"]] = {"ipc": float(r["ipc"]), "ipc_alone": float(r["ipc_alone"])}
            except (KeyError, ValueError) as e:
                fail("%s: malformed row (%s)" % (path, e))
    return runs


def group_of(kernels):
    classes = ["thick" if k in THICK else "lean" if k in LEAN else "?" for k in kernels]
    if "?" in classes:
        return "other"
    return "heterogeneous" if classes[0] != classes[1] else "homogeneous"


def figures(kernels, alone_conv):
    """(STP, ANTT) of one run's kernels, normalized to the conventional GPU's alone IPCs."""
    stp = sum(v["ipc"] / alone_conv[k] for k, v in kernels.items())
    antt = sum(alone_conv[k] / v["ipc"] if v["ipc"] > 0 else float("inf") for k, v in kernels.items()) / len(kernels)
    return stp, antt


def analyse(hetero_dir, base_dir):
    het = read_windows(hetero_dir)
    base = read_windows(base_dir)
    conv = OrderedDict()   # mix -> (STP_conv, ANTT_conv, alone IPCs)
    for (mix, policy), ks in base.items():
        if mix in conv:
            fail("%s: two baseline runs of %s (give the conventional GPU one policy)" % (base_dir, mix))
        alone = {k: v["ipc_alone"] for k, v in ks.items()}
        if any(a <= 0 for a in alone.values()):
            fail("%s: %s: a kernel issued nothing alone" % (base_dir, mix))
        conv[mix] = figures(ks, alone) + (alone,)
    policies = [p for p in ORDER if any(pol == p for (_, pol) in het)]
    policies += sorted({pol for (_, pol) in het} - set(policies))
    pairs = OrderedDict()   # mix -> {"group", "kernels", policy: (stp_gain, antt_gain, stp, antt)}
    for (mix, policy), ks in het.items():
        if mix not in conv:
            fail("%s: mix %s has no run in %s" % (hetero_dir, mix, base_dir))
        stp_c, antt_c, alone = conv[mix]
        if set(ks) != set(alone):
            fail("%s: %s: kernels %s, the baseline has %s" % (hetero_dir, mix, sorted(ks), sorted(alone)))
        stp, antt = figures(ks, alone)
        row = pairs.setdefault(mix, {"group": group_of(list(ks)), "kernels": list(ks)})
        row[policy] = (stp / stp_c - 1, 1 - antt / antt_c, stp, antt)
    return policies, pairs, conv


def means(policies, pairs):
    """{group: {policy: (mean STP gain, mean ANTT gain, n)}} over the pairs with that policy."""
    out = OrderedDict()
    for group in ("heterogeneous", "homogeneous", "all"):
        out[group] = OrderedDict()
        for p in policies:
            rows = [r[p] for r in pairs.values() if p in r and (group == "all" or r["group"] == group)]
            if rows:
                out[group][p] = (sum(x[0] for x in rows) / len(rows), sum(x[1] for x in rows) / len(rows), len(rows))
    return out


def pct(x):
    return "%+.1f%%" % (100 * x)


def plot(m, policies, out):
    plt = plotlib.pyplot("hetero_pairs.py")
    groups = [g for g in m if m[g]]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    width = 0.8 / max(1, len(policies))
    for ax, idx, title in ((axes[0], 0, "STP gain over the conventional GPU"),
                           (axes[1], 1, "ANTT gain over the conventional GPU")):
        for i, p in enumerate(policies):
            ys = [100 * m[g][p][idx] if p in m[g] else 0 for g in groups]
            ax.bar([j + i * width for j in range(len(groups))], ys, width, label=p)
        ax.set_xticks([j + width * (len(policies) - 1) / 2 for j in range(len(groups))])
        ax.set_xticklabels(groups)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set_ylabel("%")
        ax.set_title(title)
    axes[0].legend(fontsize=8, loc="best")
    plotlib.save(fig, out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("hetero_dir")
    ap.add_argument("base_dir")
    ap.add_argument("--markdown", action="store_true", help="Markdown tables")
    ap.add_argument("--pairs", action="store_true", help="one row per pair too")
    ap.add_argument("--out", help="write OUT.png and OUT.svg")
    a = ap.parse_args()
    policies, pairs, _ = analyse(a.hetero_dir, a.base_dir)
    if not pairs:
        fail("%s: no runs" % a.hetero_dir)
    m = means(policies, pairs)
    head = ["pairs", "n"] + ["%s STP" % p for p in policies] + ["%s ANTT" % p for p in policies]
    rows = []
    for g, per in m.items():
        if not per:
            continue
        n = max(v[2] for v in per.values())
        rows.append([g, str(n)] + [pct(per[p][0]) if p in per else "-" for p in policies] +
                    [pct(per[p][1]) if p in per else "-" for p in policies])
    plotlib.print_table(head, rows, a.markdown)
    if a.pairs:
        print()
        head = ["pair", "group"] + ["%s STP" % p for p in policies] + ["%s ANTT" % p for p in policies]
        rows = [[" + ".join(r["kernels"]), r["group"]] + [pct(r[p][0]) if p in r else "-" for p in policies] +
                [pct(r[p][1]) if p in r else "-" for p in policies] for r in pairs.values()]
        plotlib.print_table(head, rows, a.markdown)
    if a.out:
        plot(m, policies, a.out)


if __name__ == "__main__":
    main()
