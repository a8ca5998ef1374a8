#!/usr/bin/env python3
"""House-style check of the RTL and the docs (docs/style.md), on the tracked files (git ls-files):
  * every hand-written module file rtl/**/<module>.sv starts with the module header:
        // <module>: <one-line job>
        // Contract and timing: docs/rtl/<page>.md
    where <page> exists, and is <module> itself when docs/rtl/<module>.md exists;
  * no SystemVerilog file under rtl/ carries a lint_off comment: waivers live in rtl/lint.vlt,
    by signal name and with a reason;
  * no Markdown link in docs/ or README.md points outside the repository (an absolute path, a
    file: URL, or a relative path that climbs above the root).
Generated files (first line "// GENERATED", rtl/gs_pkg.sv and rtl/gs_policies.sv from
rtl/spec/gen_spec.py) are exempt from the first two. Prints file:line: reason for each, exits 1
if any. Used by ctest `style_rtl_headers` (label unit); --self-test shows the check can fail.
"""
import os
import re
import subprocess
import sys

SV_EXT = (".sv", ".svh", ".v")
JOB_RE = re.compile(r"^// (\w+): \S")
CONTRACT_RE = re.compile(r"^// Contract and timing: docs/rtl/([\w-]+)\.md$")
LINK_RE = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")   # [text](target "title")
REFDEF_RE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)")        # [label]: target
URL_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def generated(text):
    return text.startswith("// GENERATED")


def check_header(root, f, lines, problems):
    module = os.path.splitext(os.path.basename(f))[0]
    first = lines[0] if lines else ""
    m = JOB_RE.match(first)
    if not m or m.group(1) != module:
        problems.append(f"{f}:1: the header must start with '// {module}: <one-line job>'")
        return
    second = lines[1] if len(lines) > 1 else ""
    m = CONTRACT_RE.match(second)
    if not m:
        problems.append(f"{f}:2: the header's second line must be '// Contract and timing: docs/rtl/<page>.md'")
        return
    page = m.group(1)
    if not os.path.isfile(os.path.join(root, "docs", "rtl", page + ".md")):
        problems.append(f"{f}:2: docs/rtl/{page}.md does not exist")
    elif page != module and os.path.isfile(os.path.join(root, "docs", "rtl", module + ".md")):
        problems.append(f"{f}:2: links docs/rtl/{page}.md, but the module has its own page docs/rtl/{module}.md")


def check_links(root, f, text, problems):
    for n, line in enumerate(text.split("\n"), 1):
        targets = [m.group(1) for m in LINK_RE.finditer(line)]
        m = REFDEF_RE.match(line)
        if m:
            targets.append(m.group(1))
        for t in targets:
            if t.startswith("#"):
                continue
            if URL_RE.match(t):
                if t.lower().startswith("file:"):
                    problems.append(f"{f}:{n}: links {t}, a file outside the repository")
                continue
            path = t.split("#")[0]
            if path.startswith("/"):
                problems.append(f"{f}:{n}: links {t}, an absolute path (outside the repository)")
                continue
            resolved = os.path.normpath(os.path.join(os.path.dirname(f), path))
            if resolved == ".." or resolved.startswith(".." + os.sep):
                problems.append(f"{f}:{n}: links {t}, outside the repository")


def run(root):
    files = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True,
                           check=True).stdout.split()
    problems = []
    modules = 0
    for f in files:
        path = os.path.join(root, f)
        if not os.path.isfile(path):
            continue
        if f.startswith("rtl/") and f.endswith(SV_EXT):
            text = open(path, encoding="utf-8", errors="replace").read()
            if generated(text):
                continue
            lines = text.split("\n")
            if f.endswith(".sv"):
                modules += 1
                check_header(root, f, lines, problems)
            for n, line in enumerate(lines, 1):
                if "lint_off" in line:
                    problems.append(f"{f}:{n}: an inline lint_off: waive the signal by name in rtl/lint.vlt")
        elif f.endswith(".md") and (f.startswith("docs/") or f == "README.md"):
            check_links(root, f, open(path, encoding="utf-8", errors="replace").read(), problems)
    for p in problems:
        print(p)
    print(f"check_style: {modules} RTL modules, " + (f"{len(problems)} problem(s)" if problems else "no problem"))
    return 1 if problems else 0


def self_test():
    """The check fails on a tree that breaks each rule (so it is not a check that cannot fail)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        # paths spelled through R and D: scripts/check_refs.py reads this file as naming them
        R, D = "rtl", "docs"
        os.makedirs(os.path.join(d, R, "policy"))
        os.makedirs(os.path.join(d, D, R))
        ct = f"// Contract and timing: {D}/{R}"
        files = {
            f"{D}/{R}/gs_good.md": "# gs_good\n[ok](../../README.md), [web](https://example.org), [here](#x)\n",
            f"{D}/{R}/gs_own.md": "# gs_own\n",
            f"{D}/out.md": "[a](../../elsewhere/x.md)\n[b](/etc/passwd)\n[c]: ../../x.md\n",
            "README.md": f"[docs]({D}/out.md)\n",
            f"{R}/gs_good.sv": f"// gs_good: a module in the house style.\n{ct}/gs_good.md\nmodule gs_good; endmodule\n",
            f"{R}/policy/gs_noheader.sv": "// gsched: gs_noheader -- the old form.\nmodule gs_noheader; endmodule\n",
            f"{R}/policy/gs_nopage.sv": f"// gs_nopage: no page.\n{ct}/gs_missing.md\nmodule gs_nopage; endmodule\n",
            f"{R}/policy/gs_own.sv": f"// gs_own: has a page of its own.\n{ct}/gs_good.md\nmodule gs_own; endmodule\n",
            f"{R}/policy/gs_waived.sv": f"// gs_waived: waives inline.\n{ct}/gs_good.md\n"
                                        "module gs_waived;\n  /* verilator lint_off UNUSEDSIGNAL */\nendmodule\n",
            f"{R}/gs_gen.sv": "// GENERATED by the spec generator -- do not edit.\n/* verilator lint_off UNUSEDPARAM */\n",
        }
        for rel, text in files.items():
            with open(os.path.join(d, rel), "w") as fh:
                fh.write(text)
        subprocess.run(["git", "init", "-q", d], check=True)
        subprocess.run(["git", "-C", d, "add", "."], check=True)
        out = subprocess.run([sys.executable, __file__, "--root", d], capture_output=True, text=True)
        want = [f"{R}/policy/gs_noheader.sv:1:", f"{R}/policy/gs_nopage.sv:2:", f"{R}/policy/gs_own.sv:2:",
                f"{R}/policy/gs_waived.sv:4:", f"{D}/out.md:1:", f"{D}/out.md:2:", f"{D}/out.md:3:"]
        unwanted = [f"{R}/gs_good.sv:", f"{R}/gs_gen.sv:", f"{D}/{R}/gs_good.md:", "README.md:",
                    f"{R}/policy/gs_waived.sv:2:"]
        lines = out.stdout.splitlines()
        ok = (out.returncode == 1 and all(any(l.startswith(w) for l in lines) for w in want)
              and not any(l.startswith(u) for l in lines for u in unwanted))
        print("check_style self-test:", "passed" if ok else "FAILED\n" + out.stdout + out.stderr)
        return 0 if ok else 1


def main():
    if "--self-test" in sys.argv:
        return self_test()
    if "--root" in sys.argv:
        root = sys.argv[sys.argv.index("--root") + 1]
    else:
        root = subprocess.run(["git", "rev-parse", "--show-toplevel"], capture_output=True, text=True,
                              check=True).stdout.strip()
    return run(root)


if __name__ == "__main__":
    sys.exit(main())
