#!/usr/bin/env python3
"""CTest hetero_pairs_table / hetero_pairs_plot: sim_top/plots/hetero_pairs.py on two small
fixed-window sweeps run here (two HeteroCore pairs on heterocore under hetero-agnostic and
hetero-dynamic with spatial profiling shortened by `sets`, and the same pairs on
heterocore-baseline under spatial; for the table, also a four-kernel `combos` workload on both GPUs).

  test_hetero_pairs.py GSIM OUTDIR table   every gain is recomputed here from the two windows.csv
                                           (STP and ANTT normalized to the conventional GPU's
                                           alone IPCs), per pair and as group means;
                                           --single's per-kernel change (Fig. 9); a four-kernel
                                           workload's group (2T2L) and gain
  test_hetero_pairs.py GSIM OUTDIR plot    PNG and SVG written and well formed
                                           (exit 77 = skipped, when matplotlib is not installed)
"""
import csv
import json
import os
import subprocess
import sys

import drawing_checks

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "sim_top", "plots", "hetero_pairs.py")
PAIRS = {"kernels": ["hc.FDTD3D", "hc.SYRK", "hc.LAVAMD"], "with": ["hc.SYRK", "hc.LAVAMD"], "order": "unordered",
         "window_cycles": 30000}


QUAD = {"kernels": [["hc.FDTD3D"], ["hc.NQU"], ["hc.SYRK"], ["hc.NN"]], "window_cycles": 30000}


def sweep(gsim, out, name, config, policies, sets=None, combos=None):
    spec = {"name": name, "configs": [config], "policies": policies, "scheduler": "golden"}
    if combos:
        spec["combos"] = combos
    else:
        spec["pairs"] = PAIRS
    if sets:
        spec["sets"] = sets
    path = os.path.join(out, name + ".json")
    with open(path, "w") as f:
        json.dump(spec, f)
    subprocess.run([gsim, "sweep", path, "--out", os.path.join(out, name), "-q"], check=True)
    return os.path.join(out, name)


def cells_of(line):
    return [c.strip() for c in line.strip("|").split("|")]


def rows_of(d):
    runs = {}
    with open(os.path.join(d, "windows.csv"), newline="") as f:
        for r in csv.DictReader(f):
            runs.setdefault((r["mix"], r["policy"]), {})[r["kernel"]] = (float(r["ipc"]), float(r["ipc_alone"]))
    return runs


def main():
    gsim, out, what = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    het = sweep(gsim, out, "het", "heterocore", ["hetero-agnostic", "hetero-dynamic"],
                [["hetero.warmup_cycles=2000", "hetero.sample_cycles=2000"]])
    base = sweep(gsim, out, "base", "heterocore-baseline", ["spatial"])

    if what == "table":
        p = subprocess.run([sys.executable, SCRIPT, het, base, "--markdown", "--pairs"], check=True,
                           stdout=subprocess.PIPE, text=True)
        tables = [[l for l in block.splitlines() if l.startswith("| ")] for block in p.stdout.split("\n\n")]
        means, per_pair = tables[0], tables[1]
        h, b = rows_of(het), rows_of(base)
        want = {}
        for (mix, pol), ks in h.items():
            alone = {k: v[1] for k, v in b[(mix, "spatial")].items()}
            stp = sum(v[0] / alone[k] for k, v in ks.items())
            antt = sum(alone[k] / v[0] for k, v in ks.items()) / len(ks)
            bk = b[(mix, "spatial")]
            stp_c = sum(v[0] / alone[k] for k, v in bk.items())
            antt_c = sum(alone[k] / v[0] for k, v in bk.items()) / len(bk)
            want[(" + ".join(ks), pol)] = (100 * (stp / stp_c - 1), 100 * (1 - antt / antt_c))
        assert len(per_pair) == 1 + 3, per_pair   # header, three pairs (the rule starts "|---")
        head = [c.strip() for c in per_pair[0].strip("|").split("|")]
        for line in per_pair[1:]:
            cells = [c.strip() for c in line.strip("|").split("|")]
            for pol in ("hetero-agnostic", "hetero-dynamic"):
                s = float(cells[head.index(pol + " STP")].rstrip("%"))
                a = float(cells[head.index(pol + " ANTT")].rstrip("%"))
                ws, wa = want[(cells[0], pol)]
                assert abs(s - ws) < 0.06 and abs(a - wa) < 0.06, (cells[0], pol, s, a, ws, wa)
        groups = {c.strip("| ").split("|")[0].strip(): c for c in means[1:]}
        assert set(groups) == {"heterogeneous", "homogeneous", "all"}, groups   # FDTD3D thick, SYRK and LAVAMD lean
        mh = [c.strip() for c in means[0].strip("|").split("|")]
        cells = [c.strip() for c in groups["all"].strip("|").split("|")]
        for pol in ("hetero-agnostic", "hetero-dynamic"):
            mean_stp = sum(v[0] for (pair, p), v in want.items() if p == pol) / 3
            assert abs(float(cells[mh.index(pol + " STP")].rstrip("%")) - mean_stp) < 0.06, (pol, cells, mean_stp)
        # Fig. 9: each kernel's IPC alone, heterogeneous over conventional
        p = subprocess.run([sys.executable, SCRIPT, het, base, "--markdown", "--single"], check=True,
                           stdout=subprocess.PIPE, text=True)
        fig9 = [l for l in p.stdout.split("\n\n")[-1].splitlines() if l.startswith("| ")]
        head = cells_of(fig9[0])
        alone_h = {k: v[1] for ks in h.values() for k, v in ks.items()}
        alone_b = {k: v[1] for ks in b.values() for k, v in ks.items()}
        assert [cells_of(l)[0] for l in fig9[1:]] == ["hc.LAVAMD", "hc.SYRK", "hc.FDTD3D"], fig9   # Table 3 order
        for line in fig9[1:]:
            c = cells_of(line)
            want_change = 100 * (alone_h[c[0]] / alone_b[c[0]] - 1)
            assert abs(float(c[head.index("change")].rstrip("%")) - want_change) < 0.06, (c, want_change)
            assert abs(float(c[head.index("IPC alone: conventional")]) - alone_b[c[0]]) < 6e-4, (c, alone_b)
        assert cells_of(fig9[3])[head.index("paper (Sec. 6.3)")] == "+19.9%", fig9   # FDTD3D
        # a four-kernel workload (Sec. 6.4): grouped by its class counts, its gain recomputed
        het4 = sweep(gsim, out, "het4", "heterocore", ["hetero-dynamic"],
                     [["hetero.warmup_cycles=2000", "hetero.sample_cycles=2000"]], QUAD)
        base4 = sweep(gsim, out, "base4", "heterocore-baseline", ["spatial"], None, QUAD)
        p = subprocess.run([sys.executable, SCRIPT, het4, base4, "--markdown"], check=True,
                           stdout=subprocess.PIPE, text=True)
        m4 = [l for l in p.stdout.splitlines() if l.startswith("| ")]
        assert [cells_of(l)[0] for l in m4[1:]] == ["2T2L", "all"], m4
        (mix, _), ks = next(iter(rows_of(het4).items()))
        bk = rows_of(base4)[(mix, "spatial")]
        alone = {k: v[1] for k, v in bk.items()}
        want4 = 100 * (sum(v[0] / alone[k] for k, v in ks.items()) / sum(v[0] / alone[k] for k, v in bk.items()) - 1)
        got4 = float(cells_of(m4[1])[cells_of(m4[0]).index("hetero-dynamic STP")].rstrip("%"))
        assert abs(got4 - want4) < 0.06, (m4, want4)
        print("ok: three pairs, two policies, gains recomputed against the conventional GPU; Fig. 9 per kernel; "
              "a 2T2L four-kernel workload")
    elif what == "plot":
        if drawing_checks.matplotlib_missing():
            sys.exit(77)
        stem = os.path.join(out, "hetero")
        subprocess.run([sys.executable, SCRIPT, het, base, "--out", stem], check=True, stdout=subprocess.PIPE)
        drawing_checks.check_drawing(stem, "ANTT gain over the conventional GPU", "the ANTT panel's title")
    else:
        sys.exit("unknown part " + what)


if __name__ == "__main__":
    main()
