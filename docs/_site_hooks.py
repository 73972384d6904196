"""mkdocs hooks (mkdocs.yml `hooks:`): the specifications are pages of the site.

The pages of docs/ link the specifications where they live in the checkout (`../spec/protocol.md`),
so the links work on a forge and in an editor (tests/test_api_docs.py checks each resolves). The
site takes spec/ whole (pages, schemas, game and variant YAML) and the fixture schemas the specs
link (conformance/schema/), each at its path in the checkout, and rewrites a docs page's link
to a file outside docs/ to that file's place in the site. A linked folder gets a generated page
listing its files. Nothing is copied into docs/: the checkout keeps one source of every page.
tests/test_docs_site.py builds the site and follows every internal link of every page.
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files, InclusionLevel

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: the folders of the checkout the site takes whole, beside docs/, at their own paths
TAKEN = ("spec", "conformance/schema")
#: a relative Markdown link: `](target)` or `](target#anchor)`
LINK = re.compile(r"\]\(((?!#)(?![a-z]+:)[^)\s#]*)(#[^)\s]*)?\)")


def on_files(files: Files, config: Any) -> Files:
    for base in TAKEN:
        for path in sorted((ROOT / base).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                files.append(File(path.relative_to(ROOT).as_posix(), src_dir=str(ROOT), dest_dir=config["site_dir"],
                                  use_directory_urls=config["use_directory_urls"]))
        for folder in sorted(p for p in (ROOT / base).rglob("*") if p.is_dir() and "__pycache__" not in p.parts):
            files.append(File.generated(config, f"{folder.relative_to(ROOT).as_posix()}/index.md",
                                        content=_listing(folder), inclusion=InclusionLevel.NOT_IN_NAV))
    return files


def _listing(folder: Path) -> str:
    """The generated page of a linked folder: its files, each a link."""
    rel = folder.relative_to(ROOT).as_posix()
    names = sorted(p.name for p in folder.iterdir() if p.is_file())
    return f"# {rel}/\n\n" + "".join(f"- [{n}]({n})\n" for n in names)


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    src = page.file.src_uri
    checkout = (DOCS / src) if page.file.abs_src_path and Path(page.file.abs_src_path).is_relative_to(DOCS) \
        else ROOT / src  # where the page lives in the checkout: its links are relative to that

    def place(m: re.Match[str]) -> str:
        target, anchor = m.group(1), m.group(2) or ""
        if not target:
            return m.group(0)
        path = (checkout.parent / target).resolve()
        try:
            rel = path.relative_to(DOCS).as_posix()  # a docs page: the site's root is docs/
        except ValueError:
            try:
                rel = path.relative_to(ROOT).as_posix()  # spec/, conformance/schema/: their own paths
            except ValueError:
                return m.group(0)
        if path.is_dir():
            rel = f"{rel}/index.md"
        return f"]({posixpath.relpath(rel, posixpath.dirname(src) or '.')}{anchor})"

    return _outside_code(markdown, lambda text: LINK.sub(place, text))


def _outside_code(markdown: str, change: Any) -> str:
    """`change` applied to the text outside fenced code blocks (code shows links, has none)."""
    parts = re.split(r"(^```.*?^```[^\n]*$)", markdown, flags=re.S | re.M)
    return "".join(p if i % 2 else change(p) for i, p in enumerate(parts))
