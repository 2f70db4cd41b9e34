/* A box that scrolls sideways (a wide formula, table or grid on a narrow screen) takes
   the keyboard's focus, so a reader without a mouse can scroll it too (WCAG 2.1.1); a
   box that fits, or one whose content already takes the focus, adds no Tab stop.

   Measured when the browser has laid the box out anyway, never by asking for a layout:
   a ResizeObserver watches each box and its content (a figure's table redrawn wider, a
   formula set in its font once it loads), and its callbacks come after the browser's
   own layout of the frame, when reading a box's widths costs nothing. (Read from a
   task instead, the widths laid the whole page out again there, a long task on a phone
   once the lesson was whole.) A box not laid out yet (a part of the lesson the browser
   skips, an answer not opened) is measured when it is. New boxes are looked for when a
   page mounts (pages.js) and when a figure redraws. */
(function () {
  "use strict";
  const ex = window.explorables = window.explorables || {};
  const BOXES = ".ex-math, .ex-scroll, math:not([display=block]), " +
                ".ex-lesson table:not(.ex-cells):not(.ex-grid):not(.ex-matrix)";
  const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  /* Give `box` a Tab stop or take it away, from its widths (`scrolls`). */
  function mark(box, scrolls) {
    const ours = box.hasAttribute("data-ex-scroller");
    const stop = scrolls && !box.querySelector(FOCUSABLE);
    if (stop && !ours && !box.hasAttribute("tabindex")) {
      box.tabIndex = 0;
      box.setAttribute("data-ex-scroller", "");
    } else if (!stop && ours) {
      box.removeAttribute("tabindex");
      box.removeAttribute("data-ex-scroller");
    }
  }

  /* Every box of `boxes` measured first, then marked: a change between two measures
     would lay the page out again for the second. */
  function measure(boxes) {
    const scrolling = boxes.map(function (box) { return box.scrollWidth > box.clientWidth + 1; });
    boxes.forEach(function (box, i) { mark(box, scrolling[i]); });
  }

  let boxOf = new WeakMap();  // a box, or its content -> the box
  let watched = new WeakSet();  // boxes observed already
  const observer = window.ResizeObserver ? new ResizeObserver(function (entries) {
    const boxes = [];
    entries.forEach(function (entry) {
      const box = boxOf.get(entry.target);
      // (a box or content with no size is not laid out: it is measured when it is)
      const laidOut = entry.contentRect.width > 0 || entry.contentRect.height > 0;
      if (box && box.isConnected && laidOut && boxes.indexOf(box) < 0) boxes.push(box);
    });
    measure(boxes);
  }) : null;

  /* Watch the boxes under `root` not watched yet; DOM queries only, no layout. */
  function watch(root) {
    const boxes = Array.from((root || document).querySelectorAll(BOXES));
    if (root && root.matches && root.matches(BOXES)) boxes.push(root);
    boxes.forEach(function (box) {
      if (watched.has(box)) return;
      watched.add(box);
      boxOf.set(box, box);
      observer.observe(box);
      const content = box.firstElementChild;
      if (content && !boxOf.has(content)) {
        boxOf.set(content, box);
        observer.observe(content);
      }
    });
  }

  /* Without a ResizeObserver: every box measured after the next frame is painted. */
  let frame = 0;
  function soon() {
    if (frame) return;
    frame = -1;
    requestAnimationFrame(function () {
      setTimeout(function () { frame = 0; measure(Array.from(document.querySelectorAll(BOXES))); }, 0);
    });
  }

  /* The boxes under `root` (default: the document) measured now; a test's or an
     author's page's own call (it may lay the page out). */
  ex.scrollers = { check: function (root) { measure(Array.from((root || document).querySelectorAll(BOXES))); } };
  const look = observer ? function (event) { watch(event && event.target && event.target.querySelectorAll ? event.target : null); }
    : soon;
  if (!observer) window.addEventListener("resize", soon);
  document.addEventListener("explorables:change", look);
  if (ex.pages && ex.pages.on) {
    ex.pages.on("mount", function () { if (observer) watch(null); else soon(); });
    // the page going: its boxes are let go (an observer holds what it observes)
    ex.pages.on("unmount", function () {
      if (!observer) return;
      observer.disconnect();
      boxOf = new WeakMap();
      watched = new WeakSet();
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { look(null); });
  else look(null);
})();
