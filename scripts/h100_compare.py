#!/usr/bin/env python3
"""Compares the h100 preset with the real H100 CTA traces (../shared/traces/h100).

Reads the traces (alone.csv.gz, sweep.csv.gz, summary.json), runs gsim on the h100 preset for the
same experiments with the scaled kernels of sim_top/workloads/kernels/h100.json, and prints
side-by-side tables (markdown): per-iteration CTA time alone and at r = 1 CTA per SM, the sweep
throughput curves r x t1 / t_r, the CTA duration spread (p10/p90 over the median) and the gap
between a CTA's end and the next CTA's start on the same SM. Figures are normalised (cycles per
loop iteration, ratios) because the kernels' iterations and waves are scaled down (notes in
h100.json).

Method:
  * alone: `gsim run --kernel h100.K` (2 full waves, the descriptor's grid); the CTA records of
    the run come from `--ctas`;
  * sweep r: the kernel with grid r x 132 and `--cta-limit r` (Left-Over places at most r of its
    CTAs on an SM, so the one wave spreads r per SM, as the traces' launches do), written as a
    one-kernel mix file;
  * trace side: the same statistics from the CSVs (ns at 1980 MHz -> cycles).

Usage: scripts/h100_compare.py [--gsim build-model/sim_top/gsim] [--traces DIR] [--out DIR]
       [--kernels compute,sfu,...] [--plot FILE.png] (needs matplotlib)
Rerunnable: results depend only on the tree (deterministic runs); the gsim outputs are kept in --out.
"""
import argparse
import csv
import gzip
import json
import os
import statistics
import subprocess
import sys
from collections import defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CLOCK_MHZ = 1980
SMS = 132
KERNELS = ["compute", "sfu", "stream", "cache", "uneven"]


def pct(xs, p):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    k = (len(xs) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def units(kernel, cta):
    """Work units of a CTA (the uneven kernel: cta mod 7 + 1)."""
    return (cta % 7 + 1) if kernel == "uneven" else 1


def stats(rows, kernel, iters):
    """rows: (cta, sm, start, end) in cycles. Per-iteration time (median over CTAs of duration /
    (units x iters)), makespan, spread p10/p90 of per-unit durations over the median, and the
    median gap between a CTA's end and the next start on its SM."""
    per_unit = [(e - s) / units(kernel, c) for c, _, s, e in rows]
    med = statistics.median(per_unit)
    by_sm = defaultdict(list)
    for c, sm, s, e in rows:
        by_sm[sm].append((s, e))
    gaps = []
    for lst in by_sm.values():
        lst.sort()
        ends = sorted(e for _, e in lst)
        # For every CTA start after the first wave: the gap to the latest end before it.
        import bisect
        for s, _ in lst:
            i = bisect.bisect_right(ends, s)
            if i > 0:
                gaps.append(s - ends[i - 1])
    span = max(e for _, _, _, e in rows) - min(s for _, _, s, _ in rows)
    work = sum(units(kernel, c) for c, _, _, _ in rows)
    return {
        "iter_cycles": med / iters,
        "span": span,
        "work": work,
        "p10": pct(per_unit, 10) / med,
        "p90": pct(per_unit, 90) / med,
        "gap": statistics.median(gaps) if gaps else float("nan"),
    }


def read_trace(path):
    runs = defaultdict(list)
    with gzip.open(path, "rt") as f:
        for r in csv.DictReader(f):
            cyc = CLOCK_MHZ / 1000.0
            runs[(int(r["run"]), r["kernel"])].append(
                (int(r["block"]), int(r["sm"]), int(r["start_ns"]) * cyc, int(r["end_ns"]) * cyc))
    return runs


def trace_figures(tdir):
    summary = json.load(open(os.path.join(tdir, "summary.json")))
    iters = {k: v["iters"] for k, v in summary["kernels"].items()}
    occ = {k: v["occupancy_blocks_per_sm"] for k, v in summary["kernels"].items()}
    alone, sweep = defaultdict(list), defaultdict(lambda: defaultdict(list))
    for (run, k), rows in read_trace(os.path.join(tdir, "alone.csv.gz")).items():
        alone[k].append(stats(rows, k, iters[k]))
    for (run, k), rows in read_trace(os.path.join(tdir, "sweep.csv.gz")).items():
        r = len(rows) // SMS
        sweep[k][r].append(stats(rows, k, iters[k]))
    med = lambda lst, key: statistics.median(x[key] for x in lst)
    out = {}
    for k in KERNELS:
        a = {key: med(alone[k], key) for key in ("iter_cycles", "p10", "p90", "gap")}
        s = {r: {key: med(v, key) for key in ("iter_cycles", "span", "work", "p10", "p90", "gap")}
             for r, v in sorted(sweep[k].items())}
        out[k] = {"alone": a, "sweep": s, "occ": occ[k], "iters": iters[k],
                  "runtime_ms": summary["alone_runtime_ms"][k]["event_median"]}
    return out


def sim_iters(desc):
    """Loop iterations of a scaled kernel: from its notes ('N iterations|tiles|passes (trace ...')."""
    import re
    m = re.search(r"(\d+)(?: x \(c mod 7 \+ 1\))? (?:iterations|tiles|passes)", desc["notes"])
    return int(m.group(1))


SETS = []   # --set KEY=VALUE passed to every gsim run (calibration experiments)


def run_gsim(gsim, outdir, tag, args):
    ctas = os.path.join(outdir, tag + ".ctas.csv")
    js = os.path.join(outdir, tag + ".json")
    cmd = [gsim, "run", "--config", "h100", "--scheduler", "golden", "-q", "--ctas", ctas, "--json", js] + args
    for kv in SETS:
        cmd += ["--set", kv]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    rows = []
    with open(ctas) as f:
        for r in csv.DictReader(f):
            rows.append((int(r["cta"]), int(r["sm"]), int(r["start_cycle"]), int(r["end_cycle"])))
    return rows, json.load(open(js))


def sim_figures(gsim, outdir, kernels, occ, sweep_rs=None, alone=True):
    lib = json.load(open(os.path.join(ROOT, "sim_top/workloads/kernels/h100.json")))
    descs = {d["name"].split(".", 1)[1]: d for d in lib["kernels"]}
    out = {}
    for k in kernels:
        d = descs[k]
        it = sim_iters(d)
        a = None
        if alone:
            rows, js = run_gsim(gsim, outdir, "alone-" + k, ["--kernel", "h100." + k])
            a = stats(rows, k, it)
            a["json"] = js
        sw = {}
        for r in (sweep_rs or range(1, occ[k] + 1)):
            mix = {"name": "h100-sweep-%s-%d" % (k, r), "config": "h100",
                   "kernels": [{"kernel": "h100." + k, "grid_ctas": r * SMS}]}
            mpath = os.path.join(outdir, "sweep-%s-%d.mix.json" % (k, r))
            with open(mpath, "w") as f:
                json.dump(mix, f)
            rows, js = run_gsim(gsim, outdir, "sweep-%s-%d" % (k, r), ["--mix", mpath, "--cta-limit", str(r)])
            sw[r] = stats(rows, k, it)
            sw[r]["json"] = js
        out[k] = {"alone": a, "sweep": sw, "iters": it}
        print("simulated", k, file=sys.stderr)
    return out


def throughput(sweep):
    """r x t1 / t_r, t_r the median CTA duration per work unit with r CTAs per SM (the traces'
    README definition; for the uneven kernel per unit of c mod 7 + 1)."""
    t1 = sweep[1]["iter_cycles"]
    return {r: r * t1 / v["iter_cycles"] for r, v in sweep.items()}


def counters_line(js):
    """A short counter summary of a gsim --json result (the shared run)."""
    c = js.get("counters", {})
    g = c.get("gpu", c)
    keys = ["ipc", "l1_hit_rate", "l2_hit_rate", "dram_share_of_peak", "stall_memory_share",
            "stall_dependency_share", "stall_functional_unit_share", "stall_idle_share"]
    parts = []
    for key in keys:
        if isinstance(g, dict) and key in g and isinstance(g[key], (int, float)):
            parts.append("%s %.3g" % (key, g[key]))
    d = c.get("dram", {})
    if isinstance(d, dict) and isinstance(d.get("row_buffer_hit_rate"), (int, float)) and d.get("bytes"):
        parts.append("row_buffer_hit_rate %.3g" % d["row_buffer_hit_rate"])
    k = c.get("kernels")
    if isinstance(k, list) and k and isinstance(k[0].get("all"), dict):
        shares = k[0]["all"].get("stall_shares", {})
        parts.append("stalls " + "/".join("%s %.2f" % (n, v) for n, v in shares.items()))
    return ", ".join(parts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    # the default build (README) or a model-only one (cmake -B build-model -DGS_WITH_RTL=OFF)
    default_gsim = next((g for g in (os.path.join(ROOT, d, "sim_top", "gsim") for d in ("build", "build-model"))
                         if os.access(g, os.X_OK)), os.path.join(ROOT, "build/sim_top/gsim"))
    ap.add_argument("--gsim", default=default_gsim)
    ap.add_argument("--traces", default=os.path.join(ROOT, "..", "shared", "traces", "h100"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build-model", "h100_compare"))
    ap.add_argument("--kernels", default=",".join(KERNELS))
    ap.add_argument("--plot", default="")
    ap.add_argument("--set", action="append", default=[], help="config override for every gsim run (KEY=VALUE)")
    ap.add_argument("--sweep", default="", help="only these r (e.g. 1,2,8), sweep only: per-iteration times")
    a = ap.parse_args()
    SETS.extend(a.set)
    if not os.path.isdir(a.traces):
        a.traces = "/work/shared/traces/h100" if os.path.isdir("/work/shared/traces/h100") else a.traces
    os.makedirs(a.out, exist_ok=True)
    kernels = a.kernels.split(",")
    tr = trace_figures(a.traces)
    if a.sweep:
        rs = [int(x) for x in a.sweep.split(",")]
        sim = sim_figures(a.gsim, a.out, kernels, {k: tr[k]["occ"] for k in kernels}, rs, alone=False)
        for k in kernels:
            for r in rs:
                if r in sim[k]["sweep"]:
                    m, t = sim[k]["sweep"][r], tr[k]["sweep"][r]
                    print("%s r=%d: cycles/iter model %.0f trace %.0f; p10/p90 model %.2f/%.2f trace %.2f/%.2f; %s" % (
                        k, r, m["iter_cycles"], t["iter_cycles"], m["p10"], m["p90"], t["p10"], t["p90"],
                        counters_line(m["json"])))
        return
    sim = sim_figures(a.gsim, a.out, kernels, {k: tr[k]["occ"] for k in kernels})

    print("### Per-iteration CTA time (core cycles at 1980 MHz)\n")
    print("| kernel | trace r=1 | model r=1 | ratio | trace alone (full occupancy) | model alone | ratio |")
    print("|---|---|---|---|---|---|---|")
    for k in kernels:
        t1, m1 = tr[k]["sweep"][1]["iter_cycles"], sim[k]["sweep"][1]["iter_cycles"]
        ta, ma = tr[k]["alone"]["iter_cycles"], sim[k]["alone"]["iter_cycles"]
        print("| %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f |" % (k, t1, m1, m1 / t1, ta, ma, ma / ta))

    print("\n### Alone runtime per wave and loop iteration (cycles; the traces run 8 waves, the model 2)\n")
    print("| kernel | trace runtime (ms, 8 waves) | trace cycles / (wave x iteration) | model cycles (2 waves) | model cycles / (wave x iteration) | ratio |")
    print("|---|---|---|---|---|---|")
    for k in kernels:
        ms = tr[k]["runtime_ms"]
        t = ms * CLOCK_MHZ * 1000.0 / (8 * tr[k]["iters"])
        cyc = sim[k]["alone"]["json"]["kernels"][0]["cycles_alone"]
        m = cyc / (2.0 * sim[k]["iters"])
        print("| %s | %.2f | %.0f | %d | %.0f | %.2f |" % (k, ms, t, cyc, m, m / t))

    print("\n### Sweep throughput r x t1 / t_r (per work unit; one wave of r CTAs per SM)\n")
    print("| kernel | source | " + " | ".join("r=%d" % r for r in range(1, 9)) + " |")
    print("|---|---|" + "---|" * 8)
    for k in kernels:
        for name, sw in (("trace", tr[k]["sweep"]), ("model", sim[k]["sweep"])):
            th = throughput(sw)
            print("| %s | %s | " % (k, name) + " | ".join("%.2f" % th[r] if r in th else "" for r in range(1, 9)) + " |")

    print("\n### CTA duration spread (alone; per work unit, relative to the median) and dispatch gap\n")
    print("| kernel | trace p10 / p90 | model p10 / p90 | trace gap (cycles) | model gap (cycles) |")
    print("|---|---|---|---|---|")
    for k in kernels:
        ta, ma = tr[k]["alone"], sim[k]["alone"]
        print("| %s | %.3f / %.3f | %.3f / %.3f | %.0f | %.0f |" % (k, ta["p10"], ta["p90"], ma["p10"], ma["p90"], ta["gap"], ma["gap"]))

    print("\n### Model counters (alone run's shared phase; sweep at r=1 and r=occupancy)\n")
    for k in kernels:
        occ = tr[k]["occ"]
        print("- %s alone: %s" % (k, counters_line(sim[k]["alone"]["json"])))
        print("- %s r=1: %s" % (k, counters_line(sim[k]["sweep"][1]["json"])))
        print("- %s r=%d: %s" % (k, occ, counters_line(sim[k]["sweep"][occ]["json"])))

    if a.plot:
        try:
            import matplotlib
        except ImportError:
            print("--plot: matplotlib is not installed; no plot written", file=sys.stderr)
            return
        matplotlib.use("Agg")  # noqa: E402
        import matplotlib.pyplot as plt
        fig, axs = plt.subplots(1, len(kernels), figsize=(3.2 * len(kernels), 3))
        for ax, k in zip(axs, kernels):
            for name, sw, st in (("trace", tr[k]["sweep"], "o-"), ("model", sim[k]["sweep"], "s--")):
                th = throughput(sw)
                ax.plot(list(th), list(th.values()), st, label=name)
            ax.set_title(k)
            ax.set_xlabel("CTAs per SM")
        axs[0].set_ylabel("r x t1 / t_r")
        axs[0].legend()
        fig.tight_layout()
        fig.savefig(a.plot, dpi=80)


if __name__ == "__main__":
    main()
