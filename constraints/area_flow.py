#!/usr/bin/env python3
"""gsched area and timing flow (docs/area-timing.md).

For every RTL block (one module per file of the source list; gs_pkg first, gs_top last) and every
scale (gs_pkg's MaxSms / MaxKernels overridden per run):
  * Yosys maps it to the osu018 180 nm cells (constraints/yosys_osu018.tcl): cells, area in um^2
    (`stat -liberty`), flip-flops, storage bits as written in the RTL;
  * OpenSTA times the netlist at the SDC clock (constraints/clocks.sdc, constraints/sta.tcl):
    worst setup slack, Fmax, the critical path's start and end points;
  * Yosys synth_ice40 counts iCE40 LUTs and FFs; a block that fits an iCE40-HX8K is placed and
    routed by nextpnr-ice40 inside a serial I/O wrapper for its Fmax (constraints/ice40_*).
A memory macro (a module constraints/sram_model.json names: rtl/mem's gs_ram_*, a black box under
SYNTHESIS) is no block: each instance is modeled from its Depth and Width (area, access time) and
reported apart from the cells; OpenSTA times it through a generated liberty cell.
Beside each block: its decision latency from constraints/latency.json; optionally the simulated
launch-to-first-dispatch latency per policy (--launch-latency, from gs_launch_latency).
Output: <out>/area.md and <out>/area.json. Results are cached per run (same sources, scripts,
parameters and period: not rerun), so an interrupted long run resumes where it stopped.
Every tool run has a time and memory limit; a run that exceeds one is reported as such.
"""
import argparse
import hashlib
import json
import math
import os
import re
import threading
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN_LIBERTY = "/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
# Part of every run's cache key, with the scripts, sources, liberty and options; bump it when a
# change to this file changes what a run measures or records (area_flow.py itself is not hashed,
# so that editing the report does not throw away hours of cached runs).
FLOW_VERSION = "2"
# The flow's scripts: part of every run's cache key and of the flow key (same_rtl_elsewhere).
FLOW_SCRIPTS = [os.path.join(HERE, f) for f in ("yosys_osu018.tcl", "abc.constr", "sta.tcl", "clocks.sdc",
                                                "ice40_synth.tcl", "ice40_hx8k.pcf")]
ICE40_DEVICE = {"name": "iCE40-HX8K (CT256)", "args": ["--hx8k", "--package", "ct256"], "lcs": 7680}
# The memory macros' area and access time (docs/area-timing.md, "Memories: the SRAM model"): every
# module it names (rtl/mem) is a black box under SYNTHESIS, reported apart from the cells. Part of
# the run key of a block whose hierarchy holds one, and of no other block's.
SRAM_MODEL = os.path.join(HERE, "sram_model.json")


class FlowError(Exception):
    pass


def log(msg):
    print(msg, flush=True)


# ------------------------------------------------------------------------------ parameters
PARAM_RE = re.compile(r"^(\s*localparam\s+(?:int\s+unsigned\s+|int\s+|integer\s+)?)([A-Za-z_]\w*)"
                      r"(\s*(?:/\*\s*verilator\s+public\s*\*/)?\s*=\s*)(\d+)(\s*;.*)$")


def clog2(x):
    return max(1, math.ceil(math.log2(x))) if x > 1 else 1


def read_params(pkg_text):
    params = {}
    for line in pkg_text.splitlines():
        m = PARAM_RE.match(line)
        if m:
            params[m.group(2)] = int(m.group(4))
    return params


# The package and the policy mux of another scale come from the spec, as in every build:
# rtl/spec/gen_spec.py --set MaxSms=N --set MaxKernels=K (derived widths follow).
SPEC = os.path.normpath(os.path.join(HERE, "..", "rtl", "spec", "gs_spec.toml"))
GEN_SPEC = os.path.normpath(os.path.join(HERE, "..", "rtl", "spec", "gen_spec.py"))
GENERATED = ("gs_pkg.sv", "gs_policies.sv")


def generate(overrides, out_dir):
    """Writes gs_pkg.sv and gs_policies.sv for `overrides` into out_dir; returns the params."""
    cmd = [sys.executable, GEN_SPEC, "--spec", SPEC, "--out", out_dir]
    for k, v in overrides.items():
        cmd += ["--set", f"{k}={v}"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise FlowError(f"rtl/spec/gen_spec.py {' '.join(cmd[6:])}: {r.stderr.strip()}")
    return read_params(open(os.path.join(out_dir, "gs_pkg.sv")).read())


def scale_sources(sources, out_dir):
    """The source list with the generated files replaced by those of out_dir."""
    return [os.path.join(out_dir, os.path.basename(s)) if os.path.basename(s) in GENERATED else s for s in sources]


def parse_scales(spec, defaults):
    """'default', 'sweep' (default + SMs 16/32/64/132 + kernels 2/4/8), 'smsN', 'kN', 'smsN-kM'."""
    out = []
    for item in [s for s in spec.split(",") if s]:
        if item == "sweep":
            for n in (16, 32, 64, 132):
                out.append({"MaxSms": n, "MaxKernels": defaults["MaxKernels"]})
            for k in (2, 4, 8):
                out.append({"MaxSms": defaults["MaxSms"], "MaxKernels": k})
            continue
        if item == "default":
            out.append({"MaxSms": defaults["MaxSms"], "MaxKernels": defaults["MaxKernels"]})
            continue
        m = re.fullmatch(r"(?:sms(\d+))?-?(?:k(\d+))?", item)
        if not m or not (m.group(1) or m.group(2)):
            raise FlowError(f"--scales: '{item}' is not default, sweep, smsN, kN or smsN-kM")
        n = int(m.group(1)) if m.group(1) else defaults["MaxSms"]
        k = int(m.group(2)) if m.group(2) else defaults["MaxKernels"]
        if n < 1 or k < 2:
            raise FlowError(f"--scales: '{item}': need at least 1 SM and 2 kernels")
        out.append({"MaxSms": n, "MaxKernels": k})
    uniq = []
    for s in out:
        if s not in uniq:
            uniq.append(s)
    # default first, then by size
    uniq.sort(key=lambda s: (s != {"MaxSms": defaults["MaxSms"], "MaxKernels": defaults["MaxKernels"]},
                             s["MaxSms"] * s["MaxKernels"], s["MaxSms"]))
    return uniq


def scale_name(s):
    return f"sms{s['MaxSms']}-k{s['MaxKernels']}"


def scale_size(name):
    """Sort key of a scale's directory name (smsN-kM): (N * M, N, name); other names last."""
    m = re.fullmatch(r"sms(\d+)-k(\d+)", name)
    return (int(m.group(1)) * int(m.group(2)), int(m.group(1)), name) if m else (1 << 62, 0, name)


# ------------------------------------------------------------------------------ tools
def find_liberty(arg):
    cands = [arg, os.environ.get("GS_LIBERTY"), DEBIAN_LIBERTY]
    for c in cands:
        if c and os.path.isfile(c):
            return os.path.abspath(c)
    if arg or os.environ.get("GS_LIBERTY"):
        raise FlowError(f"--liberty / GS_LIBERTY: {arg or os.environ.get('GS_LIBERTY')}: no such file")
    try:
        files = subprocess.run(["dpkg", "-L", "qflow-tech-osu018"], capture_output=True, text=True).stdout.split()
        for f in files:
            if f.endswith("osu018_stdcells.lib"):
                return f
    except OSError:
        pass
    raise FlowError("osu018 liberty not found: install the Debian package qflow-tech-osu018 "
                    "(scripts/install_deps.sh) or pass --liberty / set GS_LIBERTY")


def need_tool(name):
    path = shutil.which(name)
    if not path:
        raise FlowError(f"{name} not found on PATH: run scripts/install_deps.sh (Debian packages yosys, opensta, "
                        "nextpnr-ice40, qflow-tech-osu018)")
    return path


def run_tool(cmd, log_path, timeout, mem_gb, env=None, cwd=None):
    """Runs cmd under `nice`, a wall-clock timeout and an address-space limit. Returns
    (status, seconds) with status 'ok', 'timeout', 'memory' or 'error'."""
    # nice 19: a long synthesis yields to interactive work and builds on the same machine.
    # prlimit (util-linux) rather than a preexec_fn: runs are started from worker threads (-j).
    wrap = ["nice", "-n", "19"]
    if mem_gb > 0:
        wrap += ["prlimit", f"--as={int(mem_gb * (1 << 30))}"]
    t0 = time.time()
    with open(log_path, "w") as lf:
        p = subprocess.Popen(wrap + cmd, stdout=lf, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                             start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, 9)
            p.wait()
            return "timeout", time.time() - t0
    dt = time.time() - t0
    if rc == 0:
        return "ok", dt
    text = open(log_path, errors="replace").read()[-4000:]
    if "std::bad_alloc" in text or "out of memory" in text.lower() or "Cannot allocate" in text or rc in (-9, 137):
        return "memory", dt
    return "error", dt


def tail(path, n=5):
    try:
        lines = [l for l in open(path, errors="replace").read().splitlines() if l.strip()]
    except OSError:
        return ""
    return " | ".join(lines[-n:])


# ------------------------------------------------------------------------------ parsers
def liberty_areas(lib):
    areas, cell = {}, None
    for line in open(lib, errors="replace"):
        m = re.match(r"\s*cell\s*\(\s*\"?(\w+)\"?\s*\)", line)
        if m:
            cell = m.group(1)
            continue
        m = re.match(r"\s*area\s*:\s*([\d.]+)", line)
        if m and cell and cell not in areas:
            areas[cell] = float(m.group(1))
    return areas


def parse_stat(path, lib_areas):
    text = open(path).read()
    cells = {}
    m = re.search(r"Number of cells:\s+(\d+)\n((?:\s+\S+\s+\d+\n)*)", text)
    if not m:
        raise FlowError(f"{path}: no cell count")
    for line in m.group(2).splitlines():
        name, cnt = line.split()
        cells[name] = int(cnt)
    am = re.search(r"Chip area for module '\\?[^']*':\s+([\d.]+)", text)
    area = float(am.group(1)) if am else 0.0
    ff_types = [c for c in cells if c.startswith("DFF") or c == "LATCH"]
    ffs = sum(cells[c] for c in ff_types)
    ff_area = sum(cells[c] * lib_areas.get(c, 0.0) for c in ff_types)
    return {"cells": int(m.group(1)), "area_um2": area, "ffs": ffs, "ff_area_um2": ff_area, "cell_types": cells}


def parse_rtl_stat(path):
    text = open(path).read()
    bits = 0
    for m in re.finditer(r"^\s+\$(?:_)?(?:a|s|aldff|)(?:dff|dffe|dffsr|dffsre|adffe|sdffe|sdffce|dlatch)\w*?_(\d+)\s+(\d+)$",
                         text, re.M):
        bits += int(m.group(1)) * int(m.group(2))
    mm = re.search(r"Number of memory bits:\s+(\d+)", text)
    mem = int(mm.group(1)) if mm else 0
    return {"storage_bits": bits + mem, "memory_bits": mem}


def q_net_names(netlist):
    """instance -> net on its Q pin (flip-flops), to name STA start/end points by register."""
    names = {}
    if not os.path.exists(netlist):   # deleted after an earlier parse (not a sub-block): instance names only
        return names
    text = open(netlist, errors="replace").read()
    for m in re.finditer(r"^\s*(DFF\w+|LATCH)\s+(\S+)\s*\((.*?)\);", text, re.M | re.S):
        q = re.search(r"\.Q\((.*?)\)\s*,?\s*$", m.group(3), re.M)
        if q:
            names[m.group(2)] = q.group(1).strip().lstrip("\\").strip()
    return names


def parse_sta(log_path, netlist, period):
    text = open(log_path, errors="replace").read()
    m = re.search(r"gs_sta worst_slack (\S+) period (\S+)", text)
    if not m:
        raise FlowError(f"{log_path}: OpenSTA printed no worst slack ({tail(log_path, 3)})")
    slack = float(m.group(1))
    errs = [l for l in text.splitlines() if l.startswith("Error")]
    if errs:
        raise FlowError(f"{log_path}: {errs[0]}")
    block = text.split("Path Type: max", 1)
    names = q_net_names(netlist)

    def point(kind):
        # OpenSTA wraps the description onto the next line after a long (hierarchical) name
        pm = re.search(kind + r": (\S+)\s+\((.*?)\)", text)
        if not pm:
            return None
        inst, what = pm.group(1), pm.group(2)
        if inst in names:
            return f"{names[inst]} (flop {inst})"
        return f"{inst} ({what.split(' clocked')[0]})"

    depth = 0
    if len(block) == 2:
        path = block[1].split("data arrival time", 1)[0]
        depth = len(re.findall(r"/\w+ \(\w+\)\s*$", path, re.M))
    fmax = 1000.0 / (period - slack) if period - slack > 0 else None
    return {"worst_slack_ns": slack, "fmax_mhz": fmax, "startpoint": point("Startpoint"),
            "endpoint": point("Endpoint"), "logic_levels": depth}


# ------------------------------------------------------------------------------ memory macros
def load_sram_model(path=SRAM_MODEL):
    return json.load(open(path))


def macro_figures(model, module, depth, width, period, read_cycles=1):
    """A gs_ram_* instance of depth x width bits: its modeled area and read access time at 180 nm
    (constraints/sram_model.json), each with its band, and the name of its liberty cell. With
    read_cycles 2 (gs_ram_1r1w's ReadCycles) the word is taken two edges after its read: the
    liberty cell's clock-to-rdata_o delay is the access time less one period, timed from the edge
    after the read (the RTL takes no read at that edge), so OpenSTA checks access < 2 periods."""
    m = model["modules"][module]
    a, t = m["area"], m["access"]
    bits = depth * width
    area = a["fixed_um2"] + a["per_bit_um2"] * bits
    acc = t["a_ns"] * depth ** t["depth_exp"] * width ** t["width_exp"] * t["port_factor"]
    fr = t["fit_range"]
    inside = fr["depth"][0] <= depth <= fr["depth"][1] and fr["width"][0] <= width <= fr["width"][1]
    if read_cycles not in (1, 2):
        raise ValueError(f"{module}: ReadCycles {read_cycles} (1 or 2)")
    arc = max(acc - (read_cycles - 1) * period, 0.0)
    return {"module": module, "depth": depth, "width": width, "bits": bits,
            "cell": f"{module}_d{depth}_w{width}" + (f"_r{read_cycles}" if read_cycles > 1 else ""),
            "area_um2": round(area, 1), "area_band_um2": [round(area * f, 1) for f in a["band"]],
            "access_ns": round(acc, 3), "access_band_ns": [round(acc * f, 3) for f in t["band"]],
            "read_cycles": read_cycles, "arc_ns": round(arc, 3),
            "access_extrapolated": not inside, "setup_ns": m["setup_ns"], "hold_ns": m["hold_ns"]}


def macro_modules(block_files, model):
    """The memory macros among the modules of the sources."""
    return {m for m in block_files if m in model["modules"]}


def macro_params(block, sources, wd, args, ctx):
    """Elaborates the block (Yosys `hierarchy`, as yosys_osu018.tcl does) and returns, for every memory
    macro module it derives, the type name the netlist gives its instances -> (module, parameters,
    ports). Yosys names a derived module by a hash of its parameters ($paramod$<sha1>\\gs_ram_1r1w),
    the same in this run as in the mapping; the parameters are read from its RTLIL."""
    il = os.path.join(wd, "macros.il")
    own = {ctx["files"][m] for m in ctx["hierarchy"][block]}
    files = [sources[0]] + [p for p in sources[1:] if os.path.basename(p) in own]
    st, _ = run_tool([ctx["yosys"], "-q", "-p", f"read_verilog -defer -sv -DSYNTHESIS {' '.join(files)}; "
                      f"hierarchy -check -top {block}; write_rtlil {il}"],
                     os.path.join(wd, "macros.log"), args.timeout, args.mem_gb)
    if st != "ok":
        raise FlowError(f"memory macros: elaboration {st}: " + tail(os.path.join(wd, "macros.log")))
    out, attrs, cur = {}, {}, None
    for line in open(il):
        s = line.strip()
        m = re.match(r'attribute \\(\w+) (.*)$', s)
        if m and cur is None:
            attrs[m.group(1)] = m.group(2)
            continue
        m = re.match(r"module (\S+)$", s)
        if m:
            base = attrs.get("hdlname", "").strip('"').lstrip("\\")
            name = m.group(1).lstrip("\\")
            cur = None
            if "blackbox" in attrs and base in ctx["macro_mods"] and not name.startswith("$abstract"):
                cur = out[name] = (base, {}, [])
            attrs = {}
            continue
        if cur is None:
            continue
        m = re.match(r"parameter \\(\w+) (\S+)$", s)
        if m:
            v = m.group(2)
            b = re.fullmatch(r"s?\d+'([01]+)", v)
            cur[1][m.group(1)] = int(b.group(1), 2) if b else int(v)
        m = re.match(r"wire (?:width (\d+) )?(input|output) \d+ \\(\w+)$", s)
        if m:
            cur[2].append((m.group(3), m.group(2), int(m.group(1) or 1)))
        if s == "end":
            cur = None
    os.remove(il)
    return out


def rename_macros(netlist, names, model, cell_types, period):
    """Gives every memory macro instance of the netlist the type of its liberty cell
    (gs_ram_1r1w_d40_w16) and returns the instances with their modeled figures; the derived types
    leave cell_types (stat -liberty counts them as cells of unknown area)."""
    text = open(netlist).read()
    found = []

    def sub(m):
        typ = m.group(2).strip().lstrip("\\")
        if typ not in names:
            return m.group(0)
        base, params, ports = names[typ]
        f = macro_figures(model, base, params["Depth"], params["Width"], period, params.get("ReadCycles", 1))
        f["instance"] = m.group(3).strip().lstrip("\\")
        f["ports"] = ports
        found.append(f)
        return f"{m.group(1)}{f['cell']} {m.group(3)}{m.group(4)}"

    text = re.sub(r"^(\s*)(\\\S+ |[A-Za-z_]\w*)\s+(\\\S+ |[A-Za-z_][\w$]*)(\s*\()", sub, text, flags=re.M)
    with open(netlist, "w") as f:
        f.write(text)
    for typ in names:
        for t in (typ, "\\" + typ):
            cell_types.pop(t, None)
    return found


def macro_liberty(liberty, macros, out_path):
    """The osu018 liberty with one cell per memory macro shape appended (OpenSTA reads one file):
    inputs with a setup and hold check against clk_i, outputs rdata_o with the modeled access time as
    clock-to-output delay (docs/area-timing.md). Returns out_path."""
    model_pin = load_sram_model()["pin"]
    cells, widths = {}, set()
    for mc in macros:
        cells.setdefault(mc["cell"], mc)
        widths.update(w for _, _, w in mc["ports"] if w > 1)
    scalar = lambda v: f'(scalar) {{ values ("{v:.4f}"); }}'
    lines = [f"  type (gs_macro_bus_{w}) {{ base_type : array; data_type : bit; bit_width : {w}; "
             f"bit_from : {w - 1}; bit_to : 0; downto : true; }}" for w in sorted(widths)]
    for name, mc in sorted(cells.items()):
        lines += [f"  /* {mc['module']} Depth {mc['depth']} Width {mc['width']}: constraints/sram_model.json */",
                  f"  cell ({name}) {{", f"    area : {mc['area_um2']};", "    dont_use : true;"]
        for port, direction, w in mc["ports"]:
            head = f"    bus ({port}) {{ bus_type : gs_macro_bus_{w};" if w > 1 else f"    pin ({port}) {{"
            lines.append(f"{head} direction : {direction};")
            if direction == "input":
                lines.append(f"      capacitance : {model_pin['input_cap_pf']};")
                if port == "clk_i":
                    lines.append("      clock : true;")
                else:
                    for kind, v in (("setup_rising", mc["setup_ns"]), ("hold_rising", mc["hold_ns"])):
                        lines.append(f'      timing () {{ related_pin : "clk_i"; timing_type : {kind}; '
                                     f"rise_constraint {scalar(v)} fall_constraint {scalar(v)} }}")
            else:
                tr = model_pin["output_transition_ns"]
                lines.append(f'      timing () {{ related_pin : "clk_i"; timing_type : rising_edge; '
                             f"cell_rise {scalar(mc['arc_ns'])} cell_fall {scalar(mc['arc_ns'])} "
                             f"rise_transition {scalar(tr)} fall_transition {scalar(tr)} }}")
            lines.append("    }")
        lines.append("  }")
    text = open(liberty).read().rstrip()
    if not text.endswith("}"):
        raise FlowError(f"{liberty}: does not end with the library's closing brace")
    with open(out_path, "w") as f:
        f.write(text[:-1] + "\n  /* gsched memory macros (constraints/area_flow.py) */\n" + "\n".join(lines) + "\n}\n")
    return out_path


def add_macros(res, macros, period):
    """The block's own macros into its figures: area = cells + macros, the macros' bits as storage."""
    a = res["asic"]
    a["cells"] -= len(macros)   # stat counted each instance as a cell
    a["cell_area_um2"] = a["area_um2"]
    a["macros"] = [{k: v for k, v in mc.items()} for mc in macros]
    for mc in a["macros"]:
        mc["fits_period"] = mc["access_ns"] < mc["read_cycles"] * period
        mc["fits_period_band_high"] = mc["access_band_ns"][1] < mc["read_cycles"] * period
    a["macro_area_um2"] = sum(mc["area_um2"] for mc in macros)
    a["macro_bits"] = sum(mc["bits"] for mc in macros)
    a["area_um2"] += a["macro_area_um2"]
    a["storage_bits"] += a["macro_bits"]


# ------------------------------------------------------------------------------ iCE40
def ice40_counts(stat_path):
    text = open(stat_path).read()
    cnt = {}
    for m in re.finditer(r"^\s+(SB_\w+)\s+(\d+)$", text, re.M):
        cnt[m.group(1)] = cnt.get(m.group(1), 0) + int(m.group(2))
    luts = cnt.get("SB_LUT4", 0)
    ffs = sum(v for k, v in cnt.items() if k.startswith("SB_DFF"))
    return {"luts": luts, "ffs": ffs, "carries": cnt.get("SB_CARRY", 0), "brams": cnt.get("SB_RAM40_4K", 0)}


def write_wrapper(top, json_path, out_path):
    """gs_fpga_wrap: every input bit of `top` from one shift register fed by pin sin, every output
    bit captured (load) into another shifted out on pin sout. The block's logic stays observable
    and controllable, so nothing is optimised away, with 5 pins whatever the port count."""
    mod = json.load(open(json_path))["modules"][top]
    ins, outs = [], []
    for name, p in mod["ports"].items():
        w = len(p["bits"])
        if name in ("clk_i", "rst_ni"):
            continue
        (ins if p["direction"] == "input" else outs).append((name, w))
    nin = max(1, sum(w for _, w in ins))
    nout = max(1, sum(w for _, w in outs))
    conns = []
    if "clk_i" in mod["ports"]:
        conns.append(".clk_i(clk)")
    if "rst_ni" in mod["ports"]:
        conns.append(".rst_ni(rst_n)")
    pos = 0
    for name, w in ins:
        conns.append(f".{name}(in_sr[{pos + w - 1}:{pos}])")
        pos += w
    pos = 0
    for name, w in outs:
        conns.append(f".{name}(o[{pos + w - 1}:{pos}])")
        pos += w
    shift_in = "{in_sr[%d:0], sin}" % (nin - 2) if nin > 1 else "sin"
    shift_out = "{out_sr[%d:0], 1'b0}" % (nout - 2) if nout > 1 else "1'b0"
    text = f"""// GENERATED by constraints/area_flow.py: serial I/O wrapper of {top} for nextpnr-ice40.
module gs_fpga_wrap (input wire clk, input wire rst_n, input wire sin, input wire load, output wire sout);
  reg [{nin - 1}:0] in_sr;
  reg [{nout - 1}:0] out_sr;
  wire [{nout - 1}:0] o;
  always @(posedge clk) in_sr <= {shift_in};
  always @(posedge clk) out_sr <= load ? o : {shift_out};
  assign sout = out_sr[{nout - 1}];
  {top} u_dut ({", ".join(conns)});
endmodule
"""
    with open(out_path, "w") as f:
        f.write(text)
    return nin, nout


def parse_nextpnr(report):
    r = json.load(open(report))
    fmax = None
    for clk, v in r.get("fmax", {}).items():
        fmax = v.get("achieved") if fmax is None else min(fmax, v.get("achieved"))
    lc = r.get("utilization", {}).get("ICESTORM_LC", {})
    return {"fmax_mhz": fmax, "lcs_used": lc.get("used"), "lcs_available": lc.get("available")}


# ------------------------------------------------------------------------------ one run
def file_hash(paths, extra):
    h = hashlib.sha256()
    for p in paths:
        h.update(p.encode())
        with open(p, "rb") as f:
            h.update(f.read())
    h.update(json.dumps(extra, sort_keys=True).encode())
    return h.hexdigest()[:16]


def module_files(sources):
    """module -> its source file, in source order: the blocks (every source after the package)."""
    return {m: src for src in sources[1:] for m in re.findall(r"^\s*module\s+(\w+)", open(src).read(), re.M)}


def sub_blocks(files):
    """block -> the blocks its source instantiates (`gs_x [#(...)] u_name (`), from the RTL text."""
    subs = {}
    for b, src in files.items():
        text = re.sub(r"//[^\n]*", "", open(src).read())
        found = re.findall(r"^\s*(\w+)\s*(?:#\s*\(.*?\)\s*)?\w+\s*\(", text, re.M | re.S)
        subs[b] = sorted({f for f in found if f in files and f != b})
    return subs


def closure(subs, roots):
    """The roots and every block below them."""
    out, stack = set(roots), list(roots)
    while stack:
        for c in subs[stack.pop()]:
            if c not in out:
                out.add(c)
                stack.append(c)
    return out


def rtl_params(path):
    """params.txt (Yosys `dump -n`): the block's parameter defaults as integers where they are."""
    out = {}
    for m in re.finditer(r"^\s*parameter\s+\\(\w+)\s+(\S+)", open(path).read(), re.M):
        v = m.group(2)
        b = re.fullmatch(r"s?\d+'([01]+)", v)
        out[m.group(1)] = str(int(b.group(1), 2)) if b else str(int(v)) if re.fullmatch(r"-?\d+", v) else v
    return out


def composition(block, subs, done):
    """The sub-blocks a composite reuses (their finished runs at this scale), or a FlowError naming
    the one without figures."""
    parts = {}
    for c in subs:
        r = done.get(c)
        if r is None or r.get("status") != "ok":
            why = "not run" if r is None else r.get("status")
            raise FlowError(f"not composed: sub-block {c} has no figures ({why})")
        parts[c] = r
    return parts


def tcl_dict(d):
    return " ".join(f"{k} {{{' '.join(f'{pk} {pv}' for pk, pv in v.items())}}}" for k, v in d.items())


def rtl_hash(block, sources, wd, args, ctx):
    """Hash of the block's elaborated RTL (Yosys `hierarchy`, RTLIL without source locations), or
    None when Yosys fails (the run itself then reports why). Only the package and the files of
    the block's own hierarchy are read: the names Yosys makes up (`$auto$...$N`) count on from
    every file read, so reading the others too would change the hash with any edit of them."""
    il = os.path.join(wd, "elab.il")
    own = {ctx["files"][m] for m in ctx["hierarchy"][block]}
    files = [sources[0]] + [p for p in sources[1:] if os.path.basename(p) in own]
    st, _ = run_tool([ctx["yosys"], "-q", "-p", f"read_verilog -defer -sv -DSYNTHESIS {' '.join(files)}; "
                      f"hierarchy -check -top {block}; write_rtlil {il}"],
                     os.path.join(wd, "elab.log"), args.timeout, args.mem_gb)
    if st != "ok":
        return None
    h = hashlib.sha256()
    with open(il) as f:
        for line in f:
            if "attribute \\src " not in line:
                h.update(line.encode())
    os.remove(il)
    if ctx["macro_mods"] & ctx["hierarchy"][block]:
        # the macros' figures come from the model: another model, other figures for the same RTL
        with open(SRAM_MODEL, "rb") as f:
            h.update(f.read())
    return h.hexdigest()[:16]


def runs_elsewhere(block, scale, args):
    """(scale name, result) of the block's finished runs at the other scales, smallest scale first."""
    for other in sorted(os.listdir(os.path.join(args.out, "runs")), key=scale_size):
        rp = os.path.join(args.out, "runs", other, block, "result.json")
        if other != scale_name(scale) and os.path.exists(rp):
            yield other, json.load(open(rp))


def same_rtl_elsewhere(block, sources, scale, wd, args, ctx):
    """A block whose elaborated RTL does not depend on the scale (gs_ptbq at 16, 32, 64 and 132
    SMs; the arithmetic units at every scale) is mapped once: its RTL hash (rtl_hash) is compared
    with the block's finished runs at the other scales under the same scripts and options. Equal:
    that run's result is this scale's too (marked `same_rtl_as`), a time-out or memory failure
    included when the limits are the same. Returns the result or None."""
    rtl = rtl_hash(block, sources, wd, args, ctx)
    if rtl is None:
        return None
    ctx.setdefault("rtl_hash", {})[(scale_name(scale), block)] = rtl
    # the smallest scale's run first: every scale then shows the same figures for the same RTL
    for other, r in runs_elsewhere(block, scale, args):
        if r.get("rtl_hash") != rtl or r.get("same_rtl_as") or r.get("flow_key") != ctx["flow_key"]:
            continue
        if r["status"] != "ok" and (r.get("timeout_s") != args.timeout or r.get("mem_gb") != args.mem_gb):
            continue
        if r["status"] == "ok" and block in ctx["is_sub_block"] and not all(map(os.path.exists, r.get("netlists", []))):
            continue
        log(f"    {scale_name(scale)} {block}: the same elaborated RTL as at {other}: its figures")
        return dict(r, scale=scale, same_rtl_as=other)
    return None


def learned_abc_mode(block, scale, args, ctx):
    """Where this block's osu018 mapping starts, from its own runs at smaller scales (at most as
    many SMs and kernels) under the same scripts, options and limits. Mapping time grows with the
    scale, so:
      ('nf', scale, None)    abc -fast failed there: start with the &nf script;
      ('fast', scale, None)  the standard mapping passed --abc-fast-after there: start with abc -fast;
      ('fast', scale, est)   the standard mapping's time extrapolated from there (the power of the
                             scale fitted to the two largest smaller runs, linear from one) passes
                             --abc-fast-after: start with abc -fast (est: the estimate, seconds);
      None                   start with the standard script.
    Each saves the --abc-fast-after seconds (and, for &nf, a failed abc -fast run) that finding
    the same fallback again would cost."""
    size = lambda s: s["MaxSms"] * s["MaxKernels"]
    fallback, timed = None, []
    for other, r in runs_elsewhere(block, scale, args):
        s = r.get("scale", {})
        if (r.get("status") != "ok" or r.get("flow_key") != ctx["flow_key"] or r.get("same_rtl_as")
                or r.get("timeout_s") != args.timeout or not isinstance(s, dict)
                or s.get("MaxSms", 1 << 30) > scale["MaxSms"] or s.get("MaxKernels", 1 << 30) > scale["MaxKernels"]):
            continue
        abc = r.get("abc", "standard")
        mode = "nf" if abc.startswith("nf") else "fast" if abc.startswith("fast") and "--abc fast" not in abc else None
        if mode and (fallback is None or (mode == "nf" and fallback[0] != "nf")):
            fallback = (mode, other, None)
        if abc == "standard" and r.get("yosys_s") and size(s) < size(scale):
            timed.append((size(s), r["yosys_s"], other))
    if fallback or not timed or args.abc_fast_after <= 0:
        return fallback
    timed.sort()
    n1, t1, other = timed[-1]
    power = 1.0
    if len(timed) > 1 and timed[-2][0] < n1 and timed[-2][1] > 0:
        power = math.log(t1 / timed[-2][1]) / math.log(n1 / timed[-2][0])
    est = t1 * (size(scale) / n1) ** max(power, 0.0)
    return ("fast", other, round(est)) if est > args.abc_fast_after else None


def run_block(block, sources, scale, args, ctx, subs=(), done=None):
    """One block at one scale. `subs`: the blocks it instantiates; their results (`done`, this scale)
    are reused, bottom-up: they are black boxes in this run, which maps only the block's own logic."""
    wd = os.path.join(args.out, "runs", scale_name(scale), block)
    os.makedirs(wd, exist_ok=True)
    res_path = os.path.join(wd, "result.json")
    try:
        parts = composition(block, subs, done or {})
    except FlowError as e:
        res = {"block": block, "scale": scale, "status": str(e), "cached": False, "flow_key": ctx["flow_key"]}
        with open(res_path, "w") as f:
            json.dump(res, f, indent=1)
        return res
    # the package and the files of the block's own hierarchy (Yosys reads -defer: nothing else is
    # elaborated), so an edit of one block reruns only it and the blocks that contain it
    by_name = {os.path.basename(p): p for p in sources}
    has_macros = bool(ctx["macro_mods"] & ctx["hierarchy"][block])
    key = file_hash([sources[0]] + [by_name[ctx["files"][m]] for m in sorted(ctx["hierarchy"][block])] + FLOW_SCRIPTS
                    + [ctx["liberty"]] + ([SRAM_MODEL] if has_macros else []),
                    {"block": block, "period": args.period, "ice40": args.ice40, "v": FLOW_VERSION,
                     "abc": args.abc, "abc_fast_after": args.abc_fast_after,
                     "parts": {c: r["key"] for c, r in parts.items()}})
    netlist = os.path.join(wd, "netlist.v")
    # a sub-block's netlist stays for its composites' STA; a cached run without it is redone
    keep = args.keep_netlists or block in ctx["is_sub_block"]
    if os.path.exists(res_path) and not args.force:
        old = json.load(open(res_path))
        # same inputs: reuse, unless it ran out of time or memory and the limits are higher now
        retry = old.get("status") != "ok" and (args.timeout > old.get("timeout_s", 0) or args.mem_gb > old.get("mem_gb", 0))
        lost = old.get("status") == "ok" and keep and not os.path.exists(netlist)
        if old.get("key") == key and not retry and not lost:
            if not parts and not old.get("same_rtl_as") and "rtl_hash" not in old:
                # a run of an earlier version of this file: note its RTL hash for the other scales
                old["rtl_hash"] = rtl_hash(block, sources, wd, args, ctx)
                old["flow_key"] = ctx["flow_key"]
                with open(res_path, "w") as f:
                    json.dump(old, f, indent=1)
            old["cached"] = True
            return old
    same = None if parts or args.force else same_rtl_elsewhere(block, sources, scale, wd, args, ctx)
    if same:
        with open(res_path, "w") as f:
            json.dump(dict(same, key=key), f, indent=1)
        return dict(same, key=key, cached=False)
    res = {"block": block, "scale": scale, "key": key, "status": "ok", "timeout_s": args.timeout,
           "mem_gb": args.mem_gb, "rtl_hash": ctx.get("rtl_hash", {}).get((scale_name(scale), block)),
           "flow_key": ctx["flow_key"]}
    reuse = {c: rtl_params(os.path.join(os.path.dirname(r["netlists"][0]), "params.txt")) for c, r in parts.items()}
    env = dict(os.environ, GS_TOP=block, GS_SOURCES=" ".join(sources), GS_LIBERTY=ctx["liberty"],
               GS_OUT_DIR=wd, GS_CLOCK_PERIOD=str(args.period), GS_NETLIST=netlist,
               GS_SDC=os.path.join(HERE, "clocks.sdc"), GS_REUSE=tcl_dict(reuse))
    # ---- osu018: the standard abc script first; past --abc-fast-after, `abc -fast` (marked)
    full_limit = min(args.timeout, args.abc_fast_after) if args.abc_fast_after > 0 else args.timeout
    if args.abc == "standard":
        full_limit = args.timeout

    def map_osu018(limit, abc_fast):
        return run_tool([ctx["yosys"], "-q", "-c", os.path.join(HERE, "yosys_osu018.tcl")],
                        os.path.join(wd, "yosys_osu018.log"), limit, args.mem_gb,
                        env=dict(env, GS_ABC_FAST=abc_fast) if abc_fast else env)

    learned = learned_abc_mode(block, scale, args, ctx) if args.abc == "auto" else None
    if learned:
        # the smaller scale's mapping needed the fallback: this larger one starts with it
        mode, other, est = learned
        why = (f"its standard mapping, extrapolated from {other}, would take about {est} s" if est else
               f"at {other} its standard abc mapping passed {full_limit} s" + (" and abc -fast failed" if mode == "nf" else ""))
        log(f"    {block}: {why}; starting with " + ("the &nf script" if mode == "nf" else "abc -fast"))
        st, dt = map_osu018(args.timeout, "nf" if mode == "nf" else "1")
        res["yosys_s"] = round(dt, 1)
        res["abc"] = (f"fast (standard mapping estimated at {est} s from {other})" if est else
                      ("nf (abc -fast failed at " if mode == "nf" else "fast (standard mapping passed the limit at ")
                      + other + ")")
    else:
        st, dt = map_osu018(full_limit, "1" if args.abc == "fast" else None)
        res["yosys_s"] = round(dt, 1)
        res["abc"] = "fast (--abc fast)" if args.abc == "fast" else "standard"
    if st == "timeout" and args.abc == "auto" and full_limit < args.timeout and not learned:
        log(f"    {block}: the standard abc mapping passed {full_limit} s; mapping again with abc -fast")
        st, dt = map_osu018(args.timeout, "1")
        res["abc"] = f"fast (standard mapping stopped after {full_limit} s)"
        res["yosys_fast_s"] = round(dt, 1)
    if st == "error" and res["abc"] != "standard" and not res["abc"].startswith("nf") and "Can't open ABC output file" in tail(
            os.path.join(wd, "yosys_osu018.log")):
        log(f"    {block}: abc -fast failed (no output); mapping with the &nf script")
        st, dt = map_osu018(args.timeout, "nf")
        res["abc"] = "nf (" + res["abc"].split(" (")[0].replace("fast", "abc -fast") + " failed: no output)"
        res["yosys_nf_s"] = round(dt, 1)
    if st != "ok":
        timed = (f"osu018 synthesis timed out: standard abc after {full_limit} s, abc -fast after {args.timeout} s"
                 if res["abc"].startswith("fast") else
                 f"osu018 synthesis timed out: abc -fast failed, the &nf script after {args.timeout} s"
                 if res["abc"].startswith("nf") else f"osu018 synthesis timed out after {full_limit} s")
        res["status"] = {"timeout": timed,
                         "memory": f"osu018 synthesis ran out of memory (limit {args.mem_gb} GB)",
                         "error": "osu018 synthesis failed: " + tail(os.path.join(wd, "yosys_osu018.log"))}[st]
    else:
        res["asic"] = parse_stat(os.path.join(wd, "stat.txt"), ctx["lib_areas"])
        res["asic"].update(parse_rtl_stat(os.path.join(wd, "rtl_stat.txt")))
        reused = open(os.path.join(wd, "reused.txt")).read().split()
        if has_macros:
            # the memory macros the block instantiates itself (those of reused sub-blocks come with
            # their figures): modeled, and their instances renamed to their liberty cells
            try:
                names = macro_params(block, sources, wd, args, ctx)
                add_macros(res, rename_macros(netlist, names, ctx["sram_model"], res["asic"]["cell_types"],
                                              args.period), args.period)
            except (FlowError, KeyError, ValueError) as e:
                res["status"] = f"memory macros: {e}"
        if parts:
            add_parts(res, parts, reused)
        # OpenSTA links the block's netlist with those of the sub-blocks it reused (transitively)
        res["netlists"] = [netlist] + sorted({n for c in reused for n in parts[c].get("netlists", [])})
        env["GS_NETLIST"] = " ".join(res["netlists"])
        if res["asic"].get("macros"):
            # OpenSTA times the paths into and out of each macro from its liberty cell
            env["GS_LIBERTY"] = macro_liberty(ctx["liberty"], res["asic"]["macros"], os.path.join(wd, "osu018_macros.lib"))
        st, dt = run_tool([ctx["sta"], "-no_splash", "-exit", os.path.join(HERE, "sta.tcl")],
                          os.path.join(wd, "sta.log"), args.timeout, args.mem_gb, env=env)
        res["sta_s"] = round(dt, 1)
        if st != "ok":
            res["status"] = f"OpenSTA {st}: " + tail(os.path.join(wd, "sta.log"))
        else:
            try:
                res["timing"] = parse_sta(os.path.join(wd, "sta.log"), os.path.join(wd, "netlist.v"), args.period)
                t = res["timing"]
                for mc in res["asic"].get("macros", []):
                    for k in ("startpoint", "endpoint"):
                        # OpenSTA calls a macro a flip-flop: name it by what it models
                        if (t.get(k) or "").startswith(mc["instance"] + " "):
                            t[k] = (f"{mc['instance']} (memory macro {mc['module']} {mc['depth']}x{mc['width']}, "
                                    f"access {mc['access_ns']:.2f} ns)")
            except FlowError as e:
                res["status"] = str(e)
        if not keep:
            try:
                os.remove(netlist)
            except OSError:
                pass
    # ---- iCE40
    if (args.ice40 == "all" or (args.ice40 == "top" and block == "gs_top")) and has_macros:
        res["ice40"] = {"device": ICE40_DEVICE["name"],
                        "status": "not run: memory macros (rtl/mem black boxes) have no iCE40 mapping in this flow"}
    elif args.ice40 == "all" or (args.ice40 == "top" and block == "gs_top"):
        res["ice40"] = run_ice40(block, sources, wd, args, ctx)
    with open(res_path, "w") as f:
        json.dump(res, f, indent=1)
    res["cached"] = False
    return res


def add_parts(res, parts, reused):
    """A composite's figures: its own (glue) logic plus each reused sub-block times its instances."""
    a = res["asic"]
    types = a["cell_types"]
    a["glue"] = {k: a[k] for k in ("cells", "area_um2", "ffs", "storage_bits")}
    a["parts"] = {}
    for c in reused:
        n = types.pop(c, 0)
        if n == 0:
            continue
        pa = parts[c]["asic"]
        a["parts"][c] = n
        a["cells"] += n * (pa["cells"] - 1)   # the black-box instance was counted as one cell
        for k in ("area_um2", "ffs", "ff_area_um2", "storage_bits", "memory_bits"):
            a[k] += n * pa[k]
        for t, cnt in pa["cell_types"].items():
            types[t] = types.get(t, 0) + n * cnt
        for mc in pa.get("macros", []):
            a.setdefault("macros", []).append(dict(mc, instance=f"{c}/{mc['instance']}", count=n * mc.get("count", 1)))
    if a.get("macros"):
        a["macro_area_um2"] = sum(mc["area_um2"] * mc.get("count", 1) for mc in a["macros"])
        a["macro_bits"] = sum(mc["bits"] * mc.get("count", 1) for mc in a["macros"])
        a["cell_area_um2"] = a["area_um2"] - a["macro_area_um2"]
    res["abc_parts"] = sorted({c for c in a["parts"] if parts[c].get("abc", "standard") != "standard"}
                              | {x for c in a["parts"] for x in parts[c].get("abc_parts", [])})


def run_ice40(block, sources, wd, args, ctx):
    out = {"device": ICE40_DEVICE["name"]}
    d1 = os.path.join(wd, "ice40")
    os.makedirs(d1, exist_ok=True)
    env = dict(os.environ, GS_TOP=block, GS_SOURCES=" ".join(sources), GS_OUT_DIR=d1)
    st, dt = run_tool([ctx["yosys"], "-q", "-c", os.path.join(HERE, "ice40_synth.tcl")],
                      os.path.join(d1, "yosys.log"), args.timeout, args.mem_gb, env=env)
    out["yosys_s"] = round(dt, 1)
    if st != "ok":
        out["status"] = {"timeout": f"synth_ice40 timed out after {args.timeout} s",
                         "memory": f"synth_ice40 ran out of memory (limit {args.mem_gb} GB)",
                         "error": "synth_ice40 failed: " + tail(os.path.join(d1, "yosys.log"))}[st]
        return out
    out.update(ice40_counts(os.path.join(d1, "ice40_stat.txt")))
    d2 = os.path.join(wd, "ice40_wrap")
    os.makedirs(d2, exist_ok=True)
    nin, nout = write_wrapper(block, os.path.join(d1, "ice40.json"), os.path.join(d2, "gs_fpga_wrap.v"))
    os.remove(os.path.join(d1, "ice40.json"))
    out["wrapper_ffs"] = nin + nout
    need = max(out["luts"], out["ffs"] + nin + nout)
    if need > ICE40_DEVICE["lcs"]:
        out["status"] = (f"does not fit {ICE40_DEVICE['name']}: needs at least {need} logic cells "
                         f"(LUTs {out['luts']}, FFs {out['ffs']} + {nin + nout} wrapper FFs), has {ICE40_DEVICE['lcs']}")
        return out
    env = dict(os.environ, GS_TOP="gs_fpga_wrap", GS_SOURCES=" ".join(sources + [os.path.join(d2, "gs_fpga_wrap.v")]),
               GS_OUT_DIR=d2)
    st, dt = run_tool([ctx["yosys"], "-q", "-c", os.path.join(HERE, "ice40_synth.tcl")],
                      os.path.join(d2, "yosys.log"), args.timeout, args.mem_gb, env=env)
    if st != "ok":
        out["status"] = f"synth_ice40 of the wrapper: {st}: " + tail(os.path.join(d2, "yosys.log"))
        return out
    report = os.path.join(d2, "nextpnr_report.json")
    st, dt = run_tool([ctx["nextpnr"], *ICE40_DEVICE["args"], "--json", os.path.join(d2, "ice40.json"),
                       "--pcf", os.path.join(HERE, "ice40_hx8k.pcf"), "--freq", "50", "--seed", "1",
                       "--timing-allow-fail", "--report", report, "-q"],
                      os.path.join(d2, "nextpnr.log"), args.timeout, args.mem_gb)
    out["nextpnr_s"] = round(dt, 1)
    os.remove(os.path.join(d2, "ice40.json"))
    if st != "ok":
        t = tail(os.path.join(d2, "nextpnr.log"), 3)
        out["status"] = (f"nextpnr-ice40 timed out after {args.timeout} s" if st == "timeout"
                         else f"nextpnr-ice40 {st}: {t}")
        return out
    out.update(parse_nextpnr(report))
    out["status"] = "ok"
    return out


# ------------------------------------------------------------------------------ report
def fmt(v, nd=0):
    if v is None:
        return "–"
    if isinstance(v, float):
        return f"{v:,.{nd}f}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def spec_params():
    """The spec's [params] defaults by name (a latency formula may use them, e.g. WfMaxSteps)."""
    import tomllib
    with open(SPEC, "rb") as f:
        return {k: v["value"] for k, v in tomllib.load(f).get("params", {}).items()}


def latency_of(block, scale, lat):
    e = lat.get(block)
    if not e:
        return None, "not documented (constraints/latency.json)"
    if e["cycles"] is None:
        return None, e["contract"]
    names = dict(spec_params(), N=scale["MaxSms"], K=scale["MaxKernels"], max=max,
                 clog2=lambda x: max(1, (int(x) - 1).bit_length()), cdiv=lambda a, b: -(-int(a) // int(b)))
    return int(eval(e["cycles"], {"__builtins__": {}}, names)), e["contract"]


def macro_table(results, period, ctx):
    """The memory macros of a scale's blocks: one row per instance (or instance group of a composite)."""
    rows = []
    dff = ctx["lib_areas"].get("DFFPOSX1", 0.0)
    for r in results:
        for mc in (r or {}).get("asic", {}).get("macros", []):
            n = mc.get("count", 1)
            ab, tb = mc["area_band_um2"], mc["access_band_ns"]
            rc = mc.get("read_cycles", 1)
            left = rc * period - mc["access_ns"]
            fit = (f"yes, {left:.2f} ns left" if left > 0 else f"no, {-left:.2f} ns over") + (
                f" of {rc} periods" if rc > 1 else "") + (
                "" if mc["fits_period_band_high"] or left <= 0 else f" (not at the band's {tb[1]:.2f} ns)")
            rows.append("| " + " | ".join([
                r["block"], mc["instance"] + (f" x{n}" if n > 1 else ""), mc["module"], f"{mc['depth']} x {mc['width']}",
                fmt(mc["bits"]), f"{fmt(mc['area_um2'])} ({fmt(ab[0])} .. {fmt(ab[1])})",
                f"{mc['access_ns']:.2f} ({tb[0]:.2f} .. {tb[1]:.2f})" + (" extrapolated" if mc["access_extrapolated"] else ""),
                fit, fmt(mc["bits"] * dff)]) + " |")
    if not rows:
        return []
    return ["### Memory macros (constraints/sram_model.json)", "",
            "Modeled, not mapped: area = fixed + per bit x Depth x Width, access = clock to rdata_o, each with the "
            "model's band; the block's area above is its cells plus these. OpenSTA times the paths into and out of "
            f"each macro from a liberty cell with that access time (ReadCycles 2: the word is taken two edges after its "
            f"read, so the cell's delay is the access less a period, from the next edge). fits: access < the {period} ns "
            "period (ReadCycles 2: two periods); flop "
            "bits: the same bits as DFFPOSX1 flip-flops alone (no read multiplexer), for scale.", "",
            "| block | instance | module | words x bits | bits | area um^2 (band) | access ns (band) | fits the period | "
            "flop bits um^2 |", "|---|---|---|---|---:|---:|---:|---|---:|"] + rows + [""]


def build_report(results, scales, blocks, args, ctx, lat, launch):
    doc = {"liberty": ctx["liberty"], "period_ns": args.period, "tools": ctx["versions"],
           "scales": [dict(s, name=scale_name(s)) for s in scales], "results": []}
    for r in results:
        cyc, contract = latency_of(r["block"], r["scale"], lat)
        r2 = {k: v for k, v in r.items() if k not in ("key", "cached")}
        r2["scale"] = scale_name(r["scale"])
        r2["latency_cycles"] = cyc
        r2["latency_contract"] = contract
        doc["results"].append(r2)
    if launch:
        doc["launch_to_first_dispatch"] = launch
    md = [f"# gsched area and timing (osu018 180 nm, clock {args.period} ns = {1000 / args.period:.0f} MHz)", "",
          f"Liberty: `{ctx['liberty']}`. Tools: " + ", ".join(f"{k} {v}" for k, v in ctx["versions"].items()) + ".",
          "Area = `stat -liberty` of the mapped cells (no wiring); FFs = flip-flop cells; storage = register and "
          "memory bits as written in the RTL; slack = worst setup slack (OpenSTA, no wire load); "
          "latency = decision latency from the latency contract (N = MaxSms, K = MaxKernels). "
          "\"abc -fast\" (\"*\" in the growth table): the block (or a sub-block of it) was mapped with abc's cheaper "
          "script (--abc fast, or its standard mapping passed --abc-fast-after, here or at a smaller scale, where "
          "a larger scale starts with the fallback), whose netlist is typically larger "
          "and slower; \"abc &nf\": abc -fast failed on it (no output; here or at a smaller scale) and it was "
          "mapped with the &nf script of "
          "constraints/yosys_osu018.tcl instead. \"composed\": a block that instantiates other blocks is mapped bottom-up: its own logic "
          "here, each sub-block from that block's own run at the same scale (figures added, netlists linked for "
          "OpenSTA), with no optimization across the sub-blocks' ports.", ""]
    by = {(scale_name(r["scale"]), r["block"]): r for r in results}
    for s in scales:
        sn = scale_name(s)
        md += [f"## MaxSms = {s['MaxSms']}, MaxKernels = {s['MaxKernels']}", "",
               "| block | cells | area um^2 | FFs | storage bits | slack ns | Fmax MHz | levels | critical path | latency cycles | iCE40 LUTs | iCE40 FFs | iCE40 Fmax MHz | note |",
               "|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|"]
        for b in blocks:
            r = by.get((sn, b))
            if not r:
                continue
            a, t, i = r.get("asic", {}), r.get("timing", {}), r.get("ice40", {})
            cyc, _ = latency_of(b, s, lat)
            path = f"{t.get('startpoint')} → {t.get('endpoint')}" if t else "–"
            notes = [] if r["status"] == "ok" else [r["status"]]
            if r.get("abc", "standard").startswith("nf"):
                notes.insert(0, "abc &nf (abc -fast failed)")
            elif r.get("abc", "standard") != "standard":
                notes.insert(0, "abc -fast")
            if a.get("macros"):
                notes.append(f"cells {fmt(a['cell_area_um2'])} um^2 + memory macros {fmt(a['macro_area_um2'])} um^2 "
                             f"({sum(mc.get('count', 1) for mc in a['macros'])} instance(s), below)")
            if a.get("parts"):
                notes.append(f"composed: own logic {fmt(a['glue']['area_um2'])} um^2 + "
                             + ", ".join(f"{c}" + (f" x{n}" if n > 1 else "") for c, n in a["parts"].items()))
            if r.get("same_rtl_as"):
                notes.append(f"same elaborated RTL as {r['same_rtl_as']}: its figures")
            if r.get("abc_parts"):
                notes.append("sub-blocks mapped with abc -fast: " + ", ".join(r["abc_parts"]))
            if i and i.get("status") not in (None, "ok"):
                notes.append("iCE40: " + i["status"])
            md.append("| " + " | ".join([
                b, fmt(a.get("cells")), fmt(a.get("area_um2")), fmt(a.get("ffs")), fmt(a.get("storage_bits")),
                fmt(t.get("worst_slack_ns"), 2), fmt(t.get("fmax_mhz"), 1), fmt(t.get("logic_levels")),
                path.replace("|", "/"), fmt(cyc), fmt(i.get("luts")), fmt(i.get("ffs")), fmt(i.get("fmax_mhz"), 1),
                "; ".join(notes).replace("|", "/")]) + " |")
        md.append("")
        md += macro_table([by.get((sn, b)) for b in blocks], args.period, ctx)
    if len(scales) > 1:
        # columns: the SM counts at the first scale's (the default's) kernels, then the other kernel counts
        cols = sorted(scales, key=lambda s: (s["MaxKernels"] != scales[0]["MaxKernels"], s["MaxSms"], s["MaxKernels"]))
        md += ["## Growth with scale: area in um^2 (and Fmax in MHz)", "",
               "| block | " + " | ".join(scale_name(s) for s in cols) + " |",
               "|---|" + "---:|" * len(cols)]
        for b in blocks:
            row = [b]
            for s in cols:
                r = by.get((scale_name(s), b))
                if not r:
                    row.append("–")
                elif r["status"] != "ok" and "asic" not in r:
                    row.append("not run" if r["status"] == "not run" else
                               "timed out" if "timed out" in r["status"] else "failed")
                else:
                    fast = " *" if r.get("abc", "standard") != "standard" or r.get("abc_parts") else ""
                    row.append(f"{fmt(r['asic']['area_um2'])} ({fmt(r.get('timing', {}).get('fmax_mhz'), 0)}){fast}")
            md.append("| " + " | ".join(row) + " |")
        md.append("")
    if launch:
        md += ["## Launch to first CTA dispatch (simulated)", "",
               f"`gs_launch_latency` ({launch.get('scheduler')} scheduler): per kernel, cycles from its arrival to "
               "the first dispatch of one of its CTAs, and from the cycle its launch reached the scheduler port.", "",
               "| config | mix | policy | kernel | arrival | launch at port | first dispatch | arrival → dispatch | port → dispatch |",
               "|---|---|---|---|---:|---:|---:|---:|---:|"]
        for run in launch.get("runs", []):
            for k in run["kernels"]:
                md.append(f"| {run['config']} | {run['mix']} | {run['policy']} | {k['name']} | {k['arrival']} | "
                          f"{fmt(k.get('launch_cycle'))} | {fmt(k.get('first_dispatch'))} | "
                          f"{fmt(k.get('arrival_to_dispatch'))} | {fmt(k.get('port_to_dispatch'))} |")
        md.append("")
    return doc, "\n".join(md)


def tool_version(cmd):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        return (out.stdout + out.stderr).strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sources", required=True,
                    help="RTL sources in compile order, ';' or ' ' separated (CMake GS_RTL_SOURCES): package first")
    ap.add_argument("--out", required=True, help="output directory (area.md, area.json, runs/)")
    ap.add_argument("--blocks", default="", help="comma-separated block names (default: every module)")
    ap.add_argument("--scales", default="default",
                    help="comma-separated: default, sweep, smsN, kN, smsN-kM (default: default)")
    ap.add_argument("--period", type=float, default=10.0, help="target clock period in ns (clocks.sdc)")
    ap.add_argument("--liberty", default="", help="osu018 liberty (default: GS_LIBERTY or the Debian package)")
    ap.add_argument("--ice40", choices=["all", "top", "none"], default="all",
                    help="iCE40 flow for every block, only gs_top, or none")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds per tool run")
    ap.add_argument("--abc", choices=["auto", "standard", "fast"], default="auto",
                    help="abc script of the osu018 mapping: the standard one with the fallback of --abc-fast-after "
                         "(auto), the standard one only, or `abc -fast` for every block (marked in the report)")
    ap.add_argument("--abc-fast-after", type=int, default=600,
                    help="seconds the standard abc mapping of a block may take before the block is mapped again "
                         "with `abc -fast` (figures marked 'abc -fast' in the report); 0 = never fall back")
    ap.add_argument("--mem-gb", type=float, default=8.0, help="address-space limit per tool run (GB)")
    ap.add_argument("--latency", default=os.path.join(HERE, "latency.json"), help="latency contracts JSON")
    ap.add_argument("--launch-latency", default="", help="JSON written by gs_launch_latency (optional)")
    ap.add_argument("--force", action="store_true", help="rerun cached results")
    ap.add_argument("--report-only", action="store_true",
                    help="run nothing: build area.md / area.json from the results already under --out")
    ap.add_argument("--keep-netlists", action="store_true",
                    help="keep every osu018 netlist (large; those of sub-blocks are always kept for their composites)")
    ap.add_argument("--flat", action="store_true",
                    help="map every block flat, sub-blocks included, instead of composing a block that "
                         "instantiates others from their runs (slow for gs_top; lets abc optimize across ports)")
    ap.add_argument("-j", "--jobs", type=int, default=1,
                    help="runs at once (each within --mem-gb); a composite waits for its sub-blocks")
    args = ap.parse_args()
    try:
        sources = [os.path.abspath(s) for s in re.split(r"[;\s]+", args.sources.strip()) if s]
        for s in sources:
            if not os.path.isfile(s):
                raise FlowError(f"--sources: {s}: no such file")
        pkg = sources[0]
        pkg_text = open(pkg).read()
        if not re.search(r"^\s*package\s+\w+", pkg_text, re.M):
            raise FlowError(f"--sources: the first source {pkg} is not a package")
        params = read_params(pkg_text)
        for p in ("MaxSms", "MaxKernels"):
            if p not in params:
                raise FlowError(f"{pkg}: no localparam {p}")
        files = module_files(sources)
        every = sub_blocks(files)
        sram_model = load_sram_model()
        macros = macro_modules(files, sram_model)
        blocks = [b for b in files if b not in macros]   # a memory macro is no block: its users report it
        if args.blocks:
            want = [b for b in args.blocks.split(",") if b]
            for b in want:
                if b in macros:
                    raise FlowError(f"--blocks: {b} is a memory macro (constraints/sram_model.json): run a block "
                                    "that instantiates it")
                if b not in blocks:
                    raise FlowError(f"--blocks: no module {b} in the sources (have: {', '.join(blocks)})")
            need = (closure(every, want) - macros) if not args.flat else set(want)
            if need - set(want):
                log(f"area_flow: also running the sub-blocks that {', '.join(want)} reuse: "
                    f"{', '.join(b for b in blocks if b in need - set(want))}")
            blocks = [b for b in blocks if b in need]
        if args.jobs < 1:
            raise FlowError(f"--jobs: {args.jobs}: need at least 1")
        scales = parse_scales(args.scales, params)
        os.makedirs(args.out, exist_ok=True)
        ctx = {"liberty": find_liberty(args.liberty), "yosys": need_tool("yosys"), "sta": need_tool("sta")}
        if args.ice40 != "none":
            ctx["nextpnr"] = need_tool("nextpnr-ice40")
        ctx["lib_areas"] = liberty_areas(ctx["liberty"])
        ctx["versions"] = {"yosys": tool_version(["yosys", "-V"]).replace("Yosys ", ""),
                           "OpenSTA": tool_version(["sta", "-version"])}
        if args.ice40 != "none":
            ctx["versions"]["nextpnr-ice40"] = tool_version(["nextpnr-ice40", "--version"]).split()[-1].strip("()")
        lat = {k: v for k, v in json.load(open(args.latency)).items() if not k.startswith("_")}
        launch = json.load(open(args.launch_latency)) if args.launch_latency else None
    except (FlowError, OSError, json.JSONDecodeError) as e:
        print(f"area_flow: {e}", file=sys.stderr)
        return 2

    ctx["files"] = {m: os.path.basename(f) for m, f in files.items()}
    ctx["hierarchy"] = {b: closure(every, [b]) for b in blocks}
    ctx["sram_model"], ctx["macro_mods"] = sram_model, macros
    subs = {b: [c for c in every[b] if c not in macros] for b in blocks} if not args.flat else {b: [] for b in blocks}
    ctx["flow_key"] = file_hash(FLOW_SCRIPTS + [ctx["liberty"]],
                                {"period": args.period, "ice40": args.ice40, "v": FLOW_VERSION, "abc": args.abc,
                                 "abc_fast_after": args.abc_fast_after})
    ctx["is_sub_block"] = {c for b in blocks for c in subs[b]}
    total = len(blocks) * len(scales)
    log(f"area_flow: {len(blocks)} block(s) x {len(scales)} scale(s) = {total} run(s), clock {args.period} ns, "
        f"timeout {args.timeout} s per tool, {args.jobs} at once; results in {args.out}")
    t_all = time.time()
    # every scale's package first (one writer), then the runs: a composite after its sub-blocks
    tasks = []
    for s in scales:
        d = os.path.join(args.out, "runs", scale_name(s))
        os.makedirs(d, exist_ok=True)
        if not args.report_only:
            generate(s, d)
        srcs = scale_sources(sources, d)
        tasks += [(s, b, srcs) for b in blocks]
    # the smallest scale first (a complete table in minutes, and the scale-independent blocks
    # mapped once at their cheapest), then the default parameters, then the others by size
    smallest = min(scales, key=lambda x: x["MaxSms"] * x["MaxKernels"])
    tasks.sort(key=lambda t: (t[0] != smallest, t[0] != scales[0], t[0]["MaxSms"] * t[0]["MaxKernels"]))
    done = {}          # (scale name, block) -> result
    results = []
    lock = threading.Lock()

    def report():
        doc, md = build_report(results, scales, blocks, args, ctx, lat, launch)
        with open(os.path.join(args.out, "area.json"), "w") as f:
            json.dump(doc, f, indent=1)
        with open(os.path.join(args.out, "area.md"), "w") as f:
            f.write(md + "\n")

    if args.report_only:
        for s, b, _ in tasks:
            rp = os.path.join(args.out, "runs", scale_name(s), b, "result.json")
            r = json.load(open(rp)) if os.path.exists(rp) else {"block": b, "scale": s, "status": "not run"}
            if r.get("flow_key") != ctx["flow_key"] and not r.get("status", "").startswith("not composed"):
                # a run of other scripts or options (or an earlier FLOW_VERSION): not this flow's figures
                r = {"block": b, "scale": s, "status": "not run"}
            r["cached"] = True
            results.append(r)
    else:
        def one(n, s, b, srcs):
            sn = scale_name(s)
            log(f"[{n}/{total}] {sn} {b}: running (osu018 + OpenSTA"
                f"{' + iCE40' if args.ice40 == 'all' or (args.ice40 == 'top' and b == 'gs_top') else ''}"
                f"{', reusing ' + ', '.join(subs[b]) if subs[b] else ''}) ...")
            t0 = time.time()
            with lock:
                mine = {c: done.get((sn, c)) for c in subs[b]}
            r = run_block(b, srcs, s, args, ctx, subs[b], {c: v for c, v in mine.items() if v})
            a, t = r.get("asic", {}), r.get("timing", {})
            msg = (f"area {a['area_um2']:,.0f} um^2, {a['cells']:,} cells, {a['ffs']:,} FFs" if a else r["status"])
            if t:
                msg += f", slack {t['worst_slack_ns']:.2f} ns"
            if r.get("ice40"):
                i = r["ice40"]
                msg += (f"; iCE40 {i.get('luts', '?')} LUTs {i.get('ffs', '?')} FFs"
                        + (f" {i['fmax_mhz']:.1f} MHz" if i.get("fmax_mhz") else f" ({i.get('status')})"))
            log(f"[{n}/{total}] {sn} {b}: {msg} ({'cached' if r['cached'] else f'{time.time() - t0:.0f} s'})")
            return r

        pending = list(enumerate(tasks, 1))
        running = {}
        with ThreadPoolExecutor(max_workers=args.jobs) as pool:
            while pending or running:
                # start, in order, every task whose sub-blocks at its scale are finished
                for item in list(pending):
                    if len(running) >= args.jobs:
                        break
                    n, (s, b, srcs) = item
                    if all((scale_name(s), c) in done for c in subs[b]):
                        pending.remove(item)
                        running[pool.submit(one, n, s, b, srcs)] = (s, b)
                if not running:
                    raise RuntimeError("area_flow: sub-block dependencies form a cycle")
                fin, _ = wait(list(running), return_when=FIRST_COMPLETED)
                for fu in fin:
                    s, b = running.pop(fu)
                    try:
                        r = fu.result()
                    except (FlowError, OSError, ValueError, KeyError) as e:
                        r = {"block": b, "scale": s, "status": f"flow error: {e}", "cached": False}
                        log(f"{scale_name(s)} {b}: {r['status']}")
                    with lock:
                        done[(scale_name(s), b)] = r
                        results.append(r)
                    report()   # partial report after every run: a long run can be read while it goes on
        order = {(scale_name(s), b): i for i, (s, b, _) in enumerate(tasks)}
        results.sort(key=lambda r: order[(scale_name(r["scale"]), r["block"])])
    doc, md = build_report(results, scales, blocks, args, ctx, lat, launch)
    with open(os.path.join(args.out, "area.json"), "w") as f:
        json.dump(doc, f, indent=1)
    with open(os.path.join(args.out, "area.md"), "w") as f:
        f.write(md + "\n")
    log(f"area_flow: done in {time.time() - t_all:.0f} s: {os.path.join(args.out, 'area.md')}, "
        f"{os.path.join(args.out, 'area.json')}")
    failed = [r for r in results if r["status"] not in ("ok", "not run")]
    if failed:
        log(f"area_flow: {len(failed)} run(s) did not complete (reported in the tables): "
            + "; ".join(f"{scale_name(r['scale'])} {r['block']}: {r['status']}" for r in failed))
    not_run = sum(r["status"] == "not run" for r in results)
    if not_run:
        log(f"area_flow: {not_run} run(s) not run yet (--report-only shows only the finished runs of this flow)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
