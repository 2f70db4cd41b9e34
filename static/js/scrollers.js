/* A box that scrolls sideways (a wide formula, table or grid on a narrow screen) takes
   the keyboard's focus, so a reader without a mouse can scroll it too (WCAG 2.1.1); a
   box that fits, or one whose content already takes the focus, adds no Tab stop.
   Checked when a page mounts (pages.js), when a figure redraws and when the window's
   width changes. */
(function () {
  "use strict";
  const ex = window.explorables = window.explorables || {};
  const BOXES = ".ex-math, .ex-scroll, math:not([display=block]), " +
                ".ex-lesson table:not(.ex-cells):not(.ex-grid):not(.ex-matrix)";
  const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";

  function check(root) {
    // every box measured first, then changed: a change between two measures would lay
    // the page out again for the second
    // (a part of a lesson not laid out yet (parts.js) is left for when it is: measuring
    // it now would lay it out; the print page has no parts.js and lays out its parts
    // when they are measured)
    const waiting = ex.parts && document.querySelector(".ex-part:not(.ex-shown)");  // once the page is whole, none
    const boxes = Array.from((root || document).querySelectorAll(BOXES)).filter(function (box) {
      return !waiting || !box.closest(".ex-part:not(.ex-shown)");
    });
    const scrolling = boxes.map(function (box) { return box.scrollWidth > box.clientWidth + 1; });
    boxes.forEach(function (box, i) {
      const ours = box.hasAttribute("data-ex-scroller");
      const scrolls = scrolling[i] && !box.querySelector(FOCUSABLE);
      if (scrolls && !ours && !box.hasAttribute("tabindex")) {
        box.tabIndex = 0;
        box.setAttribute("data-ex-scroller", "");
      } else if (!scrolls && ours) {
        box.removeAttribute("tabindex");
        box.removeAttribute("data-ex-scroller");
      }
    });
  }

  /* Checked after the next frame is painted, with the layout that frame made: checking
     before it (in the frame's callbacks, or as the page mounts) lays out the whole page
     then, in the same task as the figures' drawing. */
  let frame = 0;
  function soon() {
    if (frame) return;
    frame = -1;
    requestAnimationFrame(function () { setTimeout(function () { frame = 0; check(document); }, 0); });
  }
  ex.scrollers = { check: check };
  window.addEventListener("resize", soon);
  document.addEventListener("explorables:change", soon);
  if (ex.pages && ex.pages.on) ex.pages.on("mount", soon);
  // once the page's parts are laid out (parts.js; the print page has none of it)
  function first() { if (ex.parts) ex.parts.then(soon); else soon(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", first);
  else first();
})();
