"""Shared by the plot scripts of sim_top/plots: matplotlib without a display, and the PNG + SVG
pair every plot is written as."""
import json
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
    """The JSON file at `path`, which must declare "format": `fmt`; exits with a message naming
    `script` and the file otherwise (`what` says which gsim output it should be)."""
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"{script}: {path}: {e}")
    if not isinstance(doc, dict) or doc.get("format") != fmt:
        got = doc.get("format") if isinstance(doc, dict) else None
        sys.exit(f"{script}: {path}: not {what} (format {got!r})")
    return doc
