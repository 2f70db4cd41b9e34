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
    (root || document).querySelectorAll(BOXES).forEach(function (box) {
      const ours = box.hasAttribute("data-ex-scroller");
      const scrolls = box.scrollWidth > box.clientWidth + 1 && !box.querySelector(FOCUSABLE);
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
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", soon);
  else soon();
})();
