"""The Content-Security-Policy every page carries: strict (no style attribute, so table
alignment is classes), configurable in site.yml, and for an offline bundle widened by
blob: where its worker needs it and nowhere else."""
from __future__ import annotations

import re

from explorables.site_builder.commands.build import build_site
from author_site import ONE_LESSON as LESSON
from test_build import write


def test_table_alignment_is_classes_and_every_page_carries_the_policy(one_lesson_site):
    content, out = one_lesson_site
    (content / "01-a.md").write_text(LESSON + "\n| a | b | c |\n|:--|:-:|--:|\n| 1 | 2 | 3 |\n")
    build_site(content, out)
    html = (out / "a.html").read_text()
    assert "style=" not in html
    assert '<th class="ex-align-left">a</th>' in html and '<td class="ex-align-center">2</td>' in html
    assert '<td class="ex-align-right">3</td>' in html
    for page in ("a.html", "index.html"):
        assert ('<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;; script-src '
                "&#39;self&#39; &#39;wasm-unsafe-eval&#39;; worker-src &#39;self&#39; blob:;") in (out / page).read_text()
    (content / "site.yml").write_text("csp: \"default-src 'none'\"\n")
    build_site(content, out)
    assert '<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;">' in (out / "a.html").read_text()
    (content / "site.yml").write_text('csp: ""\n')
    build_site(content, out)
    assert "Content-Security-Policy" not in (out / "a.html").read_text()


def test_a_bundle_policy_allows_blob_scripts_and_fetches_and_nothing_more(tmp_path):
    """An offline bundle's Blob worker inherits the page's policy and imports Pyodide from
    Blob URLs: blob: is added to script-src and connect-src, and only there."""
    content = write(tmp_path / "content", {"01-a.md": LESSON})
    build_site(content, tmp_path / "_site", bundle=True)
    html = (tmp_path / "_site" / "a.html").read_text().replace("&#39;", "'")
    policy = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)">', html).group(1)
    assert policy == ("default-src 'self'; script-src 'self' 'wasm-unsafe-eval' blob:; worker-src 'self' blob:; "
                      "style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self' blob:; "
                      "object-src 'none'; base-uri 'none'")
