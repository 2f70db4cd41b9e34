"""print.html's lessons are made once a build (output/pages.py's Printed), in one pass
over each body's attribute values (output/printpage.py's print_body): the math font read
them all, then the page read them all again, through three regular expressions that
tried every character of the body (a tenth of a 200-page build's processor time)."""

from __future__ import annotations

import pytest

from explorables.site_builder.output import pages, printpage

# (body, as print.html holds it) for the lesson part/lesson.html, other.html printed too.
CASES = [
    (  # anchors of the page (any name ending in "href"), not src; ids and what names them, not "grid"
        '<a href="#x" data-href="#y" xhref="#z" src="#q" grid="a" data-id="b c" for="l">',
        '<a href="#part-lesson--x" data-href="#part-lesson--y" xhref="#part-lesson--z" src="#q" grid="a" '
        'data-id="part-lesson--b part-lesson--c" for="part-lesson--l">',
    ),
    (  # a '="' in a script's data (base64's padding) leaves the attributes after it alone
        '<script type="application/json">{"d":"QUJD==","e":"x"}</script><div id="y" aria-controls="p q">',
        '<script type="application/json">{"d":"QUJD==","e":"x"}</script>'
        '<div id="part-lesson--y" aria-controls="part-lesson--p part-lesson--q">',
    ),
    (  # addresses rebased from the lesson's folder; a printed lesson's link stays on the page
        '<img src="../img/a b.png"><a href="../other.html#s">x</a><a href="https://x.org">y</a>'
        '<a href="/abs">q</a><a href="?q=1">r</a><a href="">e</a>',
        '<img src="img/a b.png"><a href="#other--s">x</a><a href="https://x.org">y</a>'
        '<a href="/abs">q</a><a href="part/?q=1">r</a><a href="part/lesson.html">e</a>',
    ),
    ('<h2 id="unterminated>', '<h2 id="unterminated>'),
]


@pytest.mark.parametrize("body, printed", CASES)
def test_a_lesson_body_as_print_html_holds_it(body, printed):
    assert printpage.print_body(body, "part/lesson.html", {"other.html"}) == printed


def _counted(monkeypatch) -> list[str]:
    made: list[str] = []
    real = pages.print_body
    monkeypatch.setattr(pages, "print_body", lambda body, url, urls: made.append(url) or real(body, url, urls))
    return made


def test_the_font_and_the_page_read_each_lesson_made_once(monkeypatch):
    made = _counted(monkeypatch)
    lessons = [(f"l{n}.html", f"L{n}", "", f'<p id="p{n}">x</p>') for n in range(3)]
    printed = pages.Printed(lessons)
    first = [body for *_, body in printed]  # the math font's reading
    assert [body for *_, body in printed] == first == [f'<p id="l{n}--p{n}">x</p>' for n in range(3)]
    assert made == ["l0.html", "l1.html", "l2.html"]
    printed.replace("l1.html", '<p id="q">y</p>')  # `serve` rebuilt a lesson: made again
    assert [body for *_, body in printed][1] == '<p id="l1--q">y</p>'
    assert made[3:] == ["l0.html", "l1.html", "l2.html"]


def test_a_large_site_keeps_no_more_than_its_room(monkeypatch):
    made = _counted(monkeypatch)
    monkeypatch.setattr(pages.Printed, "KEEP", 30)
    lessons = [(f"l{n}.html", f"L{n}", "", f'<p id="p{n}">x</p>') for n in range(3)]  # 20 characters each, printed
    printed = pages.Printed(lessons)
    assert [body for *_, body in printed] == [body for *_, body in printed]
    assert made == ["l0.html", "l1.html", "l2.html", "l1.html", "l2.html"]  # only the first one kept
    assert printed.room == 30 - 20  # the second reading kept one (l1.html) for a third
