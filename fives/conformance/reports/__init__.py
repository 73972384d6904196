"""What a run says: the human summary, JSON, JUnit, Markdown and HTML reports (`formats`), the
explanation of each failure (`failures`, `explain`), causes, report diffs and the last-failed
record. Above the runner, below diagnosis (docs/architecture.md).
"""
