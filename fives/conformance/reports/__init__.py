"""What a run says: the human summary, JSON, JUnit, Markdown and HTML reports (`formats`), the
explanation of each failure (`failures`, `explain`), causes, report diffs and the last-failed
record. Above the runner, below diagnosis (docs/architecture.md).

`fives.conformance.reports` was one module before this folder; its names are still read from
here (`from fives.conformance.reports import human`), loaded on first use.
"""
from fives.conformance import names_of

__getattr__ = names_of(__name__, "formats")
