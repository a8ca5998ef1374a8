#!/usr/bin/env python3
"""Random multiprogrammed process mixes in the manner of Tanasic et al. (ISCA 2014) Sec. 4.1.

Writes process mixes (docs/workloads.md, "Processes") for the tanasic-k20c preset: workloads
of 2, 4, 6 and 8 Parboil applications "chosen randomly", each replayed until all have completed
`--runs` times (3 in the paper). Two kinds:

  ppq  Sec. 4.2, Figs. 5 and 6: "random workloads in which one process has higher priority than
       the rest of the processes in the workload. All the benchmark applications appear the same
       number of times as the high-priority process" -- for every size, every application is the
       high-priority process of `--per-app` workloads; the others are drawn without repetition.
  dss  Sec. 4.4, Figs. 7 and 8: `--count` random workloads per size, equal token budgets
       t = floor(13 SMs / n) (the policy hands the remaining SMs to the first kernels to arrive).

Each application launches the kernels Table 1 lists for its benchmark, in its program order, with
launch counts and grids cut down (below) so a mix runs in seconds to a minute at golden speed; the
host time between launches is not in Table 1 and is an assumption (`--host-gap`, cycles; the default
20000, ~28 us at 706 MHz, is of the order Table 1 implies for spmv: a SHORT application under 5 ms
with 50 launches of 42 us. Much shorter gaps let a prioritized process of short kernels starve the
others under PPQ with context switch: each arrival preempts them before their CTAs are restored).
The same arguments give the same files, byte for byte (a seeded random.Random per size).

Usage: gen_process_mixes.py --kind ppq --out DIR [--sizes 2 4 6 8] [--seed 1] [--runs 3]
"""
import argparse
import json
import os
import random
import sys

# Parboil applications of Tanasic Table 1 (BFS excluded, as in the paper): the kernel sequence of
# one run -- (library kernel, grid_ctas or None for the library's, launches) -- cut down from
# Table 1's "Num. of Launches" and grids so one alone run is roughly 10k-100k cycles.
APPS = {
    "lbm": [("lbm.StreamCollide", 1950, 2)],  # 100 launches of 18000 TBs
    "histo": [("histo.prescan", None, 2), ("histo.intermediates", None, 2), ("histo.main", None, 2),
              ("histo.final", None, 2)],  # 20 iterations of the four, here 2 (interleaved below)
    "tpacf": [("tpacf.genhists", 13, 1)],  # one block per SM (~51k cycles)
    "spmv": [("spmv.spmvjds", None, 5)],  # 50 launches
    "mri-q": [("mri-q.ComputePhiMag", None, 1), ("mri-q.ComputeQ", 104, 2)],
    "sad": [("sad.mbsadcalc", 1820, 1), ("sad.largersadcalc8", 208, 1), ("sad.largersadcalc16", 416, 1)],
    "sgemm": [("sgemm.mysgemmNT", 26, 1)],  # two ~70k-cycle blocks per SM
    "stencil": [("stencil.block2Dregtiling", 26, 3)],  # 100 launches of 256 TBs
    "cutcp": [("cutcp.lattice6overlap", 39, 2)],  # 11 launches of 121 TBs
    "mri-gridding": [("mri-gridding.binning", 520, 1), ("mri-gridding.scaninter1", None, 1),
                     ("mri-gridding.scanL1", 208, 1), ("mri-gridding.uniformAdd", 208, 1),
                     ("mri-gridding.reorder", 520, 1), ("mri-gridding.splitSort", 260, 1),
                     ("mri-gridding.griddingGPU", 130, 1), ("mri-gridding.splitRearrange", 260, 1),
                     ("mri-gridding.scaninter2", None, 1)],
}
# Benchmarks whose kernels repeat as a group (histo's four kernels per iteration).
INTERLEAVED = {"histo"}
SMS = 13  # tanasic-k20c
MAX_PROCESSES = 8  # the preset's max_contexts


def steps_of(app, host_gap):
    """The kernel steps of one run of `app`."""
    seq = APPS[app]
    order = []
    if app in INTERLEAVED:
        for _ in range(max(n for _, _, n in seq)):
            order += [(k, g) for k, g, _ in seq]
    else:
        for k, g, n in seq:
            order += [(k, g)] * n
    steps = []
    for k, g in order:
        step = {"kernel": k}
        if g is not None:
            step["grid_ctas"] = g
        step["host_gap_cycles"] = host_gap
        steps.append(step)
    return steps


def mix_doc(name, apps, kind, hp, runs, host_gap, note):
    n = len(apps)
    procs = []
    for i, app in enumerate(apps):
        p = {"name": app}
        if kind == "ppq":
            p["priority"] = 1 if i == hp else 0
        else:
            p["tokens"] = SMS // n
        p["runs"] = runs
        p["kernels"] = steps_of(app, host_gap)
        procs.append(p)
    return {"name": name, "config": "tanasic-k20c", "notes": [note], "processes": procs}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--kind", choices=["ppq", "dss"], required=True)
    ap.add_argument("--out", required=True, help="directory for the mix files (created)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 4, 6, 8])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3, help="runs each process must complete (Sec. 4.1: 3)")
    ap.add_argument("--host-gap", type=int, default=20000,
                    help="host cycles before each launch (assumed; see the module notes)")
    ap.add_argument("--per-app", type=int, default=1, help="ppq: workloads per size with each app prioritized")
    ap.add_argument("--count", type=int, default=10, help="dss: workloads per size")
    a = ap.parse_args(argv)
    apps = sorted(APPS)
    for n in a.sizes:
        if not 2 <= n <= MAX_PROCESSES:
            ap.error(f"--sizes: {n}: 2..{MAX_PROCESSES} processes (tanasic-k20c has {MAX_PROCESSES} contexts)")
    if a.runs < 1 or a.host_gap < 0 or a.per_app < 1 or a.count < 1:
        ap.error("--runs, --per-app and --count must be >= 1, --host-gap >= 0")
    os.makedirs(a.out, exist_ok=True)
    written = 0
    for n in a.sizes:
        rng = random.Random(f"gen_process_mixes:{a.kind}:{a.seed}:{n}")
        workloads = []  # (apps, index of the high-priority one or None)
        if a.kind == "ppq":
            for hp_app in apps:
                for _ in range(a.per_app):
                    others = rng.sample([x for x in apps if x != hp_app], n - 1)
                    workloads.append(([hp_app] + others, 0))
        else:
            for _ in range(a.count):
                workloads.append((rng.sample(apps, n), None))
        for w, (chosen, hp) in enumerate(workloads):
            name = f"{a.kind}-{n}proc-{w:02d}"
            note = (f"Generated by sim_top/workloads/gen_process_mixes.py --kind {a.kind} --seed {a.seed} "
                    f"--runs {a.runs} --host-gap {a.host_gap} (Tanasic Sec. 4.1" +
                    (", Sec. 4.2: process 0 prioritized)" if a.kind == "ppq" else ", Sec. 4.4: equal tokens)"))
            doc = mix_doc(name, chosen, a.kind, hp, a.runs, a.host_gap, note)
            with open(os.path.join(a.out, name + ".json"), "w") as f:
                json.dump(doc, f, indent=1)
                f.write("\n")
            written += 1
    print(f"wrote {written} mixes to {a.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
