"""The browser tests wait as long as a loaded machine needs (conftest.py): every context
gets generous default timeouts, and no wait gets less than WAIT_FLOOR, so a test fails
only when what it waits for never comes, not when the machine is busy."""
from __future__ import annotations

import pytest
from conftest import ACTION_TIMEOUT, NAVIGATION_TIMEOUT, WAIT_FLOOR

# done three times later than each wait below asks, unfloored, to be waited for
LATE = "<!doctype html><title>late</title><script>setTimeout(() => { window.done = true; }, 600)</script>"


def settings(context) -> tuple[float, float]:
    timeouts = context._impl_obj._timeout_settings
    return timeouts.timeout(None), timeouts.navigation_timeout(None)


@pytest.mark.parametrize("opened", ["fixture", "new_context", "new_page"])
def test_every_context_gets_the_generous_defaults(browser, page, opened):
    if opened == "fixture":
        context, close = page.context, False
    elif opened == "new_context":
        context, close = browser.new_context(), True
    else:
        context, close = browser.new_page().context, True
    try:
        assert settings(context) == (ACTION_TIMEOUT, NAVIGATION_TIMEOUT)
    finally:
        if close:
            context.close()


@pytest.mark.parametrize("wait", ["function", "selector", "locator"])
def test_a_short_timeout_a_test_gave_is_raised_to_the_floor(page, wait):
    assert WAIT_FLOOR >= 30_000
    page.set_content(LATE.replace("window.done = true;", "window.done = true; document.body.append(Object.assign("
                                  "document.createElement('p'), {id: 'late', textContent: 'late'}));"))
    if wait == "function":
        page.wait_for_function("() => window.done === true", timeout=200)  # comes after 0.6 s
    elif wait == "selector":
        page.wait_for_selector("#late", timeout=200)
    else:
        page.locator("#late").wait_for(timeout=200)
    assert page.evaluate("() => window.done") is True
