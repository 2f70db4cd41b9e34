"""notices.html, the licences of what the site ships (site_builder/output/notices.py)."""
from __future__ import annotations

import re
from pathlib import Path

from explorables.site_builder.output.scripts import stylesheet


def test_the_notices_link_each_source_and_keep_each_licence_name_whole(built_site):
    """Pins a reader's finding: the sources were bare text, and on a phone "MPL-2.0"
    broke after its hyphen; the table, cut at the screen's edge, gave no sign it scrolls."""
    html = (built_site / "notices.html").read_text(encoding="utf-8")
    rows = re.findall(r"<tr><td>.*?</tr>", html, re.S)
    assert len(rows) >= 4
    for row in rows:
        source = re.findall(r"<td>(.*?)</td>", row, re.S)[-1]
        assert re.fullmatch(r'<a href="https://[^"]+">[^<]+</a>', source), source
    css = stylesheet(Path(__file__).resolve().parent.parent / "static")
    assert ".ex-notices td:nth-child(3) { white-space: nowrap; }" in css
    shadowed = css[:css.index("background: linear-gradient(to right, var(--ex-behind)")]
    assert ".ex-lesson table:not(.ex-cells):not(.ex-grid):not(.ex-matrix) {" in shadowed.rsplit("}", 1)[-1]

