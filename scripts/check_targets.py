#!/usr/bin/env python3
"""Check the alone calibration targets (each stand-in kernel against its paper) against the kernel library.

Reads sim_top/workloads/calibration/targets.json and the five paper suites of
sim_top/workloads/kernels/ (warped-slicer, pai, sbm, heterocore, tanasic) and checks:

  * every kernel of those suites has an entry, and every entry names a kernel of its suite;
  * every target's metric is in the file's "metrics" vocabulary;
  * a number metric has a numeric value and a band [lo, hi] (null = open end, not both null,
    lo <= hi); a class metric has a value among the metric's "values" and a band that is a
    non-empty list of those values containing the value;
  * source is a non-empty string naming a Table, Fig. or Sec.; optional fields have the right
    types (note, derived, known_gap: strings; scale: positive number; at: object;
    relative_to: a library kernel, only with ipc_ratio_to);
  * suite_targets name known suites, kernels of that suite and vocabulary metrics.

Stdlib only. Exit 0 when all is well; otherwise exit 1 after printing one line per problem,
naming the file, the kernel and the field. Exit 2 on a usage error or an unreadable file.
"""

import argparse
import json
import math
import os
import sys

SUITES = ("warped-slicer", "pai", "sbm", "heterocore", "tanasic")
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGETS = os.path.join(ROOT, "sim_top", "workloads", "calibration", "targets.json")
KERNELS = os.path.join(ROOT, "sim_top", "workloads", "kernels")
TARGET_KEYS = {"metric", "value", "band", "source", "note", "at", "scale", "relative_to",
               "derived", "known_gap"}
AT_KEYS = {"ctas_frac", "config", "sm_type"}


def is_num(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def load(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        print(f"{path}: cannot read: {e}", file=sys.stderr)
        sys.exit(2)


def check_target(t, where, metrics, names, err):
    if not isinstance(t, dict):
        err(where, "is not an object")
        return
    for k in t:
        if k not in TARGET_KEYS:
            err(f"{where}.{k}", f"unknown key; valid: {', '.join(sorted(TARGET_KEYS))}")
    m = t.get("metric")
    if m not in metrics:
        err(f"{where}.metric", f"{m!r} is not in the metrics vocabulary ({', '.join(metrics)})")
        return
    kind = metrics[m].get("kind")
    v, band = t.get("value"), t.get("band")
    if kind == "number":
        if not is_num(v):
            err(f"{where}.value", f"metric {m} needs a number, got {v!r}")
        if not (isinstance(band, list) and len(band) == 2
                and all(b is None or is_num(b) for b in band)):
            err(f"{where}.band", f"metric {m} needs [lo, hi] (numbers or null), got {band!r}")
        elif band[0] is None and band[1] is None:
            err(f"{where}.band", "both ends open")
        elif band[0] is not None and band[1] is not None and band[0] > band[1]:
            err(f"{where}.band", f"lo {band[0]} > hi {band[1]}")
        elif is_num(v) and m != "ipc_ratio_to" and not (
                (band[0] is None or band[0] <= v) and (band[1] is None or v <= band[1])):
            err(f"{where}.value", f"{v} lies outside its band {band}")
    elif kind == "class":
        values = metrics[m].get("values", [])
        if v not in values:
            err(f"{where}.value", f"{v!r} is not a value of metric {m} ({', '.join(values)})")
        if not (isinstance(band, list) and band and all(b in values for b in band)):
            err(f"{where}.band", f"metric {m} needs a non-empty list of classes of {values}, got {band!r}")
        elif v not in band:
            err(f"{where}.band", f"does not contain the value {v!r}")
    else:
        err(f"metrics.{m}.kind", f"unknown kind {kind!r} (number or class)")
    src = t.get("source")
    if not (isinstance(src, str) and src.strip()):
        err(f"{where}.source", "missing or empty")
    elif not any(w in src for w in ("Table", "Fig.", "Sec.")):
        err(f"{where}.source", f"{src!r} names no Table, Fig. or Sec.")
    for k in ("note", "derived", "known_gap"):
        if k in t and not (isinstance(t[k], str) and t[k].strip()):
            err(f"{where}.{k}", "must be a non-empty string")
    if "scale" in t and not (is_num(t["scale"]) and t["scale"] > 0):
        err(f"{where}.scale", f"must be a positive number, got {t['scale']!r}")
    if "at" in t:
        at = t["at"]
        if not isinstance(at, dict) or not at:
            err(f"{where}.at", "must be a non-empty object")
        else:
            for k in at:
                if k not in AT_KEYS:
                    err(f"{where}.at.{k}", f"unknown key; valid: {', '.join(sorted(AT_KEYS))}")
            if "ctas_frac" in at and not (is_num(at["ctas_frac"]) and 0 < at["ctas_frac"] <= 1):
                err(f"{where}.at.ctas_frac", "must be in (0, 1]")
    if m == "norm_ipc_at" and "ctas_frac" not in t.get("at", {}):
        err(f"{where}.at", "norm_ipc_at needs at.ctas_frac")
    if m == "ipc_ratio_to":
        r = t.get("relative_to")
        if r not in names:
            err(f"{where}.relative_to", f"{r!r} is not a library kernel")
    elif "relative_to" in t:
        err(f"{where}.relative_to", "only ipc_ratio_to takes relative_to")


def main():
    ap = argparse.ArgumentParser(
        description="Validate sim_top/workloads/calibration/targets.json (the alone "
                    "calibration targets) against the kernel library: every kernel of the warped-slicer, "
                    "pai, sbm, heterocore and tanasic suites covered, names exist, metrics in "
                    "the vocabulary, bands well formed, sources non-empty. Exit 0 if valid, "
                    "1 with one line per problem (file, kernel, field), 2 on unreadable input.")
    ap.add_argument("--targets", default=TARGETS, help="targets file (default: %(default)s)")
    ap.add_argument("--kernels-dir", default=KERNELS,
                    help="kernel library directory (default: %(default)s)")
    ap.add_argument("-q", "--quiet", action="store_true", help="print nothing when valid")
    a = ap.parse_args()

    problems = []
    tfile = os.path.relpath(a.targets, ROOT) if a.targets.startswith(ROOT) else a.targets

    def err(field, msg):
        problems.append(f"{tfile}: {field}: {msg}")

    lib = {}      # name -> suite
    for s in SUITES:
        path = os.path.join(a.kernels_dir, s + ".json")
        d = load(path)
        for k in d.get("kernels", []):
            lib[k["name"]] = s

    doc = load(a.targets)
    if not isinstance(doc, dict):
        err("(top)", "is not an object")
        doc = {}
    metrics = doc.get("metrics")
    if not isinstance(metrics, dict) or not metrics:
        err("metrics", "missing or empty")
        metrics = {}
    for m, d in metrics.items():
        if not isinstance(d, dict):
            err(f"metrics.{m}", "is not an object")
            continue
        for k in ("kind", "unit" if d.get("kind") == "number" else "values", "measure"):
            if not d.get(k):
                err(f"metrics.{m}.{k}", "missing or empty")
    suites = doc.get("suites", {})
    for s in SUITES:
        if not isinstance(suites.get(s), dict) or not suites[s].get("preset"):
            err(f"suites.{s}.preset", "missing")

    kernels = doc.get("kernels")
    if not isinstance(kernels, dict):
        err("kernels", "missing or not an object")
        kernels = {}
    for name in lib:
        if name not in kernels:
            err(f"kernels.{name}", f"library kernel of suite {lib[name]} has no entry")
    ntargets = 0
    for name, e in kernels.items():
        where = f"kernels.{name}"
        if name not in lib:
            err(where, "names no kernel of the five suites")
            continue
        if not isinstance(e, dict):
            err(where, "is not an object")
            continue
        if e.get("suite") != lib[name]:
            err(f"{where}.suite", f"{e.get('suite')!r}, but the library has it in {lib[name]}")
        if not (isinstance(e.get("stands_for"), str) and e["stands_for"].strip()):
            err(f"{where}.stands_for", "missing or empty")
        ts = e.get("targets")
        if not isinstance(ts, list) or not ts:
            err(f"{where}.targets", "missing or empty")
            continue
        for i, t in enumerate(ts):
            check_target(t, f"{where}.targets[{i}]", metrics, lib, err)
            ntargets += 1

    for i, st in enumerate(doc.get("suite_targets", [])):
        where = f"suite_targets[{i}]"
        if not isinstance(st, dict):
            err(where, "is not an object")
            continue
        s = st.get("suite")
        if s not in SUITES:
            err(f"{where}.suite", f"{s!r} is not one of {', '.join(SUITES)}")
        ks = st.get("kernels")
        if not isinstance(ks, list) or not ks:
            err(f"{where}.kernels", "missing or empty")
        else:
            for k in ks:
                if lib.get(k) != s:
                    err(f"{where}.kernels", f"{k!r} is not a kernel of suite {s}")
        if st.get("aggregate") not in ("mean", "max", "min"):
            err(f"{where}.aggregate", f"{st.get('aggregate')!r} (mean, max or min)")
        t = {k: v for k, v in st.items() if k not in ("suite", "kernels", "aggregate")}
        check_target(t, where, metrics, lib, err)

    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        print(f"{tfile}: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    if not a.quiet:
        print(f"{tfile}: OK: {len(kernels)} kernels of {len(SUITES)} suites, {ntargets} targets, "
              f"{len(doc.get('suite_targets', []))} suite targets, {len(metrics)} metrics")
    return 0


if __name__ == "__main__":
    sys.exit(main())
