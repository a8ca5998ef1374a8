#!/usr/bin/env python3
"""Checks of the area flow (ctest area_flow_block, area_flow_block_fast, area_flow_composed,
area_flow_params, area_flow_learned_abc, area_flow_default).

  check_area_report.py DIR [BLOCK] [--abc fast]
                                        DIR/area.json parses; every result (of BLOCK) completed
                                        with cells > 0, area > 0, a worst-slack figure, start and
                                        end points and an Fmax; DIR/area.md holds the table;
                                        with --abc fast, every result was mapped with abc -fast
                                        and its row says so
  check_area_report.py DIR BLOCK --composed FLATDIR
                                        BLOCK was composed bottom-up in DIR: its cells, area, FFs
                                        and storage are its own logic plus each reused sub-block's
                                        figures (from DIR) times its instances, OpenSTA linked the
                                        sub-blocks' netlists, and its area is within 15 % of the
                                        same block mapped flat in FLATDIR (area_flow.py --flat)
  check_area_report.py --params SOURCES the per-scale packages generated from rtl/spec/gs_spec.toml
                                        (gen_spec.py --set): at 132 SMs and at 2 and 4 kernels the
                                        derived widths follow, Yosys elaborates gs_top from them,
                                        and an unknown parameter is refused
  check_area_report.py DIR BLOCK --macros
                                        BLOCK (constraints/macro_demo.sv) holds its two rtl/mem
                                        instances as memory macros: each listed with its Depth x
                                        Width and the area and access time of
                                        constraints/sram_model.json (recomputed here), no flip-flop
                                        for their bits, area = cells + macros, and OpenSTA timed a
                                        path out of a macro with its access time; and if DIR holds
                                        gs_macro_pair, the composite over two BLOCKs, its macros are
                                        its own plus theirs (counted) and OpenSTA timed them
  check_area_report.py --learned        a larger scale starts with the abc fallback the same block
                                        needed at a smaller scale, or with abc -fast where the
                                        standard mapping's time extrapolated from the smaller scales
                                        passes --abc-fast-after (area_flow.learned_abc_mode), on
                                        made-up runs: only a scale with at most as many SMs and
                                        kernels, the same flow key and time limit, a run of its own
                                        (not `same elaborated RTL as`) counts; &nf wins over -fast
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import area_flow  # noqa: E402


def fail(msg):
    print(f"check_area_report: FAIL: {msg}")
    sys.exit(1)


def check_report(d, block, abc=None):
    try:
        doc = json.load(open(os.path.join(d, "area.json")))
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{d}/area.json: {e}")
    res = [r for r in doc["results"] if not block or r["block"] == block]
    if not res:
        fail(f"{d}/area.json: no result" + (f" for {block}" if block else ""))
    n = 0
    for r in res:
        if r["status"] != "ok":
            fail(f"{r['scale']} {r['block']}: {r['status']}")
        a, t = r["asic"], r["timing"]
        if not (a["cells"] > 0 and a["area_um2"] > 0):
            fail(f"{r['block']}: cells {a['cells']}, area {a['area_um2']}")
        if not isinstance(t["worst_slack_ns"], (int, float)):
            fail(f"{r['block']}: no slack figure")
        if not (t["startpoint"] and t["endpoint"] and t["fmax_mhz"] and t["fmax_mhz"] > 0):
            fail(f"{r['block']}: critical path or Fmax missing: {t}")
        if r["block"] != "gs_policy_npq" and r["block"] != "gs_policy_left_over" and a["ffs"] <= 0:
            fail(f"{r['block']}: a sequential block without flip-flops")
        md = open(os.path.join(d, "area.md")).read()
        if f"| {r['block']} |" not in md:
            fail(f"{d}/area.md: no row for {r['block']}")
        if abc == "fast":
            row = next(l for l in md.splitlines() if l.startswith(f"| {r['block']} |"))
            if not r.get("abc", "").startswith("fast") or "abc -fast" not in row:
                fail(f"{r['block']}: mapped with abc {r.get('abc')!r}, row {row!r}: expected abc -fast, marked")
        print(f"ok: {r['scale']} {r['block']}: {a['cells']} cells, {a['area_um2']:.0f} um^2, {a['ffs']} FFs, "
              f"slack {t['worst_slack_ns']:.3f} ns, {t['startpoint']} -> {t['endpoint']}")
        n += 1
    print(f"{n} passed, 0 failed")


def check_macros(d, block):
    check_report(d, block)
    doc = json.load(open(os.path.join(d, "area.json")))
    model = json.load(open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "sram_model.json")))["modules"]
    for r in [r for r in doc["results"] if r["block"] == block]:
        a = r["asic"]
        want = {"u_table": ("gs_ram_1r1w", 40, 16), "u_small": ("gs_ram_1rw", 24, 8)}
        got = {m["instance"]: m for m in a.get("macros", [])}
        if set(got) != set(want):
            fail(f"{block}: macros {sorted(got)}, expected {sorted(want)}")
        for inst, (mod, depth, width) in want.items():
            m, mm = got[inst], model[mod]
            area = mm["area"]["fixed_um2"] + mm["area"]["per_bit_um2"] * depth * width
            t = mm["access"]
            acc = t["a_ns"] * depth ** t["depth_exp"] * width ** t["width_exp"] * t["port_factor"]
            if (m["module"], m["depth"], m["width"]) != (mod, depth, width):
                fail(f"{inst}: {m['module']} {m['depth']}x{m['width']}, expected {mod} {depth}x{width}")
            if abs(m["area_um2"] - area) > 0.1 or abs(m["access_ns"] - acc) > 1e-3:
                fail(f"{inst}: area {m['area_um2']} access {m['access_ns']}, the model gives {area:.1f} um^2 {acc:.3f} ns")
        macro_area = sum(m["area_um2"] for m in got.values())
        if abs(a["area_um2"] - a["cell_area_um2"] - macro_area) > 0.5 or a["cell_area_um2"] <= 0:
            fail(f"{block}: area {a['area_um2']} is not cells {a['cell_area_um2']} + macros {macro_area}")
        if a["ffs"] >= 40 * 16 or any(t.startswith("$paramod") or t.startswith("gs_ram") for t in a["cell_types"]):
            fail(f"{block}: {a['ffs']} FFs, cell types {sorted(a['cell_types'])}: the memory was mapped or counted as a cell")
        sta = open(os.path.join(d, "runs", r["scale"], block, "sta.log")).read()
        acc = got["u_table"]["access_ns"]
        if not re.search(rf"^\s*{acc:.3f}\s+{acc:.3f} [v^] u_table/rdata_o\[\d+\] \(gs_ram_1r1w_d40_w16\)", sta, re.M):
            fail(f"{block}: no path out of u_table with its access time {acc:.3f} ns in sta.log")
        md = open(os.path.join(d, "area.md")).read()
        if "### Memory macros" not in md or "| u_table | gs_ram_1r1w | 40 x 16 |" not in md:
            fail(f"{d}/area.md: no memory macro table with u_table")
        print(f"ok: {block}: cells {a['cell_area_um2']:.0f} um^2 + macros {macro_area:.0f} um^2; u_table access "
              f"{acc:.2f} ns timed by OpenSTA")
    # the composite over two of them, with a macro of its own: its macros are its own plus theirs, counted
    for p in [r for r in doc["results"] if r["block"] == "gs_macro_pair"]:
        if p["status"] != "ok":
            fail(f"gs_macro_pair: {p['status']}")
        demo = next(r for r in doc["results"] if r["block"] == block and r["scale"] == p["scale"])["asic"]
        a = p["asic"]
        got = {(m["instance"], m.get("count", 1)) for m in a["macros"]}
        want = {("u_own", 1), ("gs_macro_demo/u_table", 2), ("gs_macro_demo/u_small", 2)}
        if got != want:
            fail(f"gs_macro_pair: macros {sorted(got)}, expected {sorted(want)}")
        own = next(m for m in a["macros"] if m["instance"] == "u_own")
        if abs(a["macro_area_um2"] - own["area_um2"] - 2 * demo["macro_area_um2"]) > 0.5:
            fail(f"gs_macro_pair: macro area {a['macro_area_um2']} is not u_own {own['area_um2']} + 2 x {demo['macro_area_um2']}")
        if abs(a["area_um2"] - a["cell_area_um2"] - a["macro_area_um2"]) > 0.5:
            fail(f"gs_macro_pair: area {a['area_um2']} is not cells + macros")
        sta = open(os.path.join(d, "runs", p["scale"], "gs_macro_pair", "sta.log")).read()
        if not re.search(rf"{own['access_ns']:.3f} [v^] u_own/rdata_o\[\d+\]", sta) or "u_a/u_table" not in sta:
            fail("gs_macro_pair: OpenSTA did not time u_own with its access time and the sub-blocks' macros")
        print(f"ok: gs_macro_pair: u_own + 2 x gs_macro_demo's macros = {a['macro_area_um2']:.0f} um^2, "
              f"critical path {p['timing']['startpoint']} -> {p['timing']['endpoint']}")


def check_composed(d, block, flat_dir):
    check_report(d, block)
    doc = json.load(open(os.path.join(d, "area.json")))
    flat = json.load(open(os.path.join(flat_dir, "area.json")))
    n = 0
    for r in [r for r in doc["results"] if r["block"] == block]:
        a = r["asic"]
        if not a.get("parts"):
            fail(f"{r['scale']} {block}: not composed (no reused sub-block)")
        others = {x["block"]: x for x in doc["results"] if x["scale"] == r["scale"]}
        for k in ("cells", "area_um2", "ffs", "storage_bits"):
            want = a["glue"][k] + sum(cnt * others[c]["asic"][k] for c, cnt in a["parts"].items())
            if k == "cells":
                want -= sum(a["parts"].values())   # the black-box instances are not cells
            if abs(want - a[k]) > 1e-6 * max(1, want):
                fail(f"{r['scale']} {block}: {k} {a[k]} is not its own {a['glue'][k]} plus its sub-blocks' ({want})")
        linked = [os.path.basename(os.path.dirname(p)) for p in r["netlists"][1:]]
        if sorted(linked) != sorted(a["parts"]):
            fail(f"{r['scale']} {block}: OpenSTA linked {linked}, the reused sub-blocks are {sorted(a['parts'])}")
        f = next((x for x in flat["results"] if x["block"] == block and x["scale"] == r["scale"]), None)
        if not f or f["status"] != "ok" or f["asic"].get("parts"):
            fail(f"{flat_dir}: no flat result for {r['scale']} {block}")
        ratio = a["area_um2"] / f["asic"]["area_um2"]
        if not 0.85 <= ratio <= 1.15:
            fail(f"{r['scale']} {block}: composed {a['area_um2']:.0f} um^2 against flat {f['asic']['area_um2']:.0f} "
                 f"(x{ratio:.3f}): outside 15 %")
        print(f"ok: {r['scale']} {block}: composed of {a['parts']}, own logic {a['glue']['area_um2']:.0f} um^2; "
              f"{a['area_um2']:.0f} um^2 against {f['asic']['area_um2']:.0f} flat (x{ratio:.3f})")
        n += 1
    print(f"{n} passed, 0 failed")


def check_params(sources):
    """The flow's per-scale packages come from the spec with derived widths that follow, and
    Yosys elaborates gs_top with them."""
    srcs = sources.split()
    expect = {(132, 8): {"SmIdW": 8, "SaveCreditW": 13, "SlotW": 3},
              (32, 2): {"SlotW": 1, "SmIdW": 6},
              (16, 4): {"SlotW": 2, "SmIdW": 5, "SaveCreditW": 10}}
    with tempfile.TemporaryDirectory() as td:
        for (n, k), want in expect.items():
            d = os.path.join(td, f"sms{n}-k{k}")
            os.makedirs(d)
            back = area_flow.generate({"MaxSms": n, "MaxKernels": k}, d)
            if back["MaxSms"] != n or back["MaxKernels"] != k or back["OrderKeyW"] != back["PrioW"] + back["SlotW"]:
                fail(f"MaxSms {n} MaxKernels {k}: the generated package does not follow the overrides")
            for name, v in want.items():
                if back[name] != v:
                    fail(f"MaxSms {n} MaxKernels {k}: {name} = {back[name]}, expected {v}")
            r = subprocess.run(["yosys", "-q", "-p", "read_verilog -sv -DSYNTHESIS "
                                + " ".join(area_flow.scale_sources(srcs, d)) + "; hierarchy -check -top gs_top"],
                               capture_output=True, text=True)
            if r.returncode != 0:
                fail(f"Yosys does not elaborate gs_top at MaxSms {n} MaxKernels {k}: {r.stdout[-500:]}{r.stderr[-500:]}")
            print(f"ok: MaxSms {n} MaxKernels {k}: " + ", ".join(f"{x} {back[x]}" for x in want))
    try:
        area_flow.generate({"NoSuchParam": 1}, tempfile.mkdtemp())
        fail("an override of an unknown parameter was accepted")
    except area_flow.FlowError as e:
        print(f"ok: unknown parameter refused: {e}")
    print(f"{len(expect) + 1} passed, 0 failed")


def check_learned():
    """learned_abc_mode on made-up results under a temporary --out."""
    class Args:
        timeout = 1800
        abc_fast_after = 600

    ctx = {"flow_key": "k1"}

    def put(out, scale, block, abc, **extra):
        d = os.path.join(out, "runs", area_flow.scale_name(scale), block)
        os.makedirs(d, exist_ok=True)
        r = dict({"block": block, "scale": scale, "status": "ok", "abc": abc, "flow_key": "k1",
                  "timeout_s": 1800}, **extra)
        with open(os.path.join(d, "result.json"), "w") as f:
            json.dump(r, f)

    s16, s32, s64 = ({"MaxSms": n, "MaxKernels": 8} for n in (16, 32, 64))
    s132k2, s132k8 = {"MaxSms": 132, "MaxKernels": 2}, {"MaxSms": 132, "MaxKernels": 8}
    fast = "fast (standard mapping stopped after 600 s)"
    with tempfile.TemporaryDirectory() as out:
        Args.out = out
        put(out, s16, "a", "standard")
        put(out, s32, "a", fast)
        put(out, s16, "b", "nf (abc -fast failed: no output)")
        put(out, s32, "b", fast)
        put(out, s16, "c", fast, flow_key="old")
        put(out, s32, "c", fast, same_rtl_as="sms16-k8")
        put(out, s16, "d", fast, timeout_s=900)
        put(out, s16, "e", fast, status="osu018 synthesis timed out")
        put(out, s16, "f", "fast (--abc fast)")
        # standard runs with their times: extrapolated
        put(out, s16, "h", "standard", yosys_s=130.0)      # x4.6 per doubling
        put(out, s32, "h", "standard", yosys_s=599.0)
        put(out, s16, "i", "standard", yosys_s=242.0)      # x1.38 per doubling
        put(out, s32, "i", "standard", yosys_s=333.0)
        put(out, s16, "j", "standard", yosys_s=100.0)      # one point: linear
        put(out, s32, "k", "standard", yosys_s=599.0, same_rtl_as="sms16-k8")
        cases = [("a", s16, None), ("a", s32, None), ("a", s64, ("fast", "sms32-k8", None)),
                 ("a", s132k8, ("fast", "sms32-k8", None)), ("a", s132k2, None),
                 ("b", s64, ("nf", "sms16-k8", None)), ("c", s64, None), ("d", s64, None), ("e", s64, None),
                 ("f", s64, None), ("g", s64, None),
                 ("h", s64, ("fast", "sms32-k8", round(599 * 2 ** math.log2(599 / 130)))),
                 ("i", s64, None),
                 ("i", s132k8, ("fast", "sms32-k8", round(333 * (132 / 32) ** math.log2(333 / 242)))),
                 ("i", s132k2, None), ("j", s32, None), ("j", s132k8, ("fast", "sms16-k8", 825)),
                 ("k", s64, None)]
        for block, scale, want in cases:
            got = area_flow.learned_abc_mode(block, scale, Args, ctx)
            if got != want:
                fail(f"learned_abc_mode({block}, {area_flow.scale_name(scale)}) = {got}, expected {want}")
            print(f"ok: {block} at {area_flow.scale_name(scale)}: {got}")
    print(f"{len(cases)} passed, 0 failed")


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--learned":
        check_learned()
    elif len(sys.argv) == 3 and sys.argv[1] == "--params":
        check_params(sys.argv[2])
    elif len(sys.argv) == 4 and sys.argv[3] == "--macros":
        check_macros(sys.argv[1], sys.argv[2])
    elif len(sys.argv) == 5 and sys.argv[3] == "--composed":
        check_composed(sys.argv[1], sys.argv[2], sys.argv[4])
    elif len(sys.argv) == 5 and sys.argv[3] == "--abc":
        check_report(sys.argv[1], sys.argv[2], sys.argv[4])
    elif len(sys.argv) in (2, 3):
        check_report(sys.argv[1], sys.argv[2] if len(sys.argv) == 3 else None)
    else:
        print(__doc__)
        sys.exit(2)
