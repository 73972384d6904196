"""The conformance badge, `--report badge:FILE.svg` (spec/reports.md, "Badge"): a small
self-contained SVG in the style of shields.io badges, as Bowtie gives its implementations. An
engine's README can show it. The left part names the game or games after `fives: ` (and the
rule profile under `--rules`); the right part says how many of the cases run passed, how many
were skipped (and the engine's declared scope when it left cases out), and the suite version. A
run that skipped cases is never the all-green badge, as Bowtie marks partial support.

Same results, same bytes: the text widths come from a fixed table rather than from a font,
and `textLength` holds each text to its box in any font the viewer has.
"""
from __future__ import annotations

from typing import Any
from xml.sax.saxutils import escape, quoteattr

from fives.conformance.cases.expected_under import ProfilePlan
from fives.conformance.engines.drivers import Handshake
from fives.conformance.runner import CaseResult
from fives.support.sanitize import one_line

#: Right-part colours: every case run passed; 90% or more passed; fewer; nothing run.
PASS, MOST, FEW, NONE = "#4c1", "#dfb317", "#e05d44", "#9f9f9f"
#: every case run passed but some were skipped (shields.io's yellowgreen): partial, never the all-green
PARTIAL = "#a4a61d"
LABEL = "#555"
HEIGHT = 20
PAD = 6  # pixels each side of a text
#: Widths in pixels of Verdana at 11 px (the shields.io font) by character class; the rest are 7.
_NARROW = {c: 3.5 for c in "ijl.,:;'|!() "} | {"f": 4.0, "t": 4.5, "r": 4.7, "I": 4.6, "-": 4.9, "/": 4.9}
_WIDE = {c: 9.0 for c in "mwMW%"}


def text_width(text: str) -> float:
    """The width the badge gives `text`, from the table (deterministic, no font needed)."""
    return sum(_NARROW.get(c, _WIDE.get(c, 7.0)) for c in text)


def game_names(results: list[CaseResult]) -> list[str]:
    """The names of the games the run covered: those of the cases it ran (all of its cases
    when none ran), from spec/games (`American Sniff`); an unknown id stands as it is."""
    from fives.rules import load_rules

    ran = {r.case.game for r in results if r.status != "skipped"} or {r.case.game for r in results}
    names = []
    for game in sorted(ran):
        try:
            names.append(load_rules(game).name)
        except Exception:  # noqa: BLE001 - a game the spec does not know is named by its id
            names.append(str(game))
    return names


def scope_words(handshake: Handshake | None) -> str:
    """The engine's declared scope in words (`players 2, partnerships false`), or ""."""
    scope = getattr(handshake, "scope", None) or {}
    return ", ".join(f"{k} {str(v).lower() if isinstance(v, bool) else ' '.join(map(str, v))}" for k, v in scope.items())


def badge_parts(results: list[CaseResult], plan: ProfilePlan | None = None,
                interrupted: bool = False, handshake: Handshake | None = None) -> dict[str, Any]:
    """What the badge says: {label, covered (the label after `fives: `), message, colour, passed,
    run, skipped, scope (the declared scope when it left cases out, else ""), suite, games, rules}."""
    from fives.conformance.golden import SUITE_VERSION

    run = [r for r in results if r.status != "skipped"]
    passed = sum(1 for r in run if r.status == "passed")
    skipped = len(results) - len(run)
    # the scope is named only when it narrowed the run: a case was skipped as outside it
    scope = scope_words(handshake) if any(r.out_of_scope for r in results) else ""
    games = game_names(results)
    rules = plan.profile.name if plan is not None else None
    covered = (", ".join(games) or "no game") + (f" under {rules}" if rules else "")
    left_out = (f", {skipped} skipped" + (f" (scope: {scope})" if scope else "")) if skipped else ""
    message = f"{passed}/{len(run)} passed{left_out}, suite {SUITE_VERSION}" + (", interrupted" if interrupted else "")
    colour = NONE if not run else (PARTIAL if skipped else PASS) if passed == len(run) else \
        MOST if passed >= 0.9 * len(run) else FEW
    return {"label": one_line("fives: " + covered, 120), "covered": one_line(covered, 120),
            "message": one_line(message, 160), "colour": colour, "passed": passed, "run": len(run),
            "skipped": skipped, "scope": scope, "suite": SUITE_VERSION, "games": games, "rules": rules}


def _n(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def badge_svg(results: list[CaseResult], plan: ProfilePlan | None = None, interrupted: bool = False,
              handshake: Handshake | None = None) -> str:
    parts = badge_parts(results, plan, interrupted, handshake)
    label, message = parts["label"], parts["message"]
    lw, mw = text_width(label) + 2 * PAD, text_width(message) + 2 * PAD
    width = lw + mw
    skipped = (f"; {parts['skipped']} case{'s' * (parts['skipped'] != 1)} skipped, not run"
               + (f" (the engine's declared scope: {parts['scope']})" if parts["scope"] else "")) if parts["skipped"] else ""
    title = (f"fives conformance: {parts['covered']}: {parts['passed']} of {parts['run']} cases run passed{skipped}; "
             f"suite version {parts['suite']}" + ("; the run was interrupted" if interrupted else ""))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{HEIGHT}" '
           f'viewBox="0 0 {_n(width)} {HEIGHT}" role="img" aria-label={quoteattr(title)} class="fives-badge" '
           f'data-passed="{parts["passed"]}" data-run="{parts["run"]}" data-suite={quoteattr(parts["suite"])}'
           + (f' data-skipped="{parts["skipped"]}"' if parts["skipped"] else "")
           + (f' data-scope={quoteattr(parts["scope"])}' if parts["scope"] else "")
           + (f' data-rules={quoteattr(parts["rules"])}' if parts["rules"] else "") + ">",
           f"<title>{escape(title)}</title>",
           '<linearGradient id="shine" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/>'
           '<stop offset="1" stop-opacity=".1"/></linearGradient>',
           f'<clipPath id="round"><rect width="{_n(width)}" height="{HEIGHT}" rx="3" fill="#fff"/></clipPath>',
           '<g clip-path="url(#round)">',
           f'<rect class="label" width="{_n(lw)}" height="{HEIGHT}" fill="{LABEL}"/>',
           f'<rect class="message" x="{_n(lw)}" width="{_n(mw)}" height="{HEIGHT}" fill="{parts["colour"]}"/>',
           f'<rect width="{_n(width)}" height="{HEIGHT}" fill="url(#shine)"/>',
           "</g>",
           '<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">']
    for cls, text, x, w in (("label", label, lw / 2, lw - 2 * PAD), ("message", message, lw + mw / 2, mw - 2 * PAD)):
        fit = f'textLength="{_n(w)}" lengthAdjust="spacingAndGlyphs"'
        out.append(f'<text x="{_n(x)}" y="15" fill="#010101" fill-opacity=".3" {fit} aria-hidden="true">{escape(text)}</text>')
        out.append(f'<text class="{cls}" x="{_n(x)}" y="14" {fit}>{escape(text)}</text>')
    out += ["</g>", "</svg>"]
    return "\n".join(out) + "\n"


def to_badge(results: list[CaseResult], handshake: Handshake | None, interrupted: bool = False,
             plan: ProfilePlan | None = None, causes: dict[str, str] | None = None) -> str:
    """The FORMATS entry (`--report badge:FILE.svg`); the engine is not named: the badge sits in
    the engine's own README."""
    return badge_svg(results, plan, interrupted, handshake)
