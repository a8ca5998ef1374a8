#!/usr/bin/env python3
"""Speed table of docs/performance.md: `gsim bench --sms N --kernels K --scheduler all` over a
grid of GPU sizes and kernel counts, printed as a Markdown table.

  bench_table.py --gsim PATH [--sms 16,32,64,132] [--kernels 2,4,8,16] [--cycles C] [--repeat R]

Each cell runs C simulated cycles (default: 2,000,000 SM-cycles' worth, so every size takes
about as long) R times and keeps the fastest run (the least disturbed by other load). A
scheduler the build cannot run at that size (the RTL's MaxSms / MaxKernels) shows as "-".
Wall-clock figures: run it on an otherwise idle machine and say which machine in the doc.
"""
import argparse
import json
import subprocess
import sys


def bench(gsim, sms, kernels, cycles, config):
    cmd = [gsim, "bench", "--scheduler", "all", "--sms", str(sms), "--kernels", str(kernels),
           "--cycles", str(cycles), "--config", config, "--json"]
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
    args = ap.parse_args()

    print("| SMs | kernels | golden cycles/s | golden SM-cycles/s | lockstep cycles/s | lockstep / golden "
          "| RTL edges evaluated / skipped | peak MB golden / lockstep |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for sms in (int(x) for x in args.sms.split(",")):
        for k in (int(x) for x in args.kernels.split(",")):
            cycles = args.cycles or max(10000, 2_000_000 // sms)
            best = {}
            for _ in range(args.repeat):
                for sched, r in bench(args.gsim, sms, k, cycles, args.config).items():
                    if sched not in best or r["cycles_per_second"] > best[sched]["cycles_per_second"]:
                        best[sched] = r
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


if __name__ == "__main__":
    main()
