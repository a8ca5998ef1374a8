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

Mixes of more kernels (Sec. 6.4, `combos`: sim_top/sweeps/hetero-quads.json and its baseline)
are grouped by their class counts, 3T1L = three Thick-TLP kernels and one Lean-TLP kernel.

--pairs adds one row per mix (each policy's STP and ANTT gains). --single adds Fig. 9 (Sec. 6.3):
each kernel's IPC alone on the heterogeneous GPU over its IPC alone on the conventional one, from
the sweeps' alone runs. --out OUT writes OUT.png and OUT.svg: the mean gains per policy and group
(bars).
"""
import argparse
import os
import sys
from collections import OrderedDict

import plotlib

# Table 3's TLP classes (docs/workloads.md)
LEAN_ORDER = ("hc.LAVAMD", "hc.SYRK", "hc.KMEANS", "hc.SYR2K", "hc.NN", "hc.SC")
THICK_ORDER = ("hc.FDTD3D", "hc.NQU", "hc.STO", "hc.B+TREE", "hc.DXTC", "hc.HISTO")
THICK = set(THICK_ORDER)
LEAN = set(LEAN_ORDER)
TABLE3 = LEAN_ORDER + THICK_ORDER
ORDER = ("hetero-agnostic", "hetero-class", "hetero-stp", "hetero-balanced", "hetero-dynamic")


def fail(msg):
    plotlib.fail("hetero_pairs.py", msg)


def read_windows(out_dir):
    """{(mix, policy): {kernel: {"ipc", "ipc_alone"}}} from OUT_DIR/windows.csv; a malformed file
    is a plotlib.InputError naming the file, the line and the field."""
    path = os.path.join(out_dir, "windows.csv")
    if not os.path.exists(path):
        fail("%s: no windows.csv (is it the output folder of a fixed-window sweep?)" % out_dir)
    runs = OrderedDict()
    for r in plotlib.read_csv(path, {"mix", "policy", "kernel", "ipc", "ipc_alone"}, numbers=("ipc", "ipc_alone"),
                              what="a fixed-window sweep's windows.csv"):
        k = runs.setdefault((r["mix"], r["policy"]), OrderedDict())
        k[r["kernel"]] = {"ipc": r["ipc"], "ipc_alone": r["ipc_alone"]}
    return runs


def group_of(kernels):
    """Pairs: heterogeneous (one Thick-TLP, one Lean-TLP kernel) or homogeneous; larger mixes
    by their counts, as Sec. 6.4 names them: 3T1L = three Thick-TLP kernels and one Lean-TLP."""
    classes = ["thick" if k in THICK else "lean" if k in LEAN else "?" for k in kernels]
    if "?" in classes:
        return "other"
    if len(kernels) == 2:
        return "heterogeneous" if classes[0] != classes[1] else "homogeneous"
    return "%dT%dL" % (classes.count("thick"), classes.count("lean"))


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
    seen = []
    for r in pairs.values():
        if r["group"] not in seen:
            seen.append(r["group"])
    first = [g for g in ("heterogeneous", "homogeneous") if g in seen]
    for group in first + sorted(g for g in seen if g not in first) + ["all"]:
        out[group] = OrderedDict()
        for p in policies:
            rows = [r[p] for r in pairs.values() if p in r and (group == "all" or r["group"] == group)]
            if rows:
                out[group][p] = (sum(x[0] for x in rows) / len(rows), sum(x[1] for x in rows) / len(rows), len(rows))
    return out


# Sec. 6.3 (Fig. 9): the single-kernel changes on HeteroCore the text gives: B+TREE -6.3% (the
# largest loss), NN +9.9%, SC +46.6%, FDTD3D +19.9%; NQU, STO, DXTC and HISTO "experience a
# performance degradation of at most 6.3 percent"; the others are "largely unaffected".
PAPER_SINGLE = {"hc.B+TREE": "-6.3%", "hc.NN": "+9.9%", "hc.SC": "+46.6%", "hc.FDTD3D": "+19.9%",
                "hc.NQU": "0 to -6.3%", "hc.STO": "0 to -6.3%", "hc.DXTC": "0 to -6.3%", "hc.HISTO": "0 to -6.3%"}


def single(hetero_dir, base_dir):
    """Fig. 9: {kernel: (IPC alone on the heterogeneous GPU, on the conventional GPU)} over the
    window, from both sweeps' ipc_alone (a kernel's alone run is the same in every mix and policy
    of a sweep; a sweep where it is not fails)."""
    out = OrderedDict()
    for idx, d in ((0, hetero_dir), (1, base_dir)):
        for (mix, _), ks in read_windows(d).items():
            for k, v in ks.items():
                row = out.setdefault(k, [None, None])
                if row[idx] is not None and abs(row[idx] - v["ipc_alone"]) > 1e-6 * max(1.0, row[idx]):
                    fail("%s: %s alone: IPC %g in %s, %g before" % (d, k, v["ipc_alone"], mix, row[idx]))
                row[idx] = v["ipc_alone"]
    return OrderedDict((k, tuple(v)) for k, v in out.items() if None not in v and v[1] > 0)


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
    ap.add_argument("--single", action="store_true",
                    help="Fig. 9 too: each kernel alone on the heterogeneous GPU against the conventional one")
    a = ap.parse_args()
    plotlib.inputs(a.hetero_dir, a.base_dir)
    policies, pairs, _ = analyse(a.hetero_dir, a.base_dir)
    if not pairs:
        fail("%s: no runs" % a.hetero_dir)
    m = means(policies, pairs)
    head = ["group", "n"] + ["%s STP" % p for p in policies] + ["%s ANTT" % p for p in policies]
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
        head = ["mix", "group"] + ["%s STP" % p for p in policies] + ["%s ANTT" % p for p in policies]
        rows = [[" + ".join(r["kernels"]), r["group"]] + [pct(r[p][0]) if p in r else "-" for p in policies] +
                [pct(r[p][1]) if p in r else "-" for p in policies] for r in pairs.values()]
        plotlib.print_table(head, rows, a.markdown)
    if a.single:
        print()
        head = ["kernel", "Table 3", "IPC alone: conventional", "heterogeneous", "change", "paper (Sec. 6.3)"]
        rows = []
        for k, (h, c) in sorted(single(a.hetero_dir, a.base_dir).items(),
                                key=lambda kv: (TABLE3.index(kv[0]) if kv[0] in TABLE3 else len(TABLE3), kv[0])):
            cls = "Thick" if k in THICK else "Lean" if k in LEAN else "?"
            paper = PAPER_SINGLE.get(k, "about 0")
            rows.append([k, cls, "%.3f" % c, "%.3f" % h, pct(h / c - 1), paper])
        plotlib.print_table(head, rows, a.markdown)
    if a.out:
        plot(m, policies, a.out)


if __name__ == "__main__":
    sys.exit(plotlib.run("hetero_pairs.py", main))
