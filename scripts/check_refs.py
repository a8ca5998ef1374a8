#!/usr/bin/env python3
"""Dangling-reference check: every file or folder a comment or a document names must exist.

Scans the tracked text files of the repository (git ls-files) for
  * repository paths: tokens starting with a top-level folder of the repository (rtl/,
    cmodel/, sim_top/, verif/, docs/, constraints/, scripts/, .ci/), globs allowed
    (rtl/framework/*.sv), generated outputs under build/ exempt;
  * Markdown links [text](target) to local files, relative to the document;
  * paths into /tmp (a scratch path is never a reference a reader can follow);
  * a bare DESIGN.md (it lives beside the repository, ../shared/DESIGN.md);
  * issue numbers in source comments ("issue 3"): the tracker is not part of the tree.
Prints file:line: reason for each, exits 1 if any. Used by ctest `check_refs` (label unit).
"""
import glob
import os
import re
import subprocess
import sys

TOP_DIRS = ("rtl", "cmodel", "sim_top", "verif", "docs", "constraints", "scripts", ".ci")
TEXT_EXT = (".sv", ".svh", ".cpp", ".hpp", ".h", ".md", ".txt", ".sh", ".py", ".toml", ".ys", ".tcl",
            ".cmake", ".vlt", ".sdc", ".json", ".gtkw")
SOURCE_EXT = (".sv", ".svh", ".cpp", ".hpp", ".h", ".py", ".sh", ".cmake", ".txt", ".ys", ".tcl", ".toml")
PATH_RE = re.compile(r"(?<![\w./<>-])((?:%s)/[\w./*+-]*[\w*])" % "|".join(re.escape(d) for d in TOP_DIRS))
LINK_RE = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
TMP_RE = re.compile(r"(?<![\w.])/tmp/[\w./-]+")
ISSUE_RE = re.compile(r"\bissue\s+#?\d+(?!\.\d)", re.IGNORECASE)   # not "issue 0.4 instructions"
DESIGN_RE = re.compile(r"(?<![\w/.])DESIGN\.md")


# Scheduler names printed as "<kind>/<policy>" ("rtl/left-over") or named together
# ("rtl/lockstep schedulers") read like paths but are not.
PROSE_RE = re.compile(r"^rtl/(golden|rtl|lockstep|left-over|even|spatial|npq|ppq[\w-]*|dss|fewest-left)$")


def exists(base_dirs, rel):
    rel = rel.rstrip(".,;:")
    for base in base_dirs:
        cand = os.path.join(base, rel)
        if "*" in rel and glob.glob(cand):
            return True
        if os.path.exists(cand) or glob.glob(cand + ".*"):   # `occupancy.{hpp,cpp}` style
            return True
    return False


def self_test():
    """The check fails on a tree that names a missing file (so it is not a check that cannot fail)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "rtl"))
        with open(os.path.join(d, "rtl", "a.sv"), "w") as f:
            f.write("// see rtl/missing.sv and /tmp/x.log\n// also rtl/a.sv\n")
        subprocess.run(["git", "init", "-q", d], check=True)
        subprocess.run(["git", "-C", d, "add", "rtl/a.sv"], check=True)
        out = subprocess.run([sys.executable, __file__, "--root", d], capture_output=True, text=True)
        ok = (out.returncode == 1 and "rtl/missing.sv" in out.stdout and "/tmp/x.log" in out.stdout
              and "rtl/a.sv:2" not in out.stdout)
        print("check_refs self-test:", "passed" if ok else "FAILED\n" + out.stdout + out.stderr)
        return 0 if ok else 1


def main():
    if "--self-test" in sys.argv:
        return self_test()
    if "--root" in sys.argv:
        root = sys.argv[sys.argv.index("--root") + 1]
    else:
        root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                              check=True).stdout.strip()
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    problems = []
    for f in files:
        if f == "scripts/check_refs.py" or (not f.endswith(TEXT_EXT) and os.path.basename(f) not in ("CMakeLists.txt", "run")):
            continue
        path = os.path.join(root, f)
        if not os.path.isfile(path):
            continue
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except UnicodeDecodeError:
            continue
        is_md = f.endswith(".md")
        for n, line in enumerate(lines, 1):
            for m in PATH_RE.finditer(line):
                ref = m.group(1)
                if "${" in line[max(0, m.start() - 2):m.start()] or ref.endswith("/") or PROSE_RE.match(ref):
                    continue
                if line[m.end():m.end() + 1] in ("<", "{"):   # a pattern: gs_policy_<x>.hpp, a.{hpp,cpp}
                    continue
                if not exists([root, os.path.dirname(path)], ref):
                    problems.append(f"{f}:{n}: names {ref}, which does not exist")
            if is_md:
                for m in LINK_RE.finditer(line):
                    target = m.group(1)
                    if re.match(r"^[a-z]+:", target):
                        continue
                    if not os.path.exists(os.path.normpath(os.path.join(os.path.dirname(path), target))):
                        problems.append(f"{f}:{n}: links {target}, which does not exist")
            for m in TMP_RE.finditer(line):
                if "XXXXXX" in m.group(0):   # a mkstemp() template is code, not a reference
                    continue
                problems.append(f"{f}:{n}: names the scratch path {m.group(0)}")
            if DESIGN_RE.search(line):
                problems.append(f"{f}:{n}: names DESIGN.md (it is ../shared/DESIGN.md, outside the repository)")
            if f.endswith(SOURCE_EXT) and ISSUE_RE.search(line) and f != "scripts/check_refs.py":
                problems.append(f"{f}:{n}: names a tracker issue; say what is meant instead")
    for p in problems:
        print(p)
    if problems:
        print(f"check_refs: {len(problems)} dangling reference(s)", file=sys.stderr)
        return 1
    print(f"check_refs: {len(files)} files, no dangling reference")
    return 0


if __name__ == "__main__":
    sys.exit(main())
