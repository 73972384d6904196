"""Real-browser checks: a rendered layout and a puzzle book in headless Chromium.

Chromium is driven over the DevTools protocol with a small standard-library WebSocket
client (no extra dependency). Each page must load with no console error or uncaught
exception, every tile must lie inside its picture and the page, every book card must fit
on one printed page, and the book must print to PDF. Screenshots and the PDF go to a
temporary folder removed after the run (FIVES_BROWSER_SHOTS=DIR keeps them in DIR, whose
path is printed); so does Chromium's profile. Skipped, with the reason, when Chromium is absent
(`.ci/run` installs Debian's `chromium` package).
"""
from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from fives.draw.svg import render_layout

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_svg import full_layout  # noqa: E402
from test_svg_book import book_html, book_puzzles  # noqa: E402

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
CHROME = next((p for p in map(shutil.which, BROWSERS) if p), None)
pytestmark = pytest.mark.skipif(
    CHROME is None, reason="no Chromium on PATH: install Debian's `chromium` package (apt-get install -y chromium)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-default-apps", "--mute-audio", "--hide-scrollbars"]
MM = 96 / 25.4  # CSS pixels per millimetre


class WebSocket:
    """Just enough RFC 6455 for the DevTools protocol: masked text frames out, frames in."""

    def __init__(self, url: str, timeout: float = 60.0) -> None:
        assert url.startswith("ws://")
        hostport, _, path = url[5:].partition("/")
        host, _, port = hostport.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the browser closed the connection during the handshake")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise ConnectionError(f"WebSocket handshake refused: {status!r}")
        self.buffer = head.split(b"\r\n\r\n", 1)[1]

    def _read(self, n: int) -> bytes:
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the browser closed the connection")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def send(self, text: str) -> None:
        self._send_frame(0x1, text.encode())

    def recv(self) -> str:
        parts: list[bytes] = []
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else b""
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            opcode = b0 & 0x0F
            if opcode == 0x9:
                self._send_frame(0xA, data)
                continue
            if opcode == 0x8:
                raise ConnectionError("the browser closed the DevTools connection")
            if opcode in (0x0, 0x1, 0x2):
                parts.append(data)
                if b0 & 0x80:
                    return b"".join(parts).decode()

    def close(self) -> None:
        self.sock.close()


class Page:
    """One browser tab: commands in, events collected (console errors, exceptions, load)."""

    def __init__(self, ws_url: str) -> None:
        self.ws = WebSocket(ws_url)
        self.next_id = 0
        self.events: list[dict[str, Any]] = []
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        my = self.next_id
        self.ws.send(json.dumps({"id": my, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == my:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def wait_for(self, method: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(e["method"] == method for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method} within {timeout}s")
            msg = json.loads(self.ws.recv())
            if "method" in msg:
                self.events.append(msg)

    def open(self, url: str, width: int, height: int) -> None:
        self.events.clear()
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        self.call("Page.navigate", url=url)
        self.wait_for("Page.loadEventFired")

    def errors(self) -> list[str]:
        out = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                out.append("exception: " + json.dumps(p.get("exceptionDetails", {}))[:300])
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append("console.error: " + json.dumps(p.get("args", []))[:300])
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append("log: " + p["entry"].get("text", "")[:300])
        return out

    def evaluate(self, expression: str) -> Any:
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"script failed: {r['exceptionDetails']}")
        return r["result"]["value"]

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=True)["data"]
        path.write_bytes(base64.b64decode(data))


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest) -> Iterator[Path]:
    """Screenshots and PDF: a temporary folder removed after the run, unless
    FIVES_BROWSER_SHOTS=DIR names a folder to keep them in."""
    keep = os.environ.get("FIVES_BROWSER_SHOTS")
    out = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="fives-browser-"))
    out.mkdir(parents=True, exist_ok=True)
    if keep:
        capture = request.config.pluginmanager.getplugin("capturemanager")
        if capture is not None:
            with capture.global_and_fixture_disabled():
                print(f"\nbrowser screenshots and PDF: {out}")
    try:
        yield out
    finally:
        if not keep:
            shutil.rmtree(out, ignore_errors=True)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    assert CHROME is not None
    profile = tmp_path_factory.mktemp("chromium-profile")
    proc = subprocess.Popen([CHROME, *FLAGS, f"--user-data-dir={profile}", "--remote-debugging-port=0", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + 60
        while not (port_file.is_file() and port_file.read_text().count("\n") >= 1):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"Chromium did not start its DevTools endpoint (exit code {proc.poll()})")
            time.sleep(0.1)
        port = int(port_file.read_text().splitlines()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30) as r:
            targets = json.load(r)
        tab = next(t for t in targets if t.get("type") == "page")
        p = Page(tab["webSocketDebuggerUrl"])
        yield p
        p.ws.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        shutil.rmtree(profile, ignore_errors=True)  # a Chromium profile is tens of MB


# Boxes of every tile, of the picture it belongs to, and the page's own size.
BOXES_JS = """(() => {
  const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const tiles = [...document.querySelectorAll('.tile, .hand-tile')].map(t => ({
    tile: t.dataset.tile, box: r(t), svg: r(t.ownerSVGElement || t.closest('svg'))}));
  const root = document.documentElement;
  return {tiles, width: Math.max(root.scrollWidth, root.clientWidth), height: Math.max(root.scrollHeight, root.clientHeight),
          viewport: window.innerWidth, overflowX: root.scrollWidth > window.innerWidth + 0.5,
          counted: document.querySelectorAll('.mark-counted').length};
})()"""


def inside(inner: list[float], outer: list[float], slack: float = 0.5) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack
            and inner[2] <= outer[2] + slack and inner[3] <= outer[3] + slack)


def check_boxes(info: dict[str, Any], expected_tiles: int) -> None:
    assert len(info["tiles"]) == expected_tiles
    assert not info["overflowX"], "the page scrolls sideways"
    page_box = [0.0, 0.0, float(info["width"]), float(info["height"])]
    for t in info["tiles"]:
        assert inside(t["box"], t["svg"]), f"{t['tile']} sticks out of its picture: {t['box']} vs {t['svg']}"
        assert inside(t["box"], page_box), f"{t['tile']} lies off the page: {t['box']}"


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_layout_in_browser(page: Page, shots: Path, tmp_path: Path) -> None:
    layout = full_layout("horse-race", 3)
    svg = tmp_path / "layout.svg"
    svg.write_text(render_layout(layout), encoding="utf-8")
    page.open(svg.as_uri(), 1200, 900)
    assert page.errors() == []
    info = page.evaluate(BOXES_JS)
    check_boxes(info, 28)
    assert info["counted"] == len(layout.contributions())
    page.screenshot(shots / "layout-28.png")
    assert (shots / "layout-28.png").stat().st_size > 1000


@pytest.fixture(scope="module")
def book_file(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    path = tmp_path_factory.mktemp("book") / "book.html"
    path.write_text(book_html(), encoding="utf-8")
    return path, len(book_puzzles())


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_book_in_browser(page: Page, shots: Path, book_file: tuple[Path, int]) -> None:
    path, count = book_file
    page.open(path.as_uri(), 800, 1000)
    assert page.errors() == []
    info = page.evaluate(BOXES_JS)
    assert info["tiles"], "the book shows no tiles"
    check_boxes(info, len(info["tiles"]))
    cards = page.evaluate("document.querySelectorAll('article.puzzle').length")
    solutions = page.evaluate("document.querySelectorAll('article.solution').length")
    assert (cards, solutions) == (count, count)
    page.screenshot(shots / "book.png")


@pytest.mark.slow  # over 0.45 s: left out of the quick subset (pytest -m 'not slow')
def test_book_prints(page: Page, shots: Path, book_file: tuple[Path, int]) -> None:
    path, count = book_file
    page.open(path.as_uri(), 800, 1000)
    # A4 with the book's @page margins: every card must fit on one printed page.
    page.call("Emulation.setEmulatedMedia", media="print")
    page.call("Emulation.setDeviceMetricsOverride", width=round(182 * MM), height=round(267 * MM),
              deviceScaleFactor=1, mobile=False)
    heights = page.evaluate("[...document.querySelectorAll('article.card')].map(c => c.getBoundingClientRect().height)")
    assert len(heights) == 2 * count
    assert max(heights) < 267 * MM, f"a card is taller than a printed page: {max(heights):.0f}px"
    styles = page.evaluate("""[getComputedStyle(document.querySelector('article.card')).breakInside,
                               getComputedStyle(document.querySelector('section.solutions')).breakBefore]""")
    assert styles == ["avoid", "page"]
    page.call("Emulation.setEmulatedMedia", media="")
    pdf = base64.b64decode(page.call("Page.printToPDF", printBackground=True, preferCSSPageSize=True)["data"])
    assert pdf.startswith(b"%PDF-")
    (shots / "book.pdf").write_bytes(pdf)
    assert page.errors() == []


CHART_JS = """(() => {
  const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const svg = document.querySelector('svg.fives-score-chart');
  const target = svg.querySelector('line.target');
  return {svg: r(svg), target: r(target), targetY: target.getBoundingClientRect().top,
          sides: [...svg.querySelectorAll('g.side')].map(g => ({
            box: r(g.querySelector('polyline')), dots: g.querySelectorAll('circle').length,
            scores: g.dataset.scores.split(' ').map(Number),
            ys: [...g.querySelectorAll('circle')].map(c => c.getBoundingClientRect().top + 3)})),
          texts: [...svg.querySelectorAll('text')].map(t => r(t))};
})()"""


def test_score_chart_in_browser(page: Page, shots: Path, tmp_path: Path) -> None:
    """`fives score-svg --record F --chart`: every side's line, dot per hand and the target
    line lie inside the picture; a dot above the target line is a score above the target."""
    from click.testing import CliRunner

    from fives.cli import main

    record = tmp_path / "match.jsonl"
    CliRunner().invoke(main, ["play", "--game", "american-sniff", "--players", "3", "--seed", "5", "--out",
                              str(record), "--quiet"])
    chart = tmp_path / "chart.svg"
    r = CliRunner().invoke(main, ["score-svg", "--record", str(record), "--chart", "--out", str(chart)])
    assert r.exit_code == 0, r.output
    page.open(chart.as_uri(), 900, 600)
    assert page.errors() == []
    info = page.evaluate(CHART_JS)
    assert len(info["sides"]) == 3
    assert inside(info["target"], info["svg"]) and all(inside(t, info["svg"]) for t in info["texts"])
    target = json.loads(record.read_text().splitlines()[0])["target"]
    for side in info["sides"]:
        assert inside(side["box"], info["svg"]) and side["dots"] == len(side["scores"]) > 1
        for y, score in zip(side["ys"], side["scores"]):
            if score != target:
                assert (y < info["targetY"]) == (score > target), (score, y, info["targetY"])
    page.screenshot(shots / "score-chart.png")
    assert (shots / "score-chart.png").stat().st_size > 1000
