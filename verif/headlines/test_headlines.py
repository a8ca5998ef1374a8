#!/usr/bin/env python3
"""scripts/headlines.py on the fixture in verif/headlines/fixture: a spec of eight rows over three
small results files whose numbers are worked out by hand in each row's notes. Checks the
arithmetic and geometric means (mean of ratios, ratio of means), the forms (speedup, change,
cost), the effect fraction, the direction and within-25% flags, a kernel-level value (the
top-priority kernel's NTT) and one normalized to another sweep's alone IPCs, a gzipped
windows.csv, a row whose results are not committed (`not run`), --check on the written table and
on tampered copies of it and of the document, and exit 2 with the file and field named on a
malformed spec and on a results file without a column a row needs. ctest `headlines` (label unit).
"""
import csv
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "..", "scripts", "headlines.py")
FIXTURE = os.path.join(HERE, "fixture")
failures = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)


def run(root, *args):
    p = subprocess.run([sys.executable, SCRIPT, "--root", root, "--spec", "spec.json", "--out", "headlines.csv",
                        "--doc", "doc.md"] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def rows_of(root):
    with open(os.path.join(root, "headlines.csv"), newline="") as f:
        return {int(r["row"]): r for r in csv.DictReader(f)}


def near(text, x):
    return text not in ("", "not run") and abs(float(text) - x) < 6e-5


def fresh_copy(tmp, name):
    root = os.path.join(tmp, name)
    shutil.copytree(FIXTURE, root)
    plain = os.path.join(root, "results", "b", "windows.csv")   # read gzipped: results committed compressed
    with open(plain, "rb") as f, gzip.open(plain + ".gz", "wb") as g:
        g.write(f.read())
    os.remove(plain)
    return root


def check_fails_with(root, path, text, original, needle, what):
    """Write `text` to `path`, expect --check to exit 1 naming `needle`, then restore `original`."""
    with open(path, "w", newline="") as f:
        f.write(text)
    rc, out = run(root, "--check")
    check(rc == 1 and needle in out, "%s (exit %d: %s)" % (what, rc, out.strip()))
    with open(path, "w", newline="") as f:
        f.write(original)


def edit_spec(root, change):
    path = os.path.join(root, "spec.json")
    with open(path) as f:
        spec = json.load(f)
    change(spec)
    with open(path, "w") as f:
        json.dump(spec, f)


def main():
    with tempfile.TemporaryDirectory() as tmp:
        root = fresh_copy(tmp, "ok")
        rc, out = run(root)
        check(rc == 0, "writes the table (exit %d: %s)" % (rc, out.strip()))
        r = rows_of(root)
        check(len(r) == 8, "eight rows")
        # (row, ours, ours_geometric or None, effect fraction, direction, within 25%)
        expect = [
            (1, 2.0, None, 0.5, "yes", "no"),                   # geometric mean of b/p for cycles
            (2, 3.0, 8 ** 0.5, 0.8, "yes", "yes"),              # arithmetic mean of p/b, geometric beside
            (3, 5 / 1.5, 4 / 2 ** 0.5, (5 / 1.5 - 1) / 2, "yes", "yes"),   # ratio of means
            (4, 0.625, 1 - 0.125 ** 0.5, -3.125, "no", "no"),   # change of a lower-is-better metric
            (5, 0.375, 0.125 ** 0.5, -1.25, "no", "no"),        # cost: b/p of a higher-is-better metric
            (6, 2.5, 6 ** 0.5, 1.0, "yes", "yes"),              # NTT of the top-priority kernel
            (8, 12 / 7 - 1, 12 / 7 - 1, (12 / 7 - 1) / 0.7, "yes", "yes"),   # normalized to alone IPCs, gzipped
        ]
        for n, ours, geo, frac, direction, within in expect:
            row = r.get(n, {})
            check(near(row.get("ours", ""), ours), "row %d: ours %s, expected %.4f" % (n, row.get("ours"), ours))
            if geo is None:
                check(row.get("ours_geometric") == "", "row %d: no geometric column for a geometric row" % n)
            else:
                check(near(row.get("ours_geometric", ""), geo), "row %d: geometric %s, expected %.4f" %
                      (n, row.get("ours_geometric"), geo))
            check(near(row.get("effect_fraction", ""), frac), "row %d: effect fraction %s, expected %.4f" %
                  (n, row.get("effect_fraction"), frac))
            check(row.get("direction_reproduced") == direction, "row %d: direction %s" % (n, direction))
            check(row.get("within_25pct") == within, "row %d: within 25%% %s" % (n, within))
        seven = r.get(7, {})
        check(all(seven.get(c) == "not run" for c in ("ours", "effect_fraction", "direction_reproduced", "within_25pct")),
              "row 7 (results not committed): not run")
        check(seven.get("paper_effect") == "1.1000", "row 7 keeps the paper's figure")
        check("gsim sweep sweeps/z.json -j2 --out results/z" in seven.get("command", ""), "row 7: its command")
        with open(os.path.join(root, "doc.md")) as f:
            doc = f.read()
        check("| 2 | P | e2 (stp) | Fig. 2 | 3.500x | 3.000x (geometric 2.828x) | base | arithmetic | 0.80 | yes | yes |" in doc,
              "doc.md: the table between the markers")
        check(doc.endswith("\nText after the table.\n"), "doc.md: the text after the markers is kept")
        rc, out = run(root, "--markdown")
        check(rc == 0 and out.startswith("<!-- headlines.py: begin") and "| 7 | P | e7" in out, "--markdown prints the table")

        rc, out = run(root, "--check")
        check(rc == 0, "--check passes on the table it wrote (exit %d: %s)" % (rc, out.strip()))
        rc2, _ = run(root)
        check(rc2 == 0 and rows_of(root) == r, "a second run writes the same table")

        # --check on a tampered table and a tampered document
        path = os.path.join(root, "headlines.csv")
        with open(path) as f:
            text = f.read()
        table = list(csv.reader(text.splitlines()))
        table[2][table[0].index("ours")] = "3.1000"   # row 2's figure
        with open(path, "w", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(table)
        rc, out = run(root, "--check")
        check(rc == 1 and "row 2" in out and "ours" in out, "--check fails naming a tampered row (exit %d: %s)" % (rc, out.strip()))
        check_fails_with(root, path, text.replace("not run", "1.1000", 1), text, "row 7",
                         "--check fails on a number in a row that is not run")
        check_fails_with(root, os.path.join(root, "doc.md"), doc.replace("3.000x", "3.100x", 1), doc, "doc.md",
                         "--check fails on a tampered document table")
        os.remove(path)
        rc, out = run(root, "--check")
        check(rc == 1 and "missing" in out, "--check fails when the table is missing (exit %d)" % rc)

        # malformed specs: exit 2 naming the file and the field
        cases = [
            ("bad form", lambda s: s["rows"][0].update(form="ratio"), ["spec.json", "rows[0]", "form"]),
            ("missing field", lambda s: s["rows"][1].pop("mean"), ["spec.json", "rows[1]", "'mean'"]),
            ("unknown field", lambda s: s["rows"][2].update(polcy={}), ["spec.json", "rows[2]", "polcy"]),
            ("unknown value", lambda s: s["rows"][3].update(value="nope"), ["spec.json", "rows[3]", "value"]),
            ("row out of order", lambda s: s["rows"].reverse(), ["spec.json", "rows[0]", "'row'"]),
            ("paper effect a string", lambda s: s["rows"][0].update(paper_effect="1.2"), ["rows[0]", "paper_effect"]),
            ("units not met", lambda s: s["rows"][0].update(units=3), ["rows[0]", "units"]),
            ("ambiguous pairing", lambda s: s["rows"][0]["policy"]["where"].update(policy="*"), ["results/a/results.csv", "match"]),
        ]
        for i, (what, change, words) in enumerate(cases):
            bad = fresh_copy(tmp, "bad%d" % i)
            edit_spec(bad, change)
            rc, out = run(bad)
            check(rc == 2 and all(w in out for w in words), "malformed spec (%s): exit 2 naming %s (exit %d: %s)" %
                  (what, ", ".join(words), rc, out.strip()))
            check(not os.path.exists(os.path.join(bad, "headlines.csv")), "malformed spec (%s): nothing written" % what)
        bad = fresh_copy(tmp, "badjson")
        with open(os.path.join(bad, "spec.json"), "a") as f:
            f.write("}")
        rc, out = run(bad)
        check(rc == 2 and "spec.json" in out and "not JSON" in out, "spec that is not JSON: exit 2 (%s)" % out.strip())

        # a results file without a column a row needs
        bad = fresh_copy(tmp, "nocol")
        path = os.path.join(bad, "results", "a", "results.csv")
        with open(path) as f:
            text = f.read()
        with open(path, "w") as f:
            f.write(text.replace(",cycles\n", ",cyc\n", 1))
        rc, out = run(bad)
        check(rc == 2 and "results/a/results.csv" in out and "'cycles'" in out and "row 1" in out,
              "results.csv without a needed column: exit 2 naming file, column and row (%s)" % out.strip())
        bad = fresh_copy(tmp, "nonnum")
        path = os.path.join(bad, "results", "a", "results.csv")
        with open(path, "w") as f:
            f.write(text.replace(",100\n", ",x\n", 1))
        rc, out = run(bad)
        check(rc == 2 and "results/a/results.csv: line 2" in out and "'cycles'" in out,
              "a value that is not a number: exit 2 naming file, line and field (%s)" % out.strip())
    print("test_headlines: %s" % ("FAILED (%d)" % len(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
