#!/usr/bin/env python3
"""SM-occupancy timeline of one run: which kernel's CTAs occupy each SM over time.

  gsim run --mix M ... --timeline run.json
  python3 sim_top/plots/timeline.py run.json --out run_timeline [--from C] [--to C] [--title T]

Writes run_timeline.png and run_timeline.svg. One row per SM; inside a row, one lane per CTA
resident at the same time (lanes assigned in start order, so a CTA keeps its lane), coloured by
kernel. A CTA that was context-saved (--preempt switch) is hatched and ends where it was saved;
its resumed part is a new bar. Preemption commands are triangles above their SM's row
(filled: switch, hollow: drain); kernel arrivals are dashed vertical lines. The input format
("gsched-timeline-1") is described in docs/cli.md, "--timeline".
"""
import argparse
import heapq
import sys

import plotlib


COLUMNS = ["kernel", "cta", "sm", "start_cycle", "end_cycle", "saved"]


def load(path):
    """The timeline as plain data, every field the plot reads checked (plotlib.InputError names
    the file and the field otherwise)."""
    doc = plotlib.load_json(path, "gsched-timeline-1", "timeline.py", "a gsim --timeline file")
    if doc["cta_columns"] != COLUMNS:
        raise plotlib.InputError(f"{path}: field 'cta_columns' is {doc['cta_columns']!r}, expected {COLUMNS}")
    t = {key: doc[key] for key in ("mix", "config", "policy", "preempt", "sm_sharing", "seed")}
    t["sms"], t["cycles"] = doc.integer("sms"), doc.integer("cycles")
    if t["sms"] < 1:
        raise plotlib.InputError(f"{path}: field 'sms' is {t['sms']}, expected at least 1")
    t["kernels"] = [{"id": k.integer("id"), "name": k.text("name"), "priority": k["priority"],
                     "arrival_cycle": k.integer("arrival_cycle")} for k in doc.objects("kernels")]
    ids = {k["id"] for k in t["kernels"]}
    t["ctas"] = []
    rows = doc.items_of("ctas")
    for i, row in enumerate(rows):
        if not isinstance(row, plotlib.Node) or len(row) != len(COLUMNS):
            raise plotlib.InputError(f"{path}: field 'ctas[{i}]' is {row!r}, expected [{', '.join(COLUMNS)}]")
        c = dict(zip(["kernel", "cta", "sm", "start", "end", "saved"], (row.integer(j) if j < 5 else row[j]
                                                                         for j in range(len(COLUMNS)))))
        if c["sm"] < 0 or c["sm"] >= t["sms"]:
            raise plotlib.InputError(f"{path}: field 'ctas[{i}][2]' (sm) is {c['sm']}, the run has {t['sms']} SMs")
        if c["kernel"] not in ids:
            raise plotlib.InputError(f"{path}: field 'ctas[{i}][0]' (kernel) is {c['kernel']}, not a kernel id of 'kernels'")
        if c["end"] < c["start"]:
            raise plotlib.InputError(f"{path}: field 'ctas[{i}][4]' (end_cycle) is {c['end']}, before its start {c['start']}")
        t["ctas"].append(c)
    t["preemptions"] = []
    for j, p in enumerate(doc.objects("preemptions", [])):
        sm = p.integer("sm")
        if sm < 0 or sm >= t["sms"]:
            raise plotlib.InputError(f"{path}: field 'preemptions[{j}].sm' is {sm}, the run has {t['sms']} SMs")
        t["preemptions"].append({"cycle": p.integer("cycle"), "mode": p.text("mode"), "sm": sm})
    return t


def lanes(ctas, sms):
    """Lane of each CTA within its SM (the lowest lane free at its start) and lanes per SM."""
    free = [[] for _ in range(sms)]        # per SM: heap of (end, lane) of busy lanes
    spare = [[] for _ in range(sms)]       # per SM: heap of free lane numbers
    count = [0] * sms
    lane = [0] * len(ctas)
    for i in sorted(range(len(ctas)), key=lambda i: (ctas[i]["start"], ctas[i]["end"], i)):
        c = ctas[i]
        sm = c["sm"]
        while free[sm] and free[sm][0][0] <= c["start"]:
            heapq.heappush(spare[sm], heapq.heappop(free[sm])[1])
        if spare[sm]:
            lane[i] = heapq.heappop(spare[sm])
        else:
            lane[i] = count[sm]
            count[sm] += 1
        heapq.heappush(free[sm], (c["end"], lane[i]))
    return lane, count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("timeline", help="the file gsim run --timeline wrote")
    ap.add_argument("--out", required=True, help="output path without extension (.png and .svg are written)")
    ap.add_argument("--from", dest="start", type=int, default=0, help="first cycle shown")
    ap.add_argument("--to", dest="stop", type=int, default=None, help="last cycle shown (default: end of run)")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    plotlib.inputs(args.timeline)

    t = load(args.timeline)
    plt = plotlib.pyplot("timeline.py")
    from matplotlib.collections import PolyCollection

    ctas = t["ctas"]
    sms = t["sms"]
    stop = args.stop if args.stop is not None else t["cycles"]
    if stop <= args.start:
        sys.exit(f"timeline.py: --to {stop} is not after --from {args.start}")
    lane, count = lanes(ctas, sms)

    kernels = {k["id"]: k for k in t["kernels"]}
    cmap = plt.get_cmap("tab10" if len(kernels) <= 10 else "tab20")
    colour = {kid: cmap(i % cmap.N) for i, kid in enumerate(sorted(kernels))}

    fig_h = max(3.0, min(0.25 * sms + 1.5, 30.0))
    fig, ax = plt.subplots(figsize=(12, fig_h))
    polys = {}   # (kernel, saved) -> rectangles
    for c, ln in zip(ctas, lane):
        if c["end"] < args.start or c["start"] > stop:
            continue
        h = 0.9 / max(count[c["sm"]], 1)
        y0 = c["sm"] + 0.05 + ln * h
        x0, x1 = max(c["start"], args.start), min(c["end"], stop)
        polys.setdefault((c["kernel"], c["saved"]), []).append([(x0, y0), (x1, y0), (x1, y0 + h), (x0, y0 + h)])
    for (kid, saved), rects in sorted(polys.items()):
        ax.add_collection(PolyCollection(rects, facecolors=colour[kid], edgecolors="black" if saved else "none",
                                         linewidths=0.3, hatch="////" if saved else None))
    for kid, k in sorted(kernels.items()):
        ax.plot([], [], color=colour[kid], linewidth=6, label=f"{k['name']} (prio {k['priority']})")
        if args.start <= k["arrival_cycle"] <= stop:
            ax.axvline(k["arrival_cycle"], color=colour[kid], linestyle="--", linewidth=0.8)
    for mode, style in (("switch", dict(marker="v", color="red")), ("drain", dict(marker="v", markerfacecolor="none",
                                                                                      color="red"))):
        xs = [p["cycle"] for p in t["preemptions"] if p["mode"] == mode and args.start <= p["cycle"] <= stop]
        ys = [p["sm"] + 0.97 for p in t["preemptions"] if p["mode"] == mode and args.start <= p["cycle"] <= stop]
        if xs:
            ax.plot(xs, ys, linestyle="none", markersize=5, label=f"preempt ({mode})", **style)
    if any(c["saved"] for c in ctas):
        ax.add_patch(plt.Rectangle((0, 0), 0, 0, facecolor="white", edgecolor="black", hatch="////",
                                   label="context-saved CTA"))

    ax.set_xlim(args.start, stop)
    ax.set_ylim(0, sms)
    ax.set_yticks([s + 0.5 for s in range(sms)] if sms <= 40 else [s + 0.5 for s in range(0, sms, 8)])
    ax.set_yticklabels([str(s) for s in range(sms)] if sms <= 40 else [str(s) for s in range(0, sms, 8)])
    ax.invert_yaxis()
    ax.set_xlabel("cycle")
    ax.set_ylabel("SM")
    ax.set_title(args.title or f"{t['mix']} on {t['config']}: {t['policy']}, preempt {t['preempt']}, "
                               f"{t['sm_sharing']} SMs, seed {t['seed']}")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08 * 12 / fig_h), ncol=4, fontsize=8, frameon=False)
    plotlib.save(fig, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(plotlib.run("timeline.py", main))
