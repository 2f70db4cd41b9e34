/* The page's parts (div.ex-part: an h2 and what follows it, site_builder/toc.py) start
   with `content-visibility: auto` (explorables.css): the first frame lays out the first
   screen, not the whole lesson, whose first layout (text shaped and formulas set for the
   first time) is the longest task of a page's start. After that frame the parts are laid
   out in order, a few milliseconds a task while the page is idle (a long part a block at
   a time: next), and are then blocks like any other (`.ex-shown`): once Python is live
   the rest follow without waiting for idle moments, and the page is soon whole, as it
   would be without parts.

   A page opened at an anchor, reloaded or reached through the history, shows its parts
   at once: the scroll position it lands on must be measured on the real heights, not on
   the parts' estimated ones. So does a page swapped in place (pages.js) that lands on
   an anchor or a kept scroll position; one that lands at its top (the next lesson) is
   shown part by part as a first page is: moving the focus to its heading would
   otherwise lay out the whole lesson in the task of the swap.

   What measures the whole page (the table of contents' mark, the scroller check) waits
   for them: `ex.parts.then(fn)` calls fn once every part is shown (at once if none is
   waiting) and returns a function that cancels it. */
(function () {
  "use strict";
  const ex = window.explorables;
  let pending = [];  // parts not shown yet, in the page's order
  let waiting = [];  // functions to call once they are
  let idle = 0;
  let soon = 0;  // once Python is live: the next part in the next task, idle or not

  function flush() {
    waiting.splice(0).forEach(function (fn) { fn(); });
  }

  function showAll() {
    if (idle) { window.cancelIdleCallback(idle); idle = 0; }
    if (soon) { clearTimeout(soon); soon = 0; }
    pending.splice(0).forEach(function (part) { part.classList.remove("ex-opening"); part.classList.add("ex-shown"); });
    flush();
  }

  let hurry = false;  // Python is live: no more waiting for idle moments
  function schedule() {
    if (idle || soon || !pending.length) return;
    if (hurry) soon = setTimeout(next, 0);
    else idle = window.requestIdleCallback(next, { timeout: 250 });
  }

  /* The parts waiting, laid out in order in this task, for a few milliseconds. A part
     the browser draws already (near the view) is only marked shown; one it skips (further
     down) is laid out a block at a time: while it is `.ex-opening` its blocks not laid out
     yet skip their layout in turn (explorables.css), so that a long part, its formulas and
     tables, is not one task of a few hundred milliseconds on a phone. Off screen, nothing
     the reader sees moves. */
  const BUDGET = 12;  // ms of a task
  const WAIT = 20, WAITS = 25;  // ms, and times in a row (half a second), while a figure waits for the engine (figure-engine.js answering)
  let waited = 0;
  function next() {
    idle = 0;
    soon = 0;
    // a figure's answer first (for a while: a reader dragging on and on holds no part back)
    if (ex.answering() && waited++ < WAITS) { soon = setTimeout(next, WAIT); return; }
    waited = 0;
    const until = performance.now() + BUDGET;
    while (pending.length && performance.now() < until) {
      const part = pending[0];
      if (!part.isConnected || layOut(part, until)) pending.shift();
    }
    if (pending.length) schedule();
    else flush();
  }

  /* Lay out `part`, or as much of it as fits before `until`: whether it is whole now. */
  function layOut(part, until) {
    if (!part.classList.contains("ex-opening")) {
      const first = part.firstElementChild;
      if (!first || !first.checkVisibility || first.checkVisibility({ contentVisibilityAuto: true })) {
        part.classList.add("ex-shown");
        void part.offsetHeight;  // its layout now, in this task, not with the next part's
        return true;
      }
      part.classList.add("ex-opening");
    }
    for (const block of part.children) {
      if (block.classList.contains("ex-laid")) continue;
      if (performance.now() >= until) return false;
      block.classList.add("ex-laid");
      void block.offsetHeight;
    }
    part.classList.replace("ex-opening", "ex-shown");
    for (const block of Array.from(part.querySelectorAll(":scope > .ex-laid"))) block.classList.remove("ex-laid");
    return true;
  }

  /* Whether the page the browser loaded may be laid out and drawn bit by bit: not when
     it was opened at an anchor, reloaded or reached through the history, where the
     browser scrolls to a place measured on the page as it is then. */
  function gradually() {
    if (!window.requestIdleCallback || location.hash) return false;
    const entry = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    return !entry || entry.type === "navigate";
  }

  /* A page opened at an anchor: the browser keeps the anchor in view while the page
     loads, but the figures' planes take their height in the frame after the figures
     are drawn, which may come after the load and push the anchor down. A page reloaded,
     or loaded again through the history, goes back where the reader was (pages.js keeps
     the scroll position as the page is left: ex.pages.left). Until the reader
     moves, or another page is swapped in, ``put`` is done again once the figures are
     laid out, and once Python is live. */
  function keep(put) {
    const page = ex.pages.current;
    let moved = false;
    ["wheel", "touchstart", "keydown", "pointerdown"].forEach(function (type) {
      window.addEventListener(type, function () { moved = true; }, { once: true, passive: true, capture: true });
    });
    const land = function () { if (!moved && ex.pages.current === page) put(); };
    land();
    requestAnimationFrame(function () { ex.afterFrame(land); });
    ex.ready.then(land, land);
  }

  function keepPlace() {
    const entry = performance.getEntriesByType ? performance.getEntriesByType("navigation")[0] : null;
    const y = entry && entry.type !== "navigate" ? ex.pages.left() : undefined;
    if (y) {
      keep(function () { window.scrollTo(0, y); });
      return;
    }
    const hash = location.hash;
    let target = null;
    try { target = hash && document.getElementById(decodeURIComponent(hash.slice(1))); } catch { return; }
    if (target) keep(function () { if (location.hash === hash && target.isConnected) target.scrollIntoView(); });
  }

  /* The parts of the page now in the document: shown gradually after the first frame
     (`how`: "first" for the page the browser loaded, opened plainly; "top" for a page
     swapped in that lands at its top), or at once. */
  function start(root, how) {
    showAll();
    pending = Array.from(root.querySelectorAll(".ex-part:not(.ex-shown)"));
    if (!pending.length) { flush(); return; }
    if (!window.requestIdleCallback || !(how === "top" || (how === "first" && gradually()))) { showAll(); return; }
    const mine = pending;
    hurry = false;
    ex.afterFrame(function () { if (pending === mine) schedule(); });
    // once Python is live the page is made whole soon, whatever the idle time is: a part
    // a task (all in one, on a phone, was a task of hundreds of milliseconds as the
    // figures went live), unless another page has been swapped in meanwhile (it is shown
    // as its own landing says)
    const whole = function () { if (pending === mine) { hurry = true; schedule(); } };
    if (how === "first") ex.ready.then(whole, whole);
  }

  ex.parts = {
    then: function (fn) {
      if (!pending.length) { fn(); return function () {}; }
      waiting.push(fn);
      return function () { waiting = waiting.filter(function (other) { return other !== fn; }); };
    },
    showAll: showAll,
    gradually: gradually,
  };

  ex.pages.on("mount", function (root) { start(root, ex.pages.landing === "top" ? "top" : null); });
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () { start(document.body, "first"); keepPlace(); });
  } else {
    start(document.body, "first");
    keepPlace();
  }
})();
