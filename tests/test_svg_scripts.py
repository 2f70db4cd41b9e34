"""An SVG image opened by itself runs its scripts as a page of the site: the build
publishes no SVG that holds a script, an event attribute, a script address or an
animation that sets one, wherever it sits, and says where in the SVG it is."""
from __future__ import annotations

import pytest
from sections_site import DOT, make_site

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.errors import BuildError
from explorables.site_builder.structure.active_svg import active_part

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">'
HINT = "    remove it (an image needs no script), or save the image as PNG\n"
LAST = "1 error; nothing was written (there is no previous site)."


@pytest.mark.parametrize("body, where", [
    ("\n<script>alert(1)</script>", (2, 1, "a <script> element")),
    ('\n<script type="module" src="x.js"/>', (2, 1, "a <script> element")),
    ('\n  <rect width="5" height="5" onclick="alert(1)"/>', (2, 3, "the event attribute onclick= on <rect>")),
    ('\n<rect ONMOUSEOVER="alert(1)"/>', (2, 1, "the event attribute onmouseover= on <rect>")),
    ('\n<image href="x.png" onerror="alert(1)"/>', (2, 1, "the event attribute onerror= on <image>")),
    ('\n<a href=" javascript:alert(1)"><text>x</text></a>', (2, 1, "a script address in href= on <a>")),
    ('\n<a xlink:href="JavaScript:alert(1)"><text>x</text></a>', (2, 1, "a script address in href= on <a>")),
    ('\n<a href="data:text/html,&lt;script&gt;"><text>x</text></a>', (2, 1, "a script address in href= on <a>")),
    ('\n<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
     (2, 1, "a <foreignObject> element")),
    ('\n<a><set attributeName="href" to="https://x.org"/></a>', (2, 4, "an animation of href on <set>")),
    ('\n<animate attributeName="onbegin" to="x"/>', (2, 1, "an animation of onbegin on <animate>")),
    ('\n<iframe src="x.html"/>', (2, 1, "a <iframe> element")),
])
def test_an_svg_that_would_run_code_is_found_at_its_line(tmp_path, body, where):
    (tmp_path / "a.svg").write_text(SVG + body + "</svg>", encoding="utf-8")
    assert active_part(tmp_path / "a.svg") == where


@pytest.mark.parametrize("text, where", [
    ('<svg xmlns:s="http://www.w3.org/2000/svg">\n<s:script>x</s:script></svg>', (2, 1, "a <script> element")),
    ("<svg>\n<script>alert(1)</svg", (2, 1, "a <script> element")),  # not well-formed
    ("<svg><rect/></svg\n  onload=alert(1)>", (2, 3, "'onload='")),  # not well-formed, a loose handler
])
def test_namespaces_and_broken_files_do_not_hide_it(tmp_path, text, where):
    (tmp_path / "a.svg").write_text(text, encoding="utf-8")
    assert active_part(tmp_path / "a.svg") == where


@pytest.mark.parametrize("body", [
    '<circle r="1" fill="red"/>',
    '<a href="https://example.org/"><text>online</text></a>',
    '<style>circle { fill: red }</style><circle r="1"/>',
    '<set attributeName="fill" to="blue" begin="1s"/>',
    '<text>one, on, only, onward</text>',
])
def test_a_plain_svg_is_fine(tmp_path, body):
    (tmp_path / "a.svg").write_text(SVG + body + "</svg>", encoding="utf-8")
    assert active_part(tmp_path / "a.svg") is None


@pytest.mark.parametrize("where, lesson", [
    ("basics/img/bad.svg", None),  # in an author's folder, referenced by no lesson
    ("files/deep/bad.svg", None),
    ("bad.svg", "![a picture](bad.svg)"),  # beside the lessons, referenced: copied on its own
    ("basics/bad.svg", ":::{figure} bad.svg\n:alt: a picture\nIt.\n:::"),
])
def test_a_site_with_such_an_svg_is_not_built(tmp_path, where, lesson):
    content = make_site(tmp_path)
    (content / where).parent.mkdir(parents=True, exist_ok=True)
    (content / where).write_text(SVG + '\n\n<circle r="1" onload="fetch(\'/x\')"/></svg>', encoding="utf-8")
    if lesson:
        folder = (content / where).parent
        (folder / "05-pictures.md").write_text(f"---\ntitle: Pictures\n---\n{lesson}\n", encoding="utf-8")
    with pytest.raises(BuildError) as info:
        build_site(content, tmp_path / "out")
    name = where.rsplit("/", 1)[-1]
    assert str(info.value) == (f"content/{where}:3:1: the SVG image {name} holds the event attribute onload= on "
                               "<circle>; opened by itself, an SVG runs its scripts as a page of the site\n"
                               f"{HINT}{LAST}")
    assert not (tmp_path / "out").exists()


def test_plain_svgs_are_published_as_they_are(tmp_path):
    content = make_site(tmp_path)
    build_site(content, tmp_path / "out")
    assert (tmp_path / "out" / "basics" / "img" / "dot.svg").read_text(encoding="utf-8") == DOT
