#!/usr/bin/env python3
"""CTest plot_malformed_<script>: each plot script of sim_top/plots on malformed inputs (a missing
file, an empty file, bad JSON, a missing column or field, a cell that is not a number) must print
one line on stderr that names the file (and, where there is one, the line or JSON path and the
field), exit 2, and never show a Python traceback (the rule of sim_top/plots/plotlib.py).

  test_malformed_inputs.py GSIM OUTDIR SCRIPT    SCRIPT: profile, timeline, srtf_accuracy,
                                                 sweep_bars, sweep_geomean, sbm_table6,
                                                 ws_partitions, hetero_pairs
GSIM is not run (the argument keeps the calling convention of the other plot tests).
"""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOTS = os.path.join(ROOT, "sim_top", "plots")

SWEEP_HEAD = "run_id,config,mix,policy,preempt,seed,sm_sharing,kernel,priority,ntt,stp,antt,strictf,cycles"
SWEEP_ROW = "r1,c,m,left-over,drain,1,shared,K,0,1.5,1.2,1.4,0.8,1000"
ACC_HEAD = "group,trace,kernel,sm,cycle,mode,ratio,predicted,actual,t,done_blocks,total_blocks,resident,last_slice"
ACC_ROW = "g,t,K,0,10,SS,0.5,5,10,3,1,4,2,1"
WIN_HEAD = "run_id,config,mix,policy,kernel,ipc,ipc_alone,mix_ipc,antt_sbm"
WIN_ROW = "r1,c,m,sbm,K,1.5,2.0,3.0,1.1"

PROFILE = {"format": "gsched-profile-1", "config": "c", "warmup": 1, "sample": 2,
           "kernels": [{"name": "K", "suite": "s", "behaviour": "memory", "occupancy": 2,
                        "points": [{"ctas": 1, "ipc": 1.0, "mem_stall": 0.1, "l1_miss": 0.2, "l2_miss": 0.3}]}]}
TIMELINE = {"format": "gsched-timeline-1", "mix": "m", "config": "c", "policy": "p", "preempt": "drain",
            "sm_sharing": "shared", "seed": 1, "sms": 2, "cycles": 100,
            "kernels": [{"id": 0, "name": "K", "priority": 0, "arrival_cycle": 0}],
            "cta_columns": ["kernel", "cta", "sm", "start_cycle", "end_cycle", "saved"],
            "ctas": [[0, 0, 1, 0, 50, 0]], "preemptions": []}
RUN = {"mix": "pair_A_B_at0", "policy": "warped-slicer", "cycles": 100,
       "partitions": [{"mode": "shared", "kernels": [{"ctas_per_sm": 2}, {"ctas_per_sm": 3}]}]}


def with_(doc, path, value):
    """A deep copy of `doc` with the field at `path` (keys and indices) set, or deleted when
    value is DELETE."""
    doc = json.loads(json.dumps(doc))
    obj = doc
    for k in path[:-1]:
        obj = obj[k]
    if value is DELETE:
        del obj[path[-1]]
    else:
        obj[path[-1]] = value
    return doc


DELETE = object()


def cases(script, d):
    """(name, argv, {relative path: text or None (a directory)}, [substrings the message must hold])."""
    j = json.dumps
    if script == "profile":
        f = os.path.join(d, "p.json")
        return [("missing file", [f, "--out", os.path.join(d, "o")], {}, [f, "no such file"]),
                ("empty file", [f, "--out", os.path.join(d, "o")], {"p.json": ""}, [f, "empty file"]),
                ("bad JSON", [f, "--out", os.path.join(d, "o")], {"p.json": '{"format": '}, [f, "line 1", "not valid JSON"]),
                ("wrong format", [f, "--out", os.path.join(d, "o")], {"p.json": j(with_(PROFILE, ["format"], "x"))},
                 [f, "field 'format'"]),
                ("non-numeric ipc", [f, "--out", os.path.join(d, "o")],
                 {"p.json": j(with_(PROFILE, ["kernels", 0, "points", 0, "ipc"], "fast"))},
                 [f, "field 'kernels[0].points[0].ipc'", "not a number"]),
                ("missing name", [f, "--out", os.path.join(d, "o")],
                 {"p.json": j(with_(PROFILE, ["kernels", 0, "name"], DELETE))}, [f, "field 'kernels[0].name'", "missing"]),
                ("kernels not a list", [f, "--out", os.path.join(d, "o")],
                 {"p.json": j(with_(PROFILE, ["kernels"], 3))}, [f, "field 'kernels'"])]
    if script == "timeline":
        f = os.path.join(d, "t.json")
        o = ["--out", os.path.join(d, "o")]
        return [("missing file", [f] + o, {}, [f, "no such file"]),
                ("empty file", [f] + o, {"t.json": "\n"}, [f, "empty file"]),
                ("bad JSON", [f] + o, {"t.json": "{\n]"}, [f, "line 2", "not valid JSON"]),
                ("non-numeric start", [f] + o, {"t.json": j(with_(TIMELINE, ["ctas", 0, 3], "soon"))},
                 [f, "field 'ctas[0][3]'", "not an integer"]),
                ("short CTA row", [f] + o, {"t.json": j(with_(TIMELINE, ["ctas", 0], [0, 0, 1]))}, [f, "field 'ctas[0]'"]),
                ("SM out of range", [f] + o, {"t.json": j(with_(TIMELINE, ["ctas", 0, 2], 7))}, [f, "ctas[0][2]"]),
                ("missing sms", [f] + o, {"t.json": j(with_(TIMELINE, ["sms"], DELETE))}, [f, "field 'sms'", "missing"])]
    if script == "srtf_accuracy":
        f = os.path.join(d, "a.csv")
        o = ["--out", os.path.join(d, "o")]
        return [("missing file", [f] + o, {}, [f, "no such file"]),
                ("empty file", [f] + o, {"a.csv": ""}, [f, "empty file"]),
                ("missing column", [f] + o, {"a.csv": ACC_HEAD.replace(",ratio", "") + "\n"}, [f, "line 1", "no column 'ratio'"]),
                ("non-numeric ratio", [f] + o, {"a.csv": "\n".join([ACC_HEAD, ACC_ROW, ACC_ROW.replace(",0.5,", ",x,")]) + "\n"},
                 [f, "line 3", "field 'ratio'", "not a number"]),
                ("short row", [f] + o, {"a.csv": "\n".join([ACC_HEAD, "g,t,K"]) + "\n"}, [f, "line 2", "missing"])]
    if script in ("sweep_bars", "sweep_geomean"):
        f = os.path.join(d, "results.csv")
        o = ["--markdown"]
        return [("missing file", [f] + o, {}, [f, "no such file"]),
                ("empty file", [f] + o, {"results.csv": ""}, [f, "empty file"]),
                ("header only", [f] + o, {"results.csv": SWEEP_HEAD + "\n"}, [f, "no rows"]),
                ("missing column", [f] + o, {"results.csv": SWEEP_HEAD.replace(",antt", "") + "\n" + SWEEP_ROW + "\n"},
                 [f, "line 1", "no column 'antt'"]),
                ("non-numeric antt", [f] + o,
                 {"results.csv": "\n".join([SWEEP_HEAD, SWEEP_ROW, SWEEP_ROW.replace(",1.4,", ",slow,")]) + "\n"},
                 [f, "line 3", "field 'antt'", "not a number"]),
                ("not finite", [f] + o,
                 {"results.csv": "\n".join([SWEEP_HEAD, SWEEP_ROW.replace(",1.2,", ",inf,")]) + "\n"},
                 [f, "line 2", "field 'stp'"])]
    if script == "sbm_table6":
        win = os.path.join(d, "windows.csv")
        run = os.path.join(d, "runs", "r1.json")
        good = "\n".join([WIN_HEAD, WIN_ROW]) + "\n"
        return [("no windows.csv", [d], {"runs": None}, [win]),
                ("empty windows.csv", [d], {"windows.csv": ""}, [win, "empty file"]),
                ("missing column", [d], {"windows.csv": WIN_HEAD.replace(",mix_ipc", "") + "\n" + WIN_ROW + "\n"},
                 [win, "line 1", "no column 'mix_ipc'"]),
                ("non-numeric mix_ipc", [d], {"windows.csv": good.replace(",3.0,", ",many,")},
                 [win, "line 2", "field 'mix_ipc'", "not a number"]),
                ("run JSON missing", [d], {"windows.csv": good, "runs": None}, [run, "no such file"]),
                ("run JSON bad", [d], {"windows.csv": good, "runs/r1.json": "{,}"}, [run, "not valid JSON"]),
                ("quota not a number", [d],
                 {"windows.csv": good, "runs/r1.json": j(with_(RUN, ["partitions", 0, "kernels", 1, "ctas_per_sm"], "3"))},
                 [run, "field 'partitions[0].kernels[1].ctas_per_sm'", "not an integer"])]
    if script == "ws_partitions":
        run = os.path.join(d, "runs", "r1.json")
        return [("no runs", [d], {"runs": None}, [d, "no run JSON"]),
                ("empty run", [d], {"runs/r1.json": ""}, [run, "empty file"]),
                ("bad JSON", [d], {"runs/r1.json": "[1,"}, [run, "not valid JSON"]),
                ("missing mix", [d], {"runs/r1.json": j(with_(RUN, ["mix"], DELETE))}, [run, "field 'mix'", "missing"]),
                ("cycles not a number", [d], {"runs/r1.json": j(with_(RUN, ["cycles"], "long"))},
                 [run, "field 'cycles'", "not a number"]),
                ("quota not a number", [d],
                 {"runs/r1.json": j(with_(RUN, ["partitions", 0, "kernels", 0, "ctas_per_sm"], None))},
                 [run, "field 'partitions[0].kernels[0].ctas_per_sm'"])]
    if script == "hetero_pairs":
        h, b = os.path.join(d, "het"), os.path.join(d, "base")
        hw = os.path.join(h, "windows.csv")
        good = "\n".join([WIN_HEAD, WIN_ROW]) + "\n"
        return [("no windows.csv", [h, b], {"het": None, "base": None}, [h, "no windows.csv"]),
                ("empty windows.csv", [h, b], {"het/windows.csv": "", "base/windows.csv": good}, [hw, "empty file"]),
                ("missing column", [h, b], {"het/windows.csv": WIN_HEAD.replace(",ipc_alone", "") + "\n" + WIN_ROW + "\n",
                                            "base/windows.csv": good}, [hw, "line 1", "no column 'ipc_alone'"]),
                ("non-numeric ipc", [h, b], {"het/windows.csv": good.replace(",1.5,", ",?,"), "base/windows.csv": good},
                 [hw, "line 2", "field 'ipc'", "not a number"])]
    raise SystemExit(f"unknown script {script}")


def main():
    _gsim, out, script = sys.argv[1], sys.argv[2], sys.argv[3]
    failures = 0
    for i, (name, argv, files, want) in enumerate(cases(script, os.path.join(out, "case"))):
        d = os.path.join(out, "case")
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        for rel, text in files.items():
            p = os.path.join(d, rel)
            if text is None:
                os.makedirs(p, exist_ok=True)
                continue
            os.makedirs(os.path.dirname(p), exist_ok=True)
            with open(p, "w") as f:
                f.write(text)
        r = subprocess.run([sys.executable, os.path.join(PLOTS, script + ".py")] + argv,
                           capture_output=True, text=True, timeout=120)
        lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
        problems = []
        if r.returncode != 2:
            problems.append(f"exit {r.returncode}, expected 2")
        if "Traceback" in r.stderr:
            problems.append("a traceback")
        if len(lines) != 1:
            problems.append(f"{len(lines)} lines on stderr, expected 1")
        missing = [w for w in want if w not in r.stderr]
        if missing:
            problems.append(f"the message lacks {missing}")
        if not r.stderr.startswith(f"{script}.py: "):
            problems.append("the message does not start with the script's name")
        if problems:
            failures += 1
            print(f"FAIL {script} / {name}: {'; '.join(problems)}\n  stderr: {r.stderr.strip()[:2000]}")
        else:
            print(f"ok   {script} / {name}: {lines[0]}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
