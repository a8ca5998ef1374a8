"""Shared by the plot tests of verif/plots: the skip when matplotlib is missing, and the checks
of a drawn PNG + SVG pair."""
import os


def matplotlib_missing():
    """True (and a SKIPPED line) when this Python has no matplotlib: the caller exits 77."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("SKIPPED: matplotlib is not installed for this Python (Debian: python3-matplotlib)")
        return True
    return False


def check_drawing(base, svg_must_hold, why):
    """BASE.png starts with the PNG signature and BASE.svg is an SVG holding `svg_must_hold`
    (what the drawing must show; `why` names it in the failure)."""
    with open(base + ".png", "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", f"{base}.png: not a PNG"
    with open(base + ".svg") as f:
        svg = f.read()
    assert "<svg" in svg and svg_must_hold in svg, f"{base}.svg: {why}"
    print(f"ok: {base}.png ({os.path.getsize(base + '.png')} bytes) and .svg")
