"""The browser tests' guard (conftest.Guard): a request that leaves the local server is
refused and fails the test; the server's own requests, data: and blob: pass untouched."""

from __future__ import annotations

from conftest import Guard

# A page with no policy of its own (a site's would refuse most of these before they are
# asked for), asking for pictures and text from here and elsewhere
PAGE = """<!doctype html><title>guard</title>
<img src="{local}"><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">{away_images}
<script>
window.fetched = Promise.all([URL.createObjectURL(new Blob(["blob"])), "{local}", "{away}"].map(
    url => fetch(url).then(r => r.text().then(text => text.slice(0, 15)), e => "refused")));
</script>"""


def test_only_a_request_that_leaves_the_local_server_is_refused_and_noted(browser, site_url, browser_context_args):
    port = site_url.rstrip("/").rsplit(":", 1)[1]
    local = site_url + "404.html"
    other = int(port) % 65535 + 1  # another port of the same host
    away = ["https://example.com/x.png", f"http://127.0.0.1:{other}/x.png", f"http://localhost:{port}/x.png"]
    page_html = PAGE.format(
        local=local, away="https://example.com/x.txt", away_images="".join(f'<img src="{url}">' for url in away)
    )
    context = browser.new_context(**browser_context_args)
    try:
        page = context.new_page()
        guard = Guard(page, site_url)
        page.route(site_url + "guard.html", lambda route: route.fulfill(content_type="text/html", body=page_html))
        page.goto(site_url + "guard.html")
        assert page.evaluate("() => window.fetched") == ["blob", "<!doctype html>", "refused"]
        # the same host on another port, or by another name, is elsewhere too
        assert sorted(guard.outside) == sorted([*away, "https://example.com/x.txt"])
        assert local not in "".join(guard.failed)
        guard.outside.clear()
        guard.errors.clear(), guard.failed.clear()  # what was refused on purpose
        guard.check()
    finally:
        context.close()
