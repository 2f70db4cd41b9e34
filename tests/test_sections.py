"""Sections: subfolders of content/ with an index.md, built without a browser. URLs
follow the folders, every relative address of every page reaches a file of the site,
prev/next walk the whole site, the navigation shows the reader's section open, and two
pages on one URL stop the build at file:line:col, as two lessons with one order are
warned. Images with a caption are numbered with the live figures. (Links between the
folders: tests/test_links.py.)"""
from __future__ import annotations

import os
import posixpath
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from explorables.site_builder.commands.build import build_site
from explorables.site_builder.output.assets import names_in
from explorables.site_builder.output.offline import _pages
from explorables.site_builder.errors import BuildError
from explorables.site_builder.output.search import read_script_value
from conftest import ROOT
from sections_site import READING, make_site
from test_build import write


class _Page(HTMLParser):
    """The addresses, the pager and the navigation of one built page."""

    def __init__(self):
        super().__init__()
        self.addresses: list[str] = []
        self.rel: dict[str, str] = {}
        self.current: list[str] = []
        self.sections: list[tuple[str, bool]] = []  # (summary text, open) of each section's disclosure
        self.folds = 0
        self._summary: list | None = None
        self._open: list[bool] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        for name in ("href", "src"):
            if attrs.get(name):
                self.addresses.append(attrs[name])
        if tag == "a" and attrs.get("rel") in ("prev", "next"):
            self.rel[attrs["rel"]] = attrs["href"]
        if tag == "a" and attrs.get("aria-current") == "page":
            self.current.append(attrs["href"])
        if tag == "details":
            if "ex-nav-fold" in (attrs.get("class") or ""):
                self.folds += 1
            self._open.append("open" in attrs)
        if tag == "summary":
            self._summary = []

    def handle_data(self, data):
        if self._summary is not None:
            self._summary.append(data)

    def handle_endtag(self, tag):
        if tag == "summary" and self._summary is not None:
            self.sections.append(("".join(self._summary), self._open[-1]))
            self._summary = None


def parsed(site: Path, url: str) -> _Page:
    page = _Page()
    page.feed((site / url).read_text(encoding="utf-8"))
    return page


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("sections")
    content = make_site(folder)
    site = folder / "_site"
    result = build_site(content, site)
    return content, site, result


def test_urls_follow_the_folders(built):
    _, site, result = built
    for url in ["index.html", *READING]:
        assert (site / url).is_file(), url
    assert result.pages == 1 + len(READING)
    assert (site / "basics" / "img" / "dot.svg").is_file()  # an image beside a section's lesson
    assert not list(site.rglob("*.md")), "a section's Markdown was published"


def test_every_relative_address_of_every_page_reaches_a_file(built):
    _, site, _ = built
    checked = 0
    for url in ["index.html", *READING, "404.html", "notices.html", "print.html"]:
        for address in parsed(site, url).addresses:
            if address.startswith(("#", "data:")) or re.match(r"^[a-z]+:", address):
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(url), address.split("#")[0]))
            assert not target.startswith(".."), (url, address)
            assert (site / target).is_file(), f"{url}: {address} -> {target} is not in the site"
            checked += 1
    assert checked > 150  # the head's runtime and stylesheet of every page, the navigation, the links


def test_the_print_page_holds_every_section_s_lessons_with_links_within_it(built):
    """print.html sits at the root: the lessons of folders keep their images and links
    (the walk above), and a link to another lesson lands on that lesson on the page."""
    _, site, _ = built
    html = (site / "print.html").read_text(encoding="utf-8")
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    articles = re.findall(r'<article class="ex-lesson ex-print-lesson" id="([^"]+)">', html)
    assert len(articles) == len(READING) and len(set(articles)) == len(articles)
    within = re.findall(r'href="#([^"]+)"', html)
    assert within and all(target in ids for target in within), sorted(set(within) - ids)
    assert not re.search(r'href="[^"#:]*\.html', html.split('<main', 1)[1].split("</main>")[0]), \
        "a link between lessons left the print page"


def test_with_the_site_s_address_the_404_page_works_in_every_folder(tmp_path):
    """A host serves 404.html for a missing address in any folder: once the site's address
    is known (site.yml's url, or `--url` as the Pages workflow passes it), its links and
    assets start at the site's path."""
    content = make_site(tmp_path)
    site = tmp_path / "_site"
    build_site(content, site, url="https://example.org/attention")
    html = (site / "404.html").read_text(encoding="utf-8")
    addresses = [a for a in parsed(site, "404.html").addresses if not a.startswith(("#", "data:"))]
    assert len(addresses) > 10
    for address in addresses:
        assert address.startswith("/attention/"), address
        assert (site / address.removeprefix("/attention/").split("#")[0]).is_file(), address
    assert 'data-assets="/attention/_explorables/"' in html
    intro = (site / "intro.html").read_text(encoding="utf-8")  # the lessons stay relative
    assert 'data-assets="_explorables/"' in intro
    with pytest.raises(BuildError, match="--url must be the site's web address"):
        build_site(content, site, url="example.org")


def test_pages_in_folders_reach_the_assets_with_their_prefix(built):
    _, site, _ = built
    assert 'data-assets="../_explorables/"' in (site / "basics" / "softmax.html").read_text()
    assert 'data-assets="../../_explorables/"' in (site / "advanced" / "deeper" / "more.html").read_text()
    assert 'data-assets="_explorables/"' in (site / "intro.html").read_text()


def test_next_and_prev_walk_the_whole_site_in_reading_order(built):
    _, site, _ = built
    walked, url = [READING[0]], READING[0]
    while "next" in parsed(site, url).rel:
        url = posixpath.normpath(posixpath.join(posixpath.dirname(url), parsed(site, url).rel["next"]))
        walked.append(url)
    assert walked == READING
    back = [url]
    while "prev" in parsed(site, url).rel:
        url = posixpath.normpath(posixpath.join(posixpath.dirname(url), parsed(site, url).rel["prev"]))
        back.append(url)
    assert back == READING[::-1]


def test_a_section_page_shows_its_title_summary_body_and_lessons(built):
    _, site, _ = built
    html = (site / "basics" / "index.html").read_text()
    assert "<h1>Basics</h1>" in html and "The first steps." in html and "What attention computes." in html
    track = html[html.index('<ol class="ex-track">'):]
    assert track.index("../basics/scores.html") < track.index("../basics/softmax.html")
    assert "<title>Basics · Sections</title>" in html
    lesson = (site / "basics" / "softmax.html").read_text()
    assert "Lesson 2 of 2 · Basics" in lesson


def test_the_navigation_opens_the_reader_s_section_only(built):
    """The reader's section stands open (a disclosure of its own); every other section is
    one entry, its title leading to its page, which lists its lessons."""
    _, site, _ = built
    page = parsed(site, "basics/softmax.html")
    assert page.folds == 1  # the whole list folds on phones
    assert page.current == ["../basics/softmax.html"]
    assert dict(page.sections) == {"Lessons": False, "Basics": True}
    deeper = parsed(site, "advanced/deeper/more.html")
    assert dict(deeper.sections) == {"Lessons": False, "Advanced": True, "Deeper": True}
    front = parsed(site, "index.html")
    assert [name for name, _ in front.sections] == ["Lessons"]
    nav = (site / "index.html").read_text()
    nav = nav[nav.index('<nav class="ex-nav'):nav.index("</nav>")]
    # the top level in order (order, then name), each section one entry leading to its page
    assert re.findall(r'href="([^"]+)"', nav) == ["intro.html", "basics/index.html", "advanced/index.html"]
    nav = (site / "advanced" / "heads.html").read_text()
    nav = nav[nav.index('<nav class="ex-nav'):nav.index("</nav>")]
    assert re.findall(r'href="([^"]+)"', nav) == ["../intro.html", "../basics/index.html", "../advanced/index.html",
                                                  "../advanced/heads.html", "../advanced/deeper/index.html"]


def test_images_and_live_figures_share_one_numbering(built):
    _, site, _ = built
    html = (site / "basics" / "softmax.html").read_text()
    assert '<span class="ex-caption-number">Figure 1.</span> A dot, for scale.' in html
    assert '<span class="ex-caption-number">Figure 2.</span> One query row.' in html
    assert '<a class="ex-ref" href="#dot">Figure 1</a>' in html
    assert '<a class="ex-ref" href="#explorer">Figure 2</a>' in html
    assert '<a href="#explorer" class="ex-ref">Figure 2</a>' in html


def test_search_and_bundle_carry_every_page_by_its_path(built):
    _, site, _ = built
    names = names_in(site)
    script = (site / "_explorables" / names["search-index.js"]).read_text()
    index = read_script_value(script)
    assert ["Basics › Softmax", "basics/softmax.html"] in index["lessons"]
    assert ["Deeper › More", "advanced/deeper/more.html"] in index["lessons"]
    pages = _pages({name: (site / name).read_text() for name in ["index.html", *READING]})
    assert set(READING) <= set(pages)
    assert pages["advanced/deeper/more.html"]["assets"] == "../../_explorables/"
    assert pages["index.html"]["assets"] == "_explorables/"


def test_the_sitemap_lists_section_pages(tmp_path):
    content = make_site(tmp_path)
    (content / "site.yml").write_text("title: Sections\nurl: https://example.org/course/\n")
    build_site(content, tmp_path / "_site")
    sitemap = (tmp_path / "_site" / "sitemap.xml").read_text()
    locs = re.findall(r"<loc>(.*?)</loc>", sitemap)
    assert "https://example.org/course/basics/softmax.html" in locs
    assert "https://example.org/course/advanced/deeper/index.html" in locs
    assert 'href="https://example.org/course/basics/softmax.html"' in (tmp_path / "_site" / "basics" / "softmax.html").read_text()


def test_two_pages_on_one_url_stop_the_build_and_keep_the_site(tmp_path):
    content = make_site(tmp_path)
    site = tmp_path / "_site"
    build_site(content, site)
    before = (site / "basics" / "softmax.html").read_bytes()
    (content / "basics" / "03-softmax.md").write_text("---\ntitle: Softmax again\n---\nText.\n")
    with pytest.raises(BuildError) as err:
        build_site(content, site)
    text = str(err.value)
    assert "content/basics/03-softmax.md:1:1:" in text
    assert "03-softmax.md and 02-softmax.md would both be written to basics/softmax.html" in text
    assert (site / "basics" / "softmax.html").read_bytes() == before


def test_one_name_in_two_folders_is_two_pages(tmp_path):
    content = make_site(tmp_path)
    (content / "advanced" / "05-softmax.md").write_text("---\ntitle: Softmax, later\n---\nAgain.\n")
    build_site(content, tmp_path / "_site")
    assert "Softmax, later" in (tmp_path / "_site" / "advanced" / "softmax.html").read_text()
    assert "<h1>Softmax</h1>" in (tmp_path / "_site" / "basics" / "softmax.html").read_text()


def test_a_folder_of_markdown_without_index_is_published_as_files_with_a_warning(tmp_path):
    content = make_site(tmp_path)
    (content / "notes").mkdir()
    (content / "notes" / "draft.md").write_text("# A draft\n")
    result = build_site(content, tmp_path / "_site")
    assert any("notes/ holds Markdown files but no index.md" in w for w in result.warnings)
    assert (tmp_path / "_site" / "notes" / "draft.md").is_file()
    assert not (tmp_path / "_site" / "notes" / "draft.html").exists()


def test_a_section_without_a_title_is_named_after_its_folder(tmp_path):
    content = make_site(tmp_path)
    (content / "basics" / "index.md").write_text("Only a body.\n")
    build_site(content, tmp_path / "_site")
    assert "<h1>Basics</h1>" in (tmp_path / "_site" / "basics" / "index.html").read_text()


def test_a_flat_site_keeps_its_flat_navigation(tmp_path):
    build_site(ROOT / "content", tmp_path / "_site")
    html = (tmp_path / "_site" / "one-query-row.html").read_text()
    assert "ex-nav-fold" not in html and "<details" not in html.split("</header>")[0]
    lessons = len(list((ROOT / "content").glob("0*.md")))
    assert 'data-assets="_explorables/"' in html and f"Lesson 1 of {lessons}</p>" in html
    assert sorted(p.name for p in (tmp_path / "_site").glob("*.html")) == [
        "404.html", "attention-heatmap.html", "attention-lab.html", "cross-attention.html", "generating-text.html",
        "index.html",
        "notices.html", "one-query-row.html", "positional-encoding.html", "print.html", "rotary-positions.html",
        "two-heads.html"]


def test_serve_rebuilds_a_section_s_lesson_in_place(tmp_path):
    """Live reload in a folder: the page reaches livereload.js and the event stream at the
    site's root, and an edit of a section's lesson is a content swap, not a reload."""
    import urllib.request

    from explorables.site_builder.commands.serve import DevServer

    content = make_site(tmp_path)
    dev = DevServer(content, port=0)
    assert dev.start()
    try:
        html = urllib.request.urlopen(dev.url + "basics/softmax.html").read().decode()
        found = re.search(r'<script src="\.\./(_explorables/js/livereload\.[0-9a-f]+\.js)">', html)
        assert found, "the page names the preview's live-reload script, one folder up"
        assert urllib.request.urlopen(dev.url + "basics/../" + found.group(1)).status == 200
        edited = content / "basics" / "01-scores.md"
        edited.write_text("---\ntitle: Scores, edited\norder: 1\n---\nNew words.\n")
        later = edited.stat().st_mtime + 2
        os.utime(edited, (later, later))  # a new modification time, however soon the edit came
        assert dev.check()
        assert dev.reloads.message == {"kind": "content", "text": ""}
        assert "Scores, edited" in urllib.request.urlopen(dev.url + "basics/scores.html").read().decode()
    finally:
        dev.stop()


def test_an_image_named_like_a_figure_is_an_error_at_its_line(tmp_path):
    content = make_site(tmp_path)
    lesson = content / "basics" / "02-softmax.md"
    lesson.write_text(lesson.read_text().replace(":name: dot", ":name: explorer").replace("{numref}`dot`", "it"))
    with pytest.raises(BuildError) as err:
        build_site(content, tmp_path / "_site")
    assert "content/basics/02-softmax.md:9:1: image name 'explorer' is also the id of a heading or a figure" in str(err.value)


def test_two_lessons_with_one_order_are_warned(one_lesson_site):
    content, out = one_lesson_site
    write(content, {"02-b.md": "---\ntitle: B\norder: 1\n---\nB.\n"})
    result = build_site(content, out)
    assert result.warnings == [
        "content/02-b.md:3:1: order 1 is also the order of 01-a.md; 01-a.md comes first (by page name)\n"
        "    give each lesson its own order"]
