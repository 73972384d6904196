"""The docs site whole (issue 40): `mkdocs build --strict` builds it with the specifications as
pages (docs/_site_hooks.py), an index page, and no dead internal link: mkdocs's own link
validation fails the strict build, and this test follows every `href` and `src` of every built
page to a file of the site (and every `#anchor` to an id of its page)."""
from __future__ import annotations

import html.parser
import posixpath
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow  # one site build: a few seconds


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value is not None:
                self.links.append(value)
            if name in ("id", "name") and value:
                self.ids.add(value)


def _parse(page: Path) -> _Links:
    parser = _Links()
    parser.feed(page.read_text(encoding="utf-8", errors="replace"))
    return parser


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("mkdocstrings_handlers.python", reason="pip install -e '.[docs]' builds the site")
    out = tmp_path_factory.mktemp("site") / "site"
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                       cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "WARNING" not in r.stderr, r.stderr[-3000:]
    return out


def _target(site: Path, page: Path, link: str) -> tuple[Path, str] | None:
    """The file of the site an internal link leads to, and its anchor; None for an external one."""
    parts = urlsplit(link)
    if parts.scheme or parts.netloc or link.startswith(("mailto:", "javascript:", "data:")):
        return None
    base = posixpath.dirname(page.relative_to(site).as_posix())
    path = unquote(parts.path)
    rel = posixpath.normpath(posixpath.join(base, path)) if path else page.relative_to(site).as_posix()
    target = site / rel
    if path.endswith("/") or target.is_dir():
        target = target / "index.html"
    return target, unquote(parts.fragment)


def test_the_site_has_an_index_and_the_specifications(site: Path) -> None:
    assert (site / "index.html").is_file() and "engine-authors/" in (site / "index.html").read_text(encoding="utf-8")
    for spec in sorted((ROOT / "spec").glob("*.md")):
        page = site / "spec" / spec.stem / "index.html"
        assert page.is_file(), f"the site has no page for spec/{spec.name}"
    assert (site / "spec" / "protocol" / "hello-reply.schema.json").is_file()  # the schemas the specs link


def test_every_spec_page_is_in_the_nav() -> None:
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for spec in sorted((ROOT / "spec").glob("*.md")):
        assert f"spec/{spec.name}" in nav, f"mkdocs.yml's nav leaves out spec/{spec.name}"


def dead_links(site: Path) -> list[str]:
    """Every internal `href`/`src` of the site's pages that leads to no file, or to no id."""
    dead: list[str] = []
    ids: dict[Path, set[str]] = {}
    for page in sorted(p for p in site.rglob("*.html") if p.name != "404.html"):
        for link in _parse(page).links:
            found = _target(site, page, link)
            if found is None:
                continue
            target, anchor = found
            if not target.is_file():
                dead.append(f"{page.relative_to(site)}: {link} (no {target.relative_to(site)})")
            elif anchor and target.suffix == ".html":
                if target not in ids:
                    ids[target] = _parse(target).ids
                if anchor not in ids[target]:
                    dead.append(f"{page.relative_to(site)}: {link} (no id {anchor!r})")
    return dead


def test_no_internal_link_of_the_site_is_dead(site: Path) -> None:
    assert len(list(site.rglob("*.html"))) > 30
    dead = dead_links(site)
    assert not dead, f"{len(dead)} dead internal links:\n" + "\n".join(dead[:40])


def test_the_checker_finds_a_dead_link_and_a_dead_anchor(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "index.html").write_text('<h1 id="top">b</h1><a href="../a.html#here">a</a>')
    (tmp_path / "a.html").write_text('<p id="here"><a href="b/">b</a> <a href="b/#top">top</a> '
                                     '<a href="c/">c</a> <a href="b/#gone">gone</a> <a href="https://x.org/">x</a>'
                                     '<img src="pic.svg"></p>')
    assert dead_links(tmp_path) == ["a.html: c/ (no c/index.html)", "a.html: b/#gone (no id 'gone')",
                                    "a.html: pic.svg (no pic.svg)"]


def test_the_docs_links_to_the_specs_lead_to_their_pages(site: Path) -> None:
    # the 31 `../spec/*.md` links of docs/ (issue 40) are links to the spec pages of the site
    conformance = (site / "conformance" / "index.html").read_text(encoding="utf-8")
    assert re.search(r'href="\.\./spec/reports/(#[^"]*)?"', conformance), "docs/conformance.md's link to spec/reports.md"
    index = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="spec/protocol/"' in index and "../spec/" not in index
