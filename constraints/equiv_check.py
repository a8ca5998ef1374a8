#!/usr/bin/env python3
"""Formal equivalence of two versions of one RTL block (Yosys equiv_*), for same-function rewrites.

A hardware rewrite that must not change a block's behaviour (a serial chain turned into a
find-first-set tree, per-row adders turned into one read-modify-write, a mux into an AND-OR)
keeps its golden twin unchanged; this proves the claim instead of relying on the benches. The
old version comes from git (--old-rev, default HEAD) or a file (--old-file), the new one from the
working tree (or --new-file). Both are elaborated with gs_pkg.sv generated at the given
parameters (rtl/spec/gen_spec.py --set), then Yosys matches their registers and outputs by name
(equiv_make), proves what it can combinationally over one cycle (equiv_simple -seq 1) and the
rest by induction over the matched registers (equiv_induct), and `equiv_status -assert` fails on
anything unproven. So the two versions must keep the same register names (a rewrite that
renames or re-encodes state needs a bench instead); memories (rtl/mem) are black boxes under
SYNTHESIS and are compared at their ports. Large blocks: prove at a small scale
(--set MaxSms=16, the default) -- the RTL is the same generate loop at every scale.

    constraints/equiv_check.py rtl/framework/gs_smst.sv                       # HEAD vs. working tree
    constraints/equiv_check.py rtl/framework/gs_ptbq.sv --set MaxSms=4 --extra rtl/lib/gs_ffs.sv --extra rtl/mem/gs_ram_1r1w.sv --define GS_MUT_PTBQ_HEAD_FILL_LOST

Exit status: 0 proven, 1 not proven (the unproven signals are printed), 2 usage or tool error.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    print(f"equiv_check: {msg}", file=sys.stderr)
    sys.exit(2)


def module_of(text, path):
    m = re.search(r"^\s*module\s+(\w+)", text, re.M)
    if not m:
        fail(f"{path}: no module declaration")
    return m.group(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("path", help="the block's file, relative to the repository root (rtl/framework/gs_smst.sv)")
    ap.add_argument("--old-rev", default="HEAD", help="git revision of the old version (default HEAD)")
    ap.add_argument("--old-file", help="the old version from this file instead of git")
    ap.add_argument("--new-file", help="the new version from this file instead of the working tree")
    ap.add_argument("--set", action="append", default=[], metavar="PARAM=VALUE",
                    help="gs_pkg parameter (repeatable; default MaxSms=16 MaxKernels=8)")
    ap.add_argument("--define", action="append", default=[], metavar="NAME",
                    help="a define for the NEW version only (a block-bench mutant, `ifdef GS_MUT_<X>, to see the check fail)")
    ap.add_argument("--extra", action="append", default=[], metavar="SV",
                    help="another source both versions need (a sub-block, e.g. rtl/lib/gs_ffs.sv)")
    ap.add_argument("--timeout", type=int, default=1800, help="seconds for Yosys (default 1800)")
    ap.add_argument("--keep", action="store_true", help="keep the work directory and print its path")
    args = ap.parse_args()

    sets = {"MaxSms": "16", "MaxKernels": "8"}
    for s in args.set:
        if "=" not in s:
            fail(f"--set {s}: expected PARAM=VALUE")
        k, v = s.split("=", 1)
        sets[k] = v
    new_path = args.new_file or os.path.join(ROOT, args.path)
    if not os.path.isfile(new_path):
        fail(f"{new_path}: no such file")
    if args.old_file:
        if not os.path.isfile(args.old_file):
            fail(f"{args.old_file}: no such file")
        old_text = open(args.old_file).read()
    else:
        r = subprocess.run(["git", "-C", ROOT, "show", f"{args.old_rev}:{args.path}"], capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"git show {args.old_rev}:{args.path}: {r.stderr.strip()}")
        old_text = r.stdout
    new_text = open(new_path).read()
    mod = module_of(new_text, new_path)
    if module_of(old_text, "old version") != mod:
        fail(f"the old version declares another module than {mod}")
    extras = [os.path.join(ROOT, e) if not os.path.isabs(e) else e for e in args.extra]
    for e in extras:
        if not os.path.isfile(e):
            fail(f"--extra {e}: no such file")

    work = tempfile.mkdtemp(prefix="gs_equiv_")
    gen = [sys.executable, os.path.join(ROOT, "rtl/spec/gen_spec.py"), "--spec", os.path.join(ROOT, "rtl/spec/gs_spec.toml"),
           "--out", os.path.join(work, "cpp"), "--sv-out", work]
    for k, v in sets.items():
        gen += ["--set", f"{k}={v}"]
    r = subprocess.run(gen, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"gen_spec.py: {r.stderr.strip() or r.stdout.strip()}")
    old_sv = os.path.join(work, "old.sv")
    with open(old_sv, "w") as f:
        f.write(old_text)
    pkg = os.path.join(work, "gs_pkg.sv")
    defs = " ".join(f"-D{d}" for d in args.define)
    srcs = " ".join(extras)

    def side(name, sv, d):
        return (f"read_verilog -sv -DSYNTHESIS {d} {pkg} {srcs} {sv}\n"
                f"hierarchy -check -top {mod}\nproc\nflatten\nopt_clean\nrename {mod} {name}\n"
                f"design -stash {name}\n")
    script = (side("gold", old_sv, "") + side("gate", new_path, defs)
              + "design -copy-from gold -as gold gold\ndesign -copy-from gate -as gate gate\n"
              + "equiv_make gold gate equiv\nhierarchy -top equiv\nasync2sync\n"
              + "equiv_simple -seq 1\nequiv_induct\nequiv_status\nequiv_status -assert\n")
    ys = os.path.join(work, "equiv.ys")
    with open(ys, "w") as f:
        f.write(script)
    log = os.path.join(work, "equiv.log")
    params = " ".join(f"{k}={v}" for k, v in sets.items())
    print(f"equiv_check: {mod}: {'--old-file ' + args.old_file if args.old_file else args.old_rev} vs. "
          f"{'--new-file ' + new_path if args.new_file else 'working tree'} at {params}"
          + (f", new with {' '.join(args.define)}" if args.define else "") + " ...", flush=True)
    try:
        with open(log, "w") as lf:
            r = subprocess.run(["yosys", "-s", ys], stdout=lf, stderr=subprocess.STDOUT, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        fail(f"yosys: no answer in {args.timeout} s (log {log}); try a smaller --set MaxSms")
    text = open(log).read()
    m = re.search(r"Of those cells (\d+) are proven and (\d+) are unproven", text)
    if r.returncode == 0 and m:
        print(f"equiv_check: {mod}: equivalent ({m.group(1)} matched signals proven)")
        rc = 0
    elif m or "unproven $equiv cells" in text:
        # equiv_status lists "Unproven $equiv <cell>: \\tbl_d_gold [18] \\tbl_d_gate [18]"
        bad = sorted(set(re.findall(r"Unproven \$equiv \S+ \\(\S+?)_gold\b", text)))
        print(f"equiv_check: {mod}: NOT proven equivalent ({m.group(2) if m else 'some'} unproven bits); "
              f"signals: {', '.join(bad[:20]) or '(see the log)'}")
        rc = 1
    else:
        tail = "\n".join(text.splitlines()[-15:])
        fail(f"yosys failed (log {log}):\n{tail}")
    if args.keep:
        print(f"equiv_check: work directory {work}")
    else:
        subprocess.run(["rm", "-rf", work])
    sys.exit(rc)


if __name__ == "__main__":
    main()
