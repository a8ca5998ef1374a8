#!/usr/bin/env python3
"""Speed table of docs/performance.md: `gsim bench --sms N --kernels K --scheduler all` over a
grid of GPU sizes and kernel counts, printed as a Markdown table.

  bench_table.py --gsim PATH [--sms 16,32,64,132] [--kernels 2,4,8,16] [--cycles C] [--repeat R]
  bench_table.py --gsim PATH --threads 1,2 [--sms ...] [--kernels 8]   the --threads table

With several --threads values it prints the table of gsim --threads instead: per SM count (and
the first --kernels value), cycles/s of golden and lockstep on each thread count, and the
speed-up over one thread.

Each cell runs C simulated cycles (default: 2,000,000 SM-cycles' worth, so every size takes
about as long) R times and keeps the fastest run (the least disturbed by other load). A
scheduler the build cannot run at that size (the RTL's MaxSms / MaxKernels) shows as "-".
Wall-clock figures: run it on an otherwise idle machine and say which machine in the doc.
"""
import argparse
import json
import subprocess
import sys


def bench(gsim, sms, kernels, cycles, config, threads=1):
    cmd = [gsim, "bench", "--scheduler", "all", "--sms", str(sms), "--kernels", str(kernels),
           "--cycles", str(cycles), "--config", config, "--threads", str(threads), "--json"]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit(f"bench_table.py: {' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
    rows = json.loads(p.stdout)
    return {r["scheduler"]: r for r in (rows if isinstance(rows, list) else [rows])}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gsim", required=True)
    ap.add_argument("--config", default="warped-slicer", help="config scaled by --sms (one SM type)")
    ap.add_argument("--sms", default="16,32,64,132")
    ap.add_argument("--kernels", default="2,4,8,16")
    ap.add_argument("--cycles", type=int, default=0, help="simulated cycles per run (0 = 2M SM-cycles' worth)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--threads", default="1", help="gsim --threads; several values (1,2) print the threads table")
    args = ap.parse_args()
    threads = [int(x) for x in args.threads.split(",")]
    if len(threads) > 1:
        return threads_table(args, threads)

    print("| SMs | kernels | golden cycles/s | golden SM-cycles/s | lockstep cycles/s | lockstep / golden "
          "| RTL edges evaluated / skipped | peak MB golden / lockstep |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for sms in (int(x) for x in args.sms.split(",")):
        for k in (int(x) for x in args.kernels.split(",")):
            cycles = args.cycles or max(10000, 2_000_000 // sms)
            best = best_of(args, sms, k, cycles, threads[0])
            g, l = best["golden"], best.get("lockstep")
            if l:
                lock = f"{l['cycles_per_second']:,}"
                ratio = f"{g['cycles_per_second'] / l['cycles_per_second']:.2f}x"
                edges = f"{l['rtl_cycles_evaluated']:,} / {l['rtl_cycles_skipped']:,}"
                peak = f"{g['peak_rss_mb']:.1f} / {l['peak_rss_mb']:.1f}"
            else:
                lock, ratio, edges, peak = "-", "-", "-", f"{g['peak_rss_mb']:.1f} / -"
            print(f"| {sms} | {k} | {g['cycles_per_second']:,} | {g['sm_cycles_per_second']:,} | {lock} | {ratio} "
                  f"| {edges} | {peak} |", flush=True)


def best_of(args, sms, k, cycles, threads):
    best = {}
    for _ in range(args.repeat):
        for sched, r in bench(args.gsim, sms, k, cycles, args.config, threads).items():
            if sched not in best or r["cycles_per_second"] > best[sched]["cycles_per_second"]:
                best[sched] = r
    return best


def threads_table(args, threads):
    k = int(args.kernels.split(",")[0])
    head = ["SMs"]
    for sched in ("golden", "lockstep"):
        head += [f"{sched} {t} thread{'s' if t > 1 else ''}" for t in threads] + [f"{sched} speed-up"]
    print("| " + " | ".join(head) + " |")
    print("|" + "---:|" * len(head))
    for sms in (int(x) for x in args.sms.split(",")):
        cycles = args.cycles or max(10000, 2_000_000 // sms)
        runs = {t: best_of(args, sms, k, cycles, t) for t in threads}
        cells = [str(sms)]
        for sched in ("golden", "lockstep"):
            cps = [runs[t].get(sched, {}).get("cycles_per_second") for t in threads]
            cells += [f"{c:,}" if c else "-" for c in cps]
            cells.append(f"{max(cps[1:]) / cps[0]:.2f}x" if all(cps) else "-")
        print("| " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
