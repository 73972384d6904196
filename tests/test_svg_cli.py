"""`fives render`: layouts from a file, a fixture case or a puzzle; bad input as one line, exit 2."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from click.testing import CliRunner

from fives.cli import main

LAYOUT = '- {tile: "[1|4]"}\n- {tile: "[1|1]", to: "[1|4]", side: low}\n- {tile: "[4|4]", to: "[1|4]", side: high}\n'


def run(args: list[str], input: str | None = None):
    return CliRunner().invoke(main, args, input=input)


def classes(svg: str, cls: str) -> list[ET.Element]:
    return [e for e in ET.fromstring(svg).iter() if cls in (e.get("class") or "").split()]


def test_render_file(tmp_path) -> None:
    f = tmp_path / "layout.yaml"
    f.write_text(LAYOUT)
    out = tmp_path / "out.svg"
    r = run(["render", "--game", "horse-race", str(f), "--out", str(out)])
    assert r.exit_code == 0, r.output
    svg = out.read_text(encoding="utf-8")
    # the Horse Race figure 'placed tile [4|4]': counted [1|1]=2 and [4|4]=8, both spinners framed
    assert sorted((e.get("data-tile"), e.get("data-value")) for e in classes(svg, "mark-counted")) == \
        [("[1|1]", "2"), ("[4|4]", "8")]
    assert sorted(e.get("data-tile") for e in classes(svg, "spinner-frame")) == ["[1|1]", "[4|4]"]
    assert classes(svg, "mark-open") == []
    r2 = run(["render", "--game", "horse-race", "-"], input=LAYOUT)  # stdout by default, same bytes
    assert r2.exit_code == 0 and r2.stdout == svg


def test_render_sniff_same_tiles_one_spinner() -> None:
    r = run(["render", "--game", "american-sniff", "-", "--no-legend"], input=LAYOUT)
    assert r.exit_code == 0, r.output
    assert [e.get("data-tile") for e in classes(r.stdout, "spinner-frame")] == ["[1|1]"]
    assert classes(r.stdout, "legend") == []


def test_render_fixture() -> None:
    r = run(["render", "--fixture", "SN-FIG-1-2"])
    assert r.exit_code == 0, r.output
    counted = sorted((e.get("data-tile"), e.get("data-value")) for e in classes(r.stdout, "mark-counted"))
    assert counted == [("[1|1]", "1"), ("[1|1]", "1"), ("[1|2]", "2"), ("[3|4]", "3")]  # seed 000: 1 + 1 + 2 + 3
    r = run(["render", "--fixture", "SN-FIG-1-2", "--game", "horse-race"])
    assert r.exit_code == 2 and "not horse-race" in r.output


def test_render_puzzle(tmp_path) -> None:
    doc = [{"id": "AS-S-a3e2612f69", "game": "american-sniff", "kind": "single",
            "layout": [{"tile": "[0|1]"}, {"tile": "[1|4]", "to": "[0|1]", "side": "high"},
                       {"tile": "[0|6]", "to": "[0|1]", "side": "low"}],
            "hand": ["[1|6]", "[3|3]", "[4|5]"], "target": 5,
            "solution": [{"tile": "[1|6]", "to": "[0|6]", "side": "high"}]}]
    f = tmp_path / "p.json"
    f.write_text(json.dumps(doc))
    r = run(["render", "--puzzle", f"{f}#AS-S-a3e2612f69"])
    assert r.exit_code == 0, r.output
    assert len(classes(r.stdout, "tile")) == 3
    r = run(["render", "--puzzle", f"{f}#AS-S-a3e2612f69", "--solution"])
    assert r.exit_code == 0, r.output
    tiles = classes(r.stdout, "tile")
    assert len(tiles) == 4 and [t.get("data-tile") for t in tiles if t.get("data-new")] == ["[1|6]"]
    r = run(["render", "--puzzle", f"{f}#nope"])
    assert r.exit_code == 2 and "no puzzle with id 'nope'" in r.output


@pytest.mark.parametrize("args,input,msg", [
    (["render", "-"], LAYOUT, "missing --game"),
    (["render", "--game", "chess", "-"], LAYOUT, "unknown game"),
    (["render", "--game", "horse-race", "-"], '- {tile: "[1|4]"}\n- {tile: "[2|2]", to: "[1|4]", side: low}\n',
     "<stdin>: placement 1: value-mismatch"),
    (["render", "--game", "horse-race", "-"], "- {tile: [1|4\n", "malformed YAML"),
    (["render", "--fixture", "NO-SUCH-CASE"], None, "no fixture case 'NO-SUCH-CASE'"),
    (["render", "--puzzle", "nofile.yaml"], None, "write FILE#ID"),
    (["render", "--game", "horse-race", "-", "--page", "3x3"], LAYOUT, "--page"),
    (["render", "--game", "horse-race", "-", "--fixture", "SN-FIG-1-2"], LAYOUT, "exactly one of"),
    (["render", "--game", "horse-race", "-", "--out", "/nonexistent/dir/x.svg"], LAYOUT, "folder does not exist"),
])
def test_render_bad_input(args: list[str], input: str | None, msg: str) -> None:
    r = run(args, input)
    assert r.exit_code == 2, r.output
    assert msg in r.output and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def line_of(values: list[int]) -> list[dict[str, str]]:
    """Placements of one straight line: tile k is [values[k]|values[k+1]], joined to the previous tile's free end."""
    recs: list[dict[str, str]] = []
    prev: tuple[str, int, int] | None = None
    for a, b in zip(values, values[1:]):
        t = f"[{min(a, b)}|{max(a, b)}]"
        if prev is None:
            recs.append({"tile": t})
        else:
            pt, pa, pb = prev  # the previous tile's free end is pb (== a)
            recs.append({"tile": t, "to": pt, "side": "high" if pb > pa else "low"})
        prev = (t, a, b)
    return recs


def test_page_option_bends_a_long_line(tmp_path) -> None:
    """n tiles in a row take 2n + 2 squares with their end marks: 6 fit straight on the default
    32-square-wide page, 16 must bend; on a 12x12 page even 6 must bend."""
    values = [0, 1, 2, 3, 4, 5, 6, 0, 2, 4, 6, 1, 3, 5, 0, 3, 6]

    def size(n: int, *page: str) -> tuple[float, float]:
        f = tmp_path / "line.json"
        f.write_text(json.dumps(line_of(values[:n + 1])))
        r = run(["render", "--game", "american-sniff", str(f), "--no-legend", *page])
        assert r.exit_code == 0, r.output
        root = ET.fromstring(r.stdout)
        return float(root.get("width")), float(root.get("height"))

    margin = 2 * 12  # px around the picture
    assert size(6) == ((2 * 6 + 2) * 30 + margin, 30 + margin)  # one straight row
    w, h = size(16)
    assert w <= 32 * 30 + margin and h > 30 + margin  # bent to stay on the page
    w, h = size(6, "--page", "12x12")
    assert w <= 12 * 30 + margin and 30 + margin < h <= 12 * 30 + margin
