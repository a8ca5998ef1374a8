"""Shared by the plot scripts of sim_top/plots: matplotlib without a display, the PNG + SVG
pair every plot is written as, and the readers of their inputs (read_csv, read_json, Node),
which report a malformed input as one line naming the file, the row and the field, exit 2
(run(), fail())."""
import csv
import io
import json
import math
import sys


def pyplot(script):
    """matplotlib.pyplot on the Agg backend (no display needed); exits with a message naming
    `script` and the Debian package when matplotlib is not installed."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        sys.exit(f"{script}: needs matplotlib (Debian: apt install python3-matplotlib; scripts/install_deps.sh does)")
    return plt


def save(fig, out, rect=None):
    """Writes `fig` as OUT.png (120 dpi) and OUT.svg and says so. `rect` (left, bottom, right,
    top in figure fractions) keeps room outside the axes, e.g. for a figure legend."""
    fig.tight_layout(rect=rect)
    for ext in ("png", "svg"):
        fig.savefig(f"{out}.{ext}", dpi=120)
        print(f"wrote {out}.{ext}")


def print_table(head, rows, markdown):
    """Prints a table: Markdown (`| a | b |`, a rule after the header) or aligned columns."""
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for r in rows:
            print("| " + " | ".join(r) + " |")
    else:
        widths = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
        for r in [head] + rows:
            print("  ".join(str(x).ljust(wd) for x, wd in zip(r, widths)))


def load_json(path, fmt, script, what):
    """The JSON file at `path` as a Node (read_json), which must declare "format": `fmt` (`what`
    says which gsim output it should be); raises InputError otherwise."""
    doc = read_json(path, what)
    if not isinstance(doc, Node) or not isinstance(doc.value, dict) or doc.value.get("format") != fmt:
        got = doc.value.get("format") if isinstance(doc.value, dict) else None
        raise InputError(f"{path}: field 'format' is {json.dumps(got)}, not \"{fmt}\" (not {what})")
    return doc


# ---- reading inputs: one rule for every plot script --------------------------------------------
# A malformed input (a missing or empty file, a missing column or field, a cell that is not a
# number, bad JSON) is one line on stderr, "SCRIPT: error: FILE line N: field 'F': reason", and
# exit 2 -- never a traceback. The readers raise InputError; run() turns it into that line.


class InputError(Exception):
    """A malformed input; the message names the file, the row (line or JSON path) and the field."""


def fail(script, msg):
    """One line on stderr, `SCRIPT: error: MSG`, and exit 2 (the code of gsim's input errors)."""
    sys.stderr.write(f"{script}: error: {msg}\n")
    sys.exit(2)


_INPUTS = []


def inputs(*paths):
    """Records the input files a script was given (named by run() when an unexpected error is
    caught); returns them."""
    _INPUTS[:] = [str(p) for p in paths]
    return paths


def run(script, main):
    """Runs main() and returns its exit code; an InputError from any reader is reported by
    fail(). A KeyError, IndexError, TypeError or ValueError that escapes the scripts' own checks
    is reported the same way, naming the inputs (see inputs()), rather than as a traceback."""
    try:
        return main()
    except InputError as e:
        fail(script, str(e))
    except (KeyError, IndexError, TypeError, ValueError) as e:
        names = ", ".join(_INPUTS) or "the input"
        fail(script, f"{names}: unexpected content ({type(e).__name__}: {e})")


def _open_text(path):
    try:
        with open(path, newline="") as f:
            return f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file")
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a file")
    except OSError as e:
        raise InputError(f"{path}: cannot read it ({e.strerror})")
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not a text file ({e.reason} at byte {e.start})")


class Row(dict):
    """One CSV row (column -> value); `line` is its line number in the file (the header is 1)."""
    line = 0


def read_csv(path, need, numbers=(), integers=(), what="a CSV file"):
    """The rows of CSV file `path` as Row dicts. Refuses (InputError) a file that is missing,
    empty or has no row, a header without a column of `need`, a row without one of them, and a
    cell of a column in `numbers` (converted to float, finite) or `integers` (to int) that is
    not one. Other cells stay strings."""
    text = _open_text(path)
    if not text.strip():
        raise InputError(f"{path}: empty file (expected {what} with the columns {', '.join(sorted(need))})")
    reader = csv.reader(io.StringIO(text))
    try:
        lines = list(reader)
    except csv.Error as e:
        raise InputError(f"{path} line {reader.line_num}: not CSV ({e})")
    header = lines[0]
    for c in sorted(need):
        if c not in header:
            raise InputError(f"{path} line 1: no column '{c}' (not {what}; the header has {', '.join(header)})")
    rows = []
    for n, cells in enumerate(lines[1:], start=2):
        if not cells:
            continue
        r = Row(zip(header, cells))
        r.line = n
        for c in need:
            if c not in r:
                raise InputError(f"{path} line {n}: field '{c}' is missing (the row has {len(cells)} fields, "
                                 f"the header {len(header)})")
        for c in numbers:
            if c in r:
                r[c] = _number(r[c], f"{path} line {n}: field '{c}'")
        for c in integers:
            if c in r:
                r[c] = _integer(r[c], f"{path} line {n}: field '{c}'")
        rows.append(r)
    if not rows:
        raise InputError(f"{path}: no rows after the header (expected {what})")
    return rows


def _number(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise InputError(f"{where} is {json.dumps(v)}, not a number")
    try:
        x = float(v)
    except ValueError:
        raise InputError(f"{where} is '{v}', not a number")
    if not math.isfinite(x):
        raise InputError(f"{where} is '{v}', not a finite number")
    return x


def _integer(v, where):
    if isinstance(v, bool) or not isinstance(v, (int, float, str)):
        raise InputError(f"{where} is {json.dumps(v)}, not an integer")
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        if not v.is_integer():
            raise InputError(f"{where} is {v}, not an integer")
        return int(v)
    try:
        return int(v)
    except ValueError:
        raise InputError(f"{where} is '{v}', not an integer")


def _kind(v):
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number")


class Node:
    """A JSON object or list read from `file`, that knows its path in the document: a missing
    key, a wrong type or a non-numeric value raises InputError naming the file and the field
    (`kernels[2].points[0].ipc`). Indexing returns a Node for an object or a list, the value
    itself otherwise; num(), integer(), text(), objects() and items_of() check the type too."""

    def __init__(self, value, file, path=""):
        self.value, self.file, self.path = value, file, path

    def _sub(self, key):
        return f"{self.path}[{key}]" if isinstance(key, int) else (f"{self.path}.{key}" if self.path else str(key))

    def _where(self, key=None):
        field = self.path if key is None else self._sub(key)
        return f"{self.file}: field '{field or '<top level>'}'"

    def _wrap(self, v, key):
        return Node(v, self.file, self._sub(key)) if isinstance(v, (dict, list)) else v

    def __getitem__(self, key):
        if isinstance(key, int):
            if not isinstance(self.value, list):
                raise InputError(f"{self._where()} is {_kind(self.value)}, expected a list")
            if not -len(self.value) <= key < len(self.value):
                raise InputError(f"{self._where(key)} is missing (the list has {len(self.value)} entries)")
            if key < 0:
                key += len(self.value)   # the path names the entry, not the offset from the end
            return self._wrap(self.value[key], key)
        if not isinstance(self.value, dict):
            raise InputError(f"{self._where()} is {_kind(self.value)}, expected an object")
        if key not in self.value:
            raise InputError(f"{self._where(key)} is missing")
        return self._wrap(self.value[key], key)

    def get(self, key, default=None):
        if not isinstance(self.value, dict):
            raise InputError(f"{self._where()} is {_kind(self.value)}, expected an object")
        return self[key] if key in self.value else default

    def __contains__(self, key):
        return isinstance(self.value, (dict, list)) and key in self.value

    def __len__(self):
        return len(self.value)

    def __iter__(self):
        if isinstance(self.value, list):
            return (self._wrap(v, i) for i, v in enumerate(self.value))
        return iter(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, Node) else other)

    def __repr__(self):
        return repr(self.value)

    def num(self, key):
        """Field `key` as a finite float (a JSON number; not a string, not a boolean)."""
        v = self[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise InputError(f"{self._where(key)} is {json.dumps(v.value if isinstance(v, Node) else v)}, not a number")
        return float(v) if isinstance(v, float) else v

    def integer(self, key):
        """Field `key` as an int (a JSON integer)."""
        v = self[key]
        if isinstance(v, bool) or not isinstance(v, int):
            raise InputError(f"{self._where(key)} is {json.dumps(v.value if isinstance(v, Node) else v)}, not an integer")
        return v

    def text(self, key):
        """Field `key` as a string."""
        v = self[key]
        if not isinstance(v, str):
            raise InputError(f"{self._where(key)} is {_kind(v.value if isinstance(v, Node) else v)}, expected a string")
        return v

    def items_of(self, key, default=None):
        """Field `key` as a list Node (`default` when absent and a default is given)."""
        if default is not None and key not in self:
            return Node(default, self.file, self._sub(key))
        v = self[key]
        if not (isinstance(v, Node) and isinstance(v.value, list)):
            raise InputError(f"{self._where(key)} is {_kind(v.value if isinstance(v, Node) else v)}, expected a list")
        return v

    def objects(self, key, default=None):
        """Field `key` as a list Node whose entries are all objects."""
        lst = self.items_of(key, default)
        for i, v in enumerate(lst.value):
            if not isinstance(v, dict):
                raise InputError(f"{lst._where(i)} is {_kind(v)}, expected an object")
        return lst


def read_json(path, what="a JSON file"):
    """The JSON document at `path` as a Node. Refuses a missing or empty file and bad JSON
    (naming the line and column)."""
    text = _open_text(path)
    if not text.strip():
        raise InputError(f"{path}: empty file (expected {what})")
    try:
        doc = json.loads(text)
    except ValueError as e:
        where = f" line {e.lineno} column {e.colno}" if hasattr(e, "lineno") else ""
        raise InputError(f"{path}{where}: not valid JSON ({getattr(e, 'msg', e)})")
    return Node(doc, path)
