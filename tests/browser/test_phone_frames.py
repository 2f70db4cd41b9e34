"""A phone's frames as a figure comes (issue 39): the first panel of a figure the page
draws as it loads is styled and laid out in a frame of its own, before the figure's
controls are made, so that neither frame is a long task on a phone's CPU."""

from __future__ import annotations

from conftest import Guard
from helpers import hold_python

PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
# the heatmap figure's cells panel, watched from the moment it is made: how many controls
# the figure had when the browser first laid the panel out (a ResizeObserver is told in
# the frame's rendering, after its animation-frame callbacks and its layout), and the
# panel's height then; and when its controls came
RECORD = """window.__firstLayout = null; window.__controlsAt = null;
new MutationObserver(() => {
  const figure = document.querySelector("figure#table");
  const panel = figure && figure.querySelector(".ex-cells-panel");
  const controls = () => figure.querySelectorAll(".ex-side [data-key]").length;
  if (panel && !panel.__watched) {
    panel.__watched = true;
    const seen = new ResizeObserver(entries => {
      seen.disconnect();
      window.__firstLayout = { controls: controls(), height: entries[0].contentRect.height,
                               at: performance.now() };
    });
    seen.observe(panel);
  }
  if (figure && window.__controlsAt === null && controls() > 0) window.__controlsAt = performance.now();
}).observe(document, { subtree: true, childList: true });"""


def test_the_first_panel_is_laid_out_in_a_frame_before_the_controls_come(browser, site_url):
    """The heatmap's table (144 cells) is laid out, whole, in a frame where the figure has
    no control yet; its controls come in a later frame, and then the whole figure shows."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    guard = Guard(page, site_url)
    held = hold_python(page)  # Python held back: the figure is drawn from its first frame alone
    try:
        page.add_init_script(RECORD)
        page.goto(site_url + "attention-heatmap.html")
        page.wait_for_function("() => window.__controlsAt !== null && window.__firstLayout !== null")
        page.wait_for_function("() => !document.querySelector('figure#table .ex-held')")
        first = page.evaluate("() => window.__firstLayout")
        assert first["controls"] == 0, first
        rows = page.evaluate("() => document.querySelector('figure#table .ex-cells-panel').querySelectorAll('tbody tr').length")
        assert rows == 12
        assert first["height"] > 12 * 20, first  # every row laid out in that frame
        assert page.evaluate("() => window.__controlsAt") > first["at"]
        scene = page.evaluate("() => window.explorables.figures.table.scene")
        controls = page.locator("figure#table .ex-side [data-key]")
        assert controls.count() == len(scene["controls"])
        assert page.locator("figure#table .ex-panels > .ex-panel").count() == len(scene["panels"])
        guard.check()
    finally:
        for route in held:
            route.abort()
        context.close()
