#!/usr/bin/env python3
"""Warped-Slicer Fig. 3a from `gsim profile`: per kernel, IPC, memory-stall share and L1/L2 miss
rates against the number of CTAs per SM.

  gsim profile --config warped-slicer --kernels warped-slicer --out ws_profile
  python3 sim_top/plots/profile.py ws_profile.json --out ws_profile [--title T]

Writes OUT.png and OUT.svg: four panels sharing the x axis (CTAs per SM). IPC is drawn
normalised to each kernel's highest IPC, as the paper draws it, so kernels of different size
share one axis; the raw IPC is in the JSON and CSV. Lines are coloured by kernel and styled by
the kernel's documented class (compute-sat, compute-nonsat, memory, cache: the paper's four
types, Sec. III), so one can check that each curve has its class's shape. The input format
("gsched-profile-1") is in docs/cli.md, "gsim profile".
"""
import argparse
import sys

import plotlib

STYLE = {"compute-sat": "-", "compute-nonsat": "--", "memory": ":", "cache": "-."}


def load(path):
    """The profile as plain data, every field the plot reads checked (plotlib.InputError names the
    file and the field otherwise)."""
    doc = plotlib.load_json(path, "gsched-profile-1", "profile.py", "a gsim profile file")
    prof = {"config": doc.text("config"), "warmup": doc.integer("warmup"), "sample": doc.integer("sample"),
            "kernels": []}
    for k in doc.objects("kernels"):
        points = [{key: p.integer(key) if key == "ctas" else p.num(key) for key in
                   ("ctas", "ipc", "mem_stall", "l1_miss", "l2_miss")} for p in k.objects("points")]
        prof["kernels"].append({"name": k.text("name"), "behaviour": k.text("behaviour"), "points": points})
    if not prof["kernels"]:
        raise plotlib.InputError(f"{path}: field 'kernels' is empty (no kernel to draw)")
    return prof


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("json", help="OUT.json of gsim profile --out OUT")
    ap.add_argument("--out", required=True, help="output path without extension (.png and .svg are written)")
    ap.add_argument("--title", default=None)
    args = ap.parse_args()
    plotlib.inputs(args.json)
    prof = load(args.json)

    plt = plotlib.pyplot("profile.py")
    fig, axes = plt.subplots(2, 2, figsize=(13, 7), sharex=True)
    panels = [("ipc", "IPC / the kernel's highest IPC", True), ("mem_stall", "memory-stall share (phi_mem)", False),
              ("l1_miss", "L1 miss rate", False), ("l2_miss", "L2 miss rate", False)]
    for ax, (key, title, normalise) in zip(axes.flat, panels):
        for k in prof["kernels"]:
            xs = [p["ctas"] for p in k["points"]]
            ys = [p[key] for p in k["points"]]
            if normalise:
                top = max(ys)
                ys = [y / top if top else 0.0 for y in ys]
            ax.plot(xs, ys, STYLE.get(k["behaviour"], "-"), marker="o", markersize=3,
                    label=f'{k["name"]} ({k["behaviour"]})')
        ax.set_title(title, fontsize=10)
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("CTAs per SM")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="center right", frameon=False)
    fig.suptitle(args.title or f'{prof["config"]}: each kernel alone with 1..N CTAs per SM '
                 f'(window {prof["warmup"]}+{prof["sample"]} cycles)', fontsize=11)
    plotlib.save(fig, args.out, rect=(0, 0, 0.8, 1))
    return 0


if __name__ == "__main__":
    sys.exit(plotlib.run("profile.py", main))
