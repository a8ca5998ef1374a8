#!/usr/bin/env python3
"""Tanasic et al. ISCA 2014, Sec. 5.2 / Fig. 5: turnaround-time improvement of a prioritized
process under NPQ and PPQ (drain and context switch), over its non-prioritized run (FCFS), for
workloads of 2, 4 and 8 processes, on the tanasic-k20c preset, as the paper ran them: one kernel
per SM at a time (gsim --sm-sharing exclusive, Kepler's static partitioning, Sec. 2.3).

Workloads: a process is one kernel of the Tanasic suite (sim_top/workloads/kernels/tanasic.json).
For N processes the script draws, per workload, N distinct kernels (seeded). The first is the
high-priority process: every suite kernel is the prioritized one equally often, as in the paper
("All the benchmark applications appear the same number of times as the high-priority process").
The N-1 others arrive at cycle 0 in their drawn order (FCFS queue); the prioritized one arrives
--arrival cycles later, when the GPU is busy.

Per workload four runs (gsim run --scheduler golden --json): FCFS = left-over (no priorities),
NPQ, PPQ drain, PPQ switch (ppq-excl), all --sm-sharing exclusive. The improvement is
T_FCFS / T_policy of the prioritized kernel's turnaround (cycles_shared; its alone time cancels).

Prints a Markdown table: per N the mean (and geometric mean) improvement of each policy, beside
the paper's (Sec. 5.2 text: NPQ 1x at 2 processes to 1.6x, PPQ drain 1.6x to 6x, PPQ switch 2x to
15.6x as the number of processes grows). Deterministic for a given command line.

Usage: scripts/ppq_gain.py [--gsim build/sim_top/gsim] [--processes 2 4 8] [--rounds 1]
                           [--seed 1] [--jobs 2] [--json out.json]
"""
import argparse
import concurrent.futures
import json
import math
import os
import random
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = "tanasic-k20c"
# (label, policy, preempt): the FCFS baseline first
RUNS = [("FCFS", "left-over", "drain"), ("NPQ", "npq", "drain"), ("PPQ drain", "ppq-excl", "drain"),
        ("PPQ switch", "ppq-excl", "switch")]
PAPER = {  # Sec. 5.2: averages at the smallest and largest process counts of Fig. 5
    "NPQ": {2: "1.0", 8: "1.6"},
    "PPQ drain": {2: "1.6", 8: "6.0"},
    "PPQ switch": {2: "2.0", 8: "15.6"},
}


def suite_kernels():
    with open(os.path.join(REPO, "sim_top/workloads/kernels/tanasic.json")) as f:
        return [k["name"] for k in json.load(f)["kernels"]]


def workloads(kernels, n, rounds, seed, arrival):
    """Every kernel is the prioritized process `rounds` times; the others are drawn per workload."""
    rng = random.Random(f"{seed}:{n}")
    out = []
    for r in range(rounds):
        for hp in kernels:
            others = rng.sample([k for k in kernels if k != hp], n - 1)
            mix = {"name": f"ppq-gain-n{n}-{r}-{hp}", "config": CONFIG, "kernels": []}
            for i, k in enumerate(others):
                mix["kernels"].append({"kernel": k, "arrival_cycle": 0, "context": i % 8, "priority": 0})
            mix["kernels"].append({"kernel": hp, "arrival_cycle": arrival, "context": (n - 1) % 8, "priority": 1})
            out.append(mix)
    return out


def run_one(gsim, mix_file, policy, preempt):
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as t:
        out = t.name
    try:
        cmd = [gsim, "run", "--config", CONFIG, "--mix", mix_file, "--policy", policy, "--preempt", preempt,
               "--sm-sharing", "exclusive", "--scheduler", "golden", "-q", "--json", out]
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()}")
        with open(out) as f:
            j = json.load(f)
        return j["kernels"][-1]["cycles_shared"], j["counters"]["gpu"]
    finally:
        os.unlink(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gsim", default=os.path.join(REPO, "build/sim_top/gsim"))
    ap.add_argument("--processes", type=int, nargs="+", default=[2, 4, 8])
    ap.add_argument("--rounds", type=int, default=1, help="times each kernel is the prioritized process")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--arrival", type=int, default=20000, help="arrival cycle of the prioritized kernel")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write every run's figures here")
    a = ap.parse_args()
    if not os.access(a.gsim, os.X_OK):
        sys.exit(f"ppq_gain.py: {a.gsim} is not an executable gsim (build it: cmake --build build --target gsim)")
    if any(n < 2 or n > 8 for n in a.processes):
        sys.exit("ppq_gain.py: --processes: 2..8 (the preset has 8 command buffers and KSRT slots)")

    kernels = suite_kernels()
    tmp = tempfile.mkdtemp(prefix="ppq_gain_")
    jobs = []
    for n in a.processes:
        for mix in workloads(kernels, n, a.rounds, a.seed, a.arrival):
            path = os.path.join(tmp, mix["name"] + ".json")
            with open(path, "w") as f:
                json.dump(mix, f)
            for label, policy, preempt in RUNS:
                jobs.append((n, mix["name"], path, label, policy, preempt))
    results = {}
    done = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = {ex.submit(run_one, a.gsim, j[2], j[4], j[5]): j for j in jobs}
        for fut in concurrent.futures.as_completed(futs):
            n, name, _, label, _, _ = futs[fut]
            results[(n, name, label)] = fut.result()
            done += 1
            print(f"\r{done}/{len(jobs)} runs", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)

    rows, dump = [], []
    for n in a.processes:
        names = sorted({k[1] for k in results if k[0] == n})
        gains = {label: [] for label, _, _ in RUNS[1:]}
        fallbacks = 0
        for name in names:
            base = results[(n, name, "FCFS")][0]
            for label, _, _ in RUNS[1:]:
                t, gpu = results[(n, name, label)]
                gains[label].append(base / t)
                fallbacks += gpu["switch_fallbacks"]
            dump.append({"processes": n, "mix": name,
                         **{label: results[(n, name, label)][0] for label, _, _ in RUNS}})
        cells = []
        for label, _, _ in RUNS[1:]:
            g = gains[label]
            mean = sum(g) / len(g)
            geo = math.exp(sum(math.log(x) for x in g) / len(g))
            paper = PAPER[label].get(n, "-")
            cells.append(f"{mean:.2f} ({geo:.2f}) | {paper}")
        rows.append(f"| {n} | {len(names)} | " + " | ".join(cells) + f" | {fallbacks} |")
    print("| processes | workloads | NPQ mean (geomean) | paper | PPQ drain | paper | PPQ switch | paper | switch fallbacks |")
    print("|---:|---:|---|---:|---|---:|---|---:|---:|")
    print("\n".join(rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(dump, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
