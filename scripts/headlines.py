#!/usr/bin/env python3
"""The headline table: each of the papers' headline results beside ours, from committed sweep results.

  python3 scripts/headlines.py            # write docs/results/headlines.csv and its table in docs/RESULTS.md
  python3 scripts/headlines.py --check    # exit 1 naming the rows where either differs from what the results give
  python3 scripts/headlines.py --markdown # print the table as docs/RESULTS.md shows it

The rows, and how each is computed, are data: docs/results/headlines.json (its "notes" say what every
field means; docs/RESULTS.md, "Headline results"). A row reads the results.csv (or windows.csv) of
its sweeps from docs/results/<sweep>/, plain or gzipped (`<file>.gz`; the plain file wins when both
are there). A row whose results are not committed is written `not run`. Per row:

  ours             the aggregate with the row's mean (ours_geometric: the geometric mean beside an
                   arithmetic one), in the row's form: speedup (R, above 1 = better), change (the
                   relative change, positive = better) or cost (how many times worse)
  effect fraction  our gain / the paper's gain; gain = R - 1 (speedup), the change itself, 1 - R (cost)
  direction        yes when both gains have the same sign
  within 25%       yes when the effect fraction is within 0.75..1.25

A malformed spec, a results file without a column a row needs, runs that do not pair up, or a
number of pairs other than the row's `units` stop the script with exit 2 and a line naming the
file and the field. Standard library only.
"""
import argparse
import csv
import fnmatch
import gzip
import io
import json
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPEC = "docs/results/headlines.json"
TABLE = "docs/results/headlines.csv"
DOC = "docs/RESULTS.md"
BEGIN = "<!-- headlines.py: begin (python3 scripts/headlines.py writes this table) -->"
END = "<!-- headlines.py: end -->"
NOT_RUN = "not run"

COLUMNS = ["row", "paper", "experiment", "figure", "metric", "paper_value", "paper_effect", "ours",
           "ours_geometric", "paper_baseline", "effect_fraction", "direction_reproduced", "within_25pct", "form", "mean",
           "aggregate", "units", "sweep", "command", "notes"]
FORMS = ("speedup", "change", "cost")
MEANS = ("arithmetic", "geometric")
AGGREGATES = ("mean_of_ratios", "ratio_of_means")
ROW_KEYS = {"row", "paper", "experiment", "figure", "metric", "paper_value", "paper_effect", "paper_baseline",
            "form", "value", "mean", "aggregate", "units", "match", "file", "policy", "baseline", "alone", "notes"}
SOURCE_KEYS = {"sweep", "results", "file", "where", "kernels_one_of_each"}
VALUE_KEYS = {"column", "kernel", "kernels", "num", "den", "better", "what"}


class SpecError(Exception):
    """A malformed spec or results file: one line naming the file and the field."""


# ---------------------------------------------------------------- spec

def need(obj, key, kind, where):
    if key not in obj:
        raise SpecError("%s: missing field '%s'" % (where, key))
    v = obj[key]
    if kind is float:
        ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
    elif kind is int:
        ok = isinstance(v, int) and not isinstance(v, bool)
    else:
        ok = isinstance(v, kind)
    if not ok or (kind is str and not v):
        raise SpecError("%s: field '%s': expected %s, got %r" % (where, key, {str: "a non-empty string", float: "a number",
                        int: "a whole number", dict: "an object", list: "a list"}[kind], v))
    return v


def one_of(obj, key, choices, where, default=None):
    if key not in obj and default is None:
        raise SpecError("%s: missing field '%s'" % (where, key))
    v = obj.get(key, default)
    if v not in choices:
        raise SpecError("%s: field '%s': %r is not one of %s" % (where, key, v, ", ".join(choices)))
    return v


def unknown_keys(obj, allowed, where):
    extra = sorted(set(obj) - allowed)
    if extra:
        raise SpecError("%s: unknown field '%s'" % (where, extra[0]))


def check_source(src, where, row_file):
    if not isinstance(src, dict):
        raise SpecError("%s: expected an object" % where)
    unknown_keys(src, SOURCE_KEYS, where)
    need(src, "sweep", str, where)
    need(src, "results", str, where)
    src.setdefault("file", row_file)
    need(src, "file", str, where)
    w = src.setdefault("where", {})
    if not isinstance(w, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in w.items()):
        raise SpecError("%s: field 'where': expected an object of column: pattern strings" % where)
    k = src.get("kernels_one_of_each")
    if k is not None and (not isinstance(k, list) or not k or
                          not all(isinstance(s, list) and s and all(isinstance(x, str) for x in s) for s in k)):
        raise SpecError("%s: field 'kernels_one_of_each': expected a list of non-empty lists of kernel names" % where)
    return src


def load_spec(path, name):
    """The spec at path, checked; errors name it as name."""
    try:
        with open(path) as f:
            spec = json.load(f)
    except OSError as e:
        raise SpecError("%s: cannot read: %s" % (name, e.strerror))
    except ValueError as e:
        raise SpecError("%s: not JSON: %s" % (name, e))
    path = name
    if not isinstance(spec, dict):
        raise SpecError("%s: expected an object with 'values' and 'rows'" % path)
    values = need(spec, "values", dict, path)
    for name, v in values.items():
        where = "%s: values.%s" % (path, name)
        if not isinstance(v, dict):
            raise SpecError("%s: expected an object" % where)
        unknown_keys(v, VALUE_KEYS, where)
        one_of(v, "better", ("higher", "lower"), where)
        if "column" in v:
            need(v, "column", str, where)
            one_of(v, "kernel", ("run", "top_priority"), where, "run")
        else:
            one_of(v, "kernels", ("sum", "mean"), where)
            need(v, "num", str, where)
            need(v, "den", str, where)
    rows = need(spec, "rows", list, path)
    if not rows:
        raise SpecError("%s: field 'rows': the list is empty" % path)
    for i, r in enumerate(rows):
        where = "%s: rows[%d]" % (path, i)
        if not isinstance(r, dict):
            raise SpecError("%s: expected an object" % where)
        unknown_keys(r, ROW_KEYS, where)
        if need(r, "row", int, where) != i + 1:
            raise SpecError("%s: field 'row': %d, but it is row %d of the list" % (where, r["row"], i + 1))
        for key in ("paper", "experiment", "figure", "metric", "paper_value", "paper_baseline"):
            need(r, key, str, where)
        need(r, "paper_effect", float, where)
        one_of(r, "form", FORMS, where)
        one_of(r, "mean", MEANS, where)
        one_of(r, "aggregate", AGGREGATES, where)
        if need(r, "units", int, where) < 1:
            raise SpecError("%s: field 'units': must be at least 1" % where)
        if need(r, "value", str, where) not in values:
            raise SpecError("%s: field 'value': %r is not in 'values' (%s)" % (where, r["value"], ", ".join(values)))
        m = r.setdefault("match", ["mix", "seed"])
        if not isinstance(m, list) or not m or not all(isinstance(x, str) and x for x in m):
            raise SpecError("%s: field 'match': expected a non-empty list of column names" % where)
        if not isinstance(r.setdefault("notes", ""), str):
            raise SpecError("%s: field 'notes': expected a string" % where)
        row_file = r.get("file", "results.csv")
        for key in ("policy", "baseline"):
            check_source(need(r, key, dict, where), "%s.%s" % (where, key), row_file)
        v = values[r["value"]]
        uses_alone = "column" not in v and any(x.startswith("alone.") for x in (v["num"], v["den"]))
        if uses_alone:
            check_source(need(r, "alone", dict, where), where + ".alone", row_file)
        elif "alone" in r:
            raise SpecError("%s: field 'alone': value %r reads no alone.* column" % (where, r["value"]))
        if r["form"] in ("speedup", "cost") and r["paper_effect"] <= 0:
            raise SpecError("%s: field 'paper_effect': a %s must be above 0" % (where, r["form"]))
    return spec


# ---------------------------------------------------------------- results

class Results:
    """Reads each results file once; None when it is not committed."""

    def __init__(self, root):
        self.root = root
        self.cache = {}

    def path(self, src):
        base = os.path.join(self.root, src["results"], src["file"])
        for p in (base, base + ".gz"):
            if os.path.isfile(p):
                return p
        return None

    def runs(self, src):
        """{run_id: [row dicts of its kernels]} in file order, or None when not committed."""
        p = self.path(src)
        if p is None:
            return None
        if p not in self.cache:
            try:
                if p.endswith(".gz"):
                    with gzip.open(p, "rt", newline="") as f:
                        text = f.read()
                else:
                    with open(p, newline="") as f:
                        text = f.read()
            except (OSError, EOFError, UnicodeDecodeError) as e:
                raise SpecError("%s: cannot read: %s" % (self.rel(p), e))
            reader = csv.DictReader(io.StringIO(text))
            header = reader.fieldnames or []
            if "run_id" not in header:
                raise SpecError("%s: no column 'run_id' (is it a gsim sweep results.csv or windows.csv?)" % self.rel(p))
            runs = {}
            for n, rec in enumerate(reader, start=2):
                if None in rec or any(v is None for v in rec.values()):
                    raise SpecError("%s: line %d: %d fields, the header has %d" % (self.rel(p), n, len(
                        [v for v in rec.values() if v is not None]) + len(rec.get(None, [])), len(header)))
                rec["_line"] = n
                runs.setdefault(rec["run_id"], []).append(rec)
            self.cache[p] = (header, runs)
        return self.cache[p]

    def rel(self, p):
        return os.path.relpath(p, self.root)


def number(rec, col, path):
    try:
        v = float(rec[col])
    except ValueError:
        raise SpecError("%s: line %d: field '%s': %r is not a number" % (path, rec["_line"], col, rec[col]))
    if not math.isfinite(v):
        raise SpecError("%s: line %d: field '%s': %r is not a finite number" % (path, rec["_line"], col, rec[col]))
    return v


def columns_needed(src, value, match, is_alone=False):
    cols = set(src["where"]) | set(match) | {"policy"}
    if src.get("kernels_one_of_each") or is_alone or "column" not in value:
        cols.add("kernel")
    if is_alone:
        cols |= {"mix"} | {value[k][6:] for k in ("num", "den") if value[k].startswith("alone.")}
    elif "column" in value:
        cols.add(value["column"])
        if value.get("kernel") == "top_priority":
            cols.add("priority")
    else:
        cols |= {value[k] for k in ("num", "den") if not value[k].startswith("alone.")} | {"mix"}
    return cols


def select(results, src, cols, rowname):
    """[(run_id, kernel rows)] of the runs the source picks, or None when not committed."""
    got = results.runs(src)
    if got is None:
        return None
    header, runs = got
    path = results.rel(results.path(src))
    for c in sorted(cols):
        if c not in header:
            raise SpecError("%s: no column '%s' (%s needs it)" % (path, c, rowname))
    out = []
    for run_id, ks in runs.items():
        first = ks[0]
        if not all(fnmatch.fnmatchcase(first[c], pat) for c, pat in src["where"].items()):
            continue
        sets = src.get("kernels_one_of_each")
        if sets:
            names = [k["kernel"] for k in ks]
            if len(names) != len(sets) or not all(sum(n in s for n in names) == 1 for s in sets):
                continue
        out.append((run_id, ks))
    if not out:
        raise SpecError("%s: no run matches %s (where %s)" % (path, rowname, json.dumps(src["where"])))
    return out


def run_value(ks, value, alone, path):
    """One run's number under the value spec."""
    if "column" in value:
        if value.get("kernel", "run") == "top_priority":
            try:
                prios = [int(k["priority"]) for k in ks]
            except ValueError:
                raise SpecError("%s: line %d: field 'priority': not a whole number" % (path, ks[0]["_line"]))
            top = [k for k, p in zip(ks, prios) if p == max(prios)]
            if len(top) != 1:
                raise SpecError("%s: line %d: run %s: %d kernels share the highest priority" %
                                (path, ks[0]["_line"], ks[0]["run_id"], len(top)))
            return number(top[0], value["column"], path)
        return number(ks[0], value["column"], path)   # a run's figures repeat on every kernel row
    terms = []
    for k in ks:
        def get(name):
            if name.startswith("alone."):
                key = (k["mix"], k["kernel"])
                if key not in alone:
                    raise SpecError("%s: line %d: no alone run of kernel %s in mix %s" % (path, k["_line"], k["kernel"], k["mix"]))
                return alone[key][name[6:]]
            return number(k, name, path)
        den = get(value["den"])
        if den <= 0:
            raise SpecError("%s: line %d: field '%s': %g, not above 0" % (path, k["_line"], value["den"], den))
        terms.append(get(value["num"]) / den)
    return sum(terms) if value["kernels"] == "sum" else sum(terms) / len(terms)


def mean(xs, kind, what):
    if kind == "geometric":
        if any(x <= 0 for x in xs):
            raise SpecError("%s: a geometric mean of a value not above 0" % what)
        return math.exp(sum(math.log(x) for x in xs) / len(xs))
    return sum(xs) / len(xs)


def compute(row, spec, results, spec_path):
    """(ours, effect fraction, direction, within) of one row, or None when its results are not committed."""
    name = "%s: rows[%d] (row %d)" % (spec_path, row["row"] - 1, row["row"])
    value = spec["values"][row["value"]]
    alone = None
    if "alone" in row:
        picked = select(results, row["alone"], columns_needed(row["alone"], value, [], True), name + " alone")
        if picked is None:
            return None
        path = results.rel(results.path(row["alone"]))
        alone = {}
        for _, ks in picked:
            for k in ks:
                cols = {value[x][6:] for x in ("num", "den") if value[x].startswith("alone.")}
                alone.setdefault((k["mix"], k["kernel"]), {c: number(k, c, path) for c in cols})
    sides = {}
    for side in ("policy", "baseline"):
        src = row[side]
        picked = select(results, src, columns_needed(src, value, row["match"]), "%s %s" % (name, side))
        if picked is None:
            return None
        path = results.rel(results.path(src))
        vals = {}
        for run_id, ks in picked:
            key = tuple(ks[0][c] for c in row["match"])
            if key in vals:
                raise SpecError("%s: two runs of the %s for %s = %s (%s and %s): narrow its 'where' or add to 'match'" %
                                (path, side, "/".join(row["match"]), "/".join(key), vals[key][0], run_id))
            vals[key] = (run_id, run_value(ks, value, alone, path))
        sides[side] = (path, vals)
    (ppath, pv), (bpath, bv) = sides["policy"], sides["baseline"]
    missing = [k for k in pv if k not in bv] + [k for k in bv if k not in pv]
    if missing:
        k = missing[0]
        has, lacks = (ppath, bpath) if k in pv else (bpath, ppath)
        raise SpecError("%s: %s = %s is in %s but has no partner in %s" % (name, "/".join(row["match"]), "/".join(k), has, lacks))
    if len(pv) != row["units"]:
        raise SpecError("%s: %d pairs of runs, field 'units' says %d" % (name, len(pv), row["units"]))
    keys = list(pv)
    p = [pv[k][1] for k in keys]
    b = [bv[k][1] for k in keys]
    higher = value["better"] == "higher"
    inverse = row["form"] == "cost"
    # per-pair ratio oriented as the form reads it: policy/baseline, or baseline/policy
    policy_over_base = (higher != inverse) if row["form"] in ("speedup", "cost") else True
    for x in p + b:
        if x <= 0:
            raise SpecError("%s: a value not above 0 (%g): ratios need positive values" % (name, x))
    ours, gain, paper_gain = in_form(row, aggregate(row, p, b, policy_over_base, row["mean"], name), higher)
    geo = None
    if row["mean"] == "arithmetic":   # the geometric mean beside it
        geo = in_form(row, aggregate(row, p, b, policy_over_base, "geometric", name), higher)[0]
    if paper_gain == 0:
        raise SpecError("%s: field 'paper_effect': the paper's gain is 0, so no effect fraction" % name)
    frac = gain / paper_gain
    return ours, geo, frac, "yes" if gain * paper_gain > 0 else "no", "yes" if abs(frac - 1) <= 0.25 else "no"


def aggregate(row, p, b, policy_over_base, kind, name):
    """R: the mean of the per-pair ratios, or the ratio of the means, oriented as the form reads it."""
    if row["aggregate"] == "mean_of_ratios":
        return mean([(x / y if policy_over_base else y / x) for x, y in zip(p, b)], kind, name)
    mp, mb = mean(p, kind, name), mean(b, kind, name)
    return mp / mb if policy_over_base else mb / mp


def in_form(row, r, higher):
    """(ours, our gain, the paper's gain) from R."""
    if row["form"] == "speedup":
        return r, r - 1, row["paper_effect"] - 1
    if row["form"] == "cost":
        return r, 1 - r, 1 - row["paper_effect"]
    ours = r - 1 if higher else 1 - r
    return ours, ours, row["paper_effect"]


# ---------------------------------------------------------------- table

def sources(row):
    seen = []
    for side in ("policy", "baseline", "alone"):
        if side in row and (row[side]["sweep"], row[side]["results"]) not in seen:
            seen.append((row[side]["sweep"], row[side]["results"]))
    return seen


def fmt(x):
    s = "%.4f" % x
    return "0.0000" if s == "-0.0000" else s


def table(spec, root, spec_path):
    results = Results(root)
    out = []
    for r in spec["rows"]:
        got = compute(r, spec, results, spec_path)
        srcs = sources(r)
        cmd = " && ".join("gsim sweep %s -j2 --out %s" % s for s in srcs) + " && python3 scripts/headlines.py"
        rec = {"row": str(r["row"]), "paper": r["paper"], "experiment": r["experiment"], "figure": r["figure"],
               "metric": r["metric"], "paper_value": r["paper_value"], "paper_effect": fmt(r["paper_effect"]),
               "paper_baseline": r["paper_baseline"], "form": r["form"], "mean": r["mean"], "aggregate": r["aggregate"],
               "units": str(r["units"]), "sweep": " + ".join(s for s, _ in srcs), "command": cmd, "notes": r["notes"]}
        if got is None:
            rec.update(ours=NOT_RUN, ours_geometric=NOT_RUN if r["mean"] == "arithmetic" else "",
                       effect_fraction=NOT_RUN, direction_reproduced=NOT_RUN, within_25pct=NOT_RUN)
        else:
            ours, geo, frac, direction, within = got
            rec.update(ours=fmt(ours), ours_geometric="" if geo is None else fmt(geo), effect_fraction=fmt(frac),
                       direction_reproduced=direction, within_25pct=within)
        out.append(rec)
    return out


def csv_text(rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def show(value, form):
    """A number of the table as the docs print it."""
    if value == NOT_RUN:
        return value
    x = float(value)
    return "%+.1f%%" % (100 * x) if form == "change" else "%.3fx" % x


def markdown(rows):
    lines = [BEGIN,
             "| # | paper | result (metric) | figure | paper's | ours | baseline | mean | effect fraction | direction | "
             "within 25% | sweep |",
             "|---:|---|---|---|---:|---:|---|---|---:|---|---|---|"]
    for r in rows:
        frac = r["effect_fraction"] if r["effect_fraction"] == NOT_RUN else "%.2f" % float(r["effect_fraction"])
        sweeps = ", ".join("`%s`" % os.path.basename(s) for s in r["sweep"].split(" + "))
        ours = show(r["ours"], r["form"])
        if r["ours_geometric"] not in ("", NOT_RUN):
            ours += " (geometric %s)" % show(r["ours_geometric"], r["form"])
        lines.append("| %s | %s | %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["row"], r["paper"], r["experiment"], r["metric"], r["figure"], show(r["paper_effect"], r["form"]),
            ours, r["paper_baseline"], r["mean"], frac, r["direction_reproduced"], r["within_25pct"], sweeps))
    lines.append(END)
    return "\n".join(lines) + "\n"


def doc_with_table(doc_text, md, doc_path):
    b, e = doc_text.find(BEGIN), doc_text.find(END)
    if b < 0 or e < b:
        raise SpecError("%s: no headline table markers (%s ... %s)" % (doc_path, BEGIN, END))
    return doc_text[:b] + md + doc_text[e + len(END) + 1:]


def read_text(path):
    try:
        with open(path, newline="") as f:
            return f.read()
    except OSError:
        return None


def cell(rec, j):
    return rec[j] if j < len(rec) else None


def column_name(j):
    return COLUMNS[j] if j < len(COLUMNS) else "column %d" % (j + 1)


def diff_rows(committed, fresh):
    """Row numbers (or 'header', 'rows') where the committed CSV text differs from the fresh one."""
    if committed is None:
        return ["the file is missing"]
    old = list(csv.reader(io.StringIO(committed)))
    new = list(csv.reader(io.StringIO(fresh)))
    out = []
    if not old or old[0] != new[0]:
        out.append("the header")
    for i in range(1, max(len(old), len(new))):
        a = old[i] if i < len(old) else None
        b = new[i] if i < len(new) else None
        if a != b:
            if a is None or b is None:
                out.append("row %d (%s)" % (i, "missing" if a is None else "not in the spec"))
                continue
            n = max(len(a), len(b), len(COLUMNS))
            detail = "; ".join("%s: %r, now %r" % (column_name(j), cell(a, j), cell(b, j))
                               for j in range(n) if cell(a, j) != cell(b, j))
            out.append("row %d (%s)" % (i, detail))
    if committed != fresh and not out:
        out.append("the text (line endings or quoting)")
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when the committed table or docs table differs")
    ap.add_argument("--markdown", action="store_true", help="print the table as docs/RESULTS.md shows it")
    ap.add_argument("--root", default=ROOT, help="repository root the spec's paths are relative to")
    ap.add_argument("--spec", default=SPEC, help="the spec (default %(default)s, relative to --root)")
    ap.add_argument("--out", default=TABLE, help="the table (default %(default)s)")
    ap.add_argument("--doc", default=DOC, help="the document holding the table between markers (default %(default)s); "
                                              "'-' for none")
    a = ap.parse_args(argv)
    spec_path, out_path = os.path.join(a.root, a.spec), os.path.join(a.root, a.out)
    doc_path = None if a.doc == "-" else os.path.join(a.root, a.doc)
    try:
        spec = load_spec(spec_path, a.spec)
        rows = table(spec, a.root, a.spec)
        text, md = csv_text(rows), markdown(rows)
        doc_text = read_text(doc_path) if doc_path else None
        if doc_path and doc_text is None:
            raise SpecError("%s: cannot read" % a.doc)
        new_doc = doc_with_table(doc_text, md, a.doc) if doc_path else None
    except SpecError as e:
        print("headlines.py: error: %s" % e, file=sys.stderr)
        return 2
    if a.markdown:
        sys.stdout.write(md)
        return 0
    if a.check:
        bad = ["%s: %s" % (a.out, d) for d in diff_rows(read_text(out_path), text)]
        if doc_path and new_doc != doc_text:
            bad.append("%s: the table between the headline markers is not the one the results give" % a.doc)
        for b in bad:
            print("headlines.py: differs: %s" % b, file=sys.stderr)
        if bad:
            print("headlines.py: run python3 scripts/headlines.py to rewrite them", file=sys.stderr)
            return 1
        n = sum(r["ours"] != NOT_RUN for r in rows)
        print("headlines.py: %s and %s match the results (%d of %d rows run)" % (a.out, a.doc, n, len(rows)))
        return 0
    os.makedirs(os.path.dirname(out_path), exist_ok=True)
    if read_text(out_path) != text:
        with open(out_path, "w", newline="") as f:
            f.write(text)
    if doc_path and new_doc != doc_text:
        with open(doc_path, "w", newline="") as f:
            f.write(new_doc)
    print("headlines.py: wrote %s (%d rows, %d run)%s" % (a.out, len(rows), sum(r["ours"] != NOT_RUN for r in rows),
                                                      " and its table in " + a.doc if doc_path else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
