"""Documentation that must agree with the code."""
import re

from fives.layout import IllegalCode
from fives.support.paths import ROOT, SPEC


def test_documented_illegal_codes_match_the_engine():
    text = (SPEC / "engine.md").read_text(encoding="utf-8")
    table = text.split("<!-- codes:")[1].split("## Batch mode")[0]
    documented = re.findall(r"^\| `([a-z-]+)` \|", table, re.M)
    assert documented == [c.value for c in IllegalCode]


def test_readme_opens_with_the_two_commands_and_ci_runs_the_second():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```(?:sh|bash)?\n(.*?)```", readme, re.S)
    first_two = [line for b in blocks[:2] for line in b.strip().splitlines()]
    assert len(first_two) == 2
    assert "fives conformance run" in first_two[0]
    assert "pytest" in first_two[1]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert first_two[1] in ci.splitlines()
