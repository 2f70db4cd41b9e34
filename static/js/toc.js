/* The table of contents (site_builder/toc.py): open beside the text on wide screens,
   folded at the top on phones. Attaches on every page mount (pages.js) and lets go on
   unmount. Also folds a sectioned site's navigation on phones (fold). Part of the first
   frame: a contents folded or opened after it would move the text. The section being
   read is marked as the reader scrolls by js/toc-mark.js, in js/later.js. */
(function () {
  "use strict";
  const ex = window.explorables = window.explorables || {};
  const WIDE = "(min-width: 64rem)";
  let detach = null;

  function attach(root) {
    if (detach) detach();
    const nav = root.querySelector(".ex-toc");
    if (!nav) return;
    const details = nav.querySelector("details");
    const media = window.matchMedia(WIDE);
    function fit() { details.open = media.matches; }
    fit();
    function keep() { if (media.matches && !details.open) details.open = true; }  // wide: always open
    function onClick(event) {
      if (event.target.closest("a") && !media.matches) details.open = false;  // phones: fold after choosing
    }
    media.addEventListener("change", fit);
    nav.addEventListener("click", onClick);
    details.addEventListener("toggle", keep);
    detach = function () {
      media.removeEventListener("change", fit);
      detach = null;
    };
  }

  /* A site with sections: its list in the header folds under "Lessons" on phones and
     stands open on wider screens (the page's header is swapped with each page). */
  const NAV_WIDE = "(min-width: 40rem)";
  let navMedia = null;
  function fold(root) {
    const details = root.querySelector(".ex-nav-fold");
    if (!details) return;
    if (!navMedia) {
      navMedia = window.matchMedia(NAV_WIDE);
      navMedia.addEventListener("change", function () { fold(document.body); });
    }
    details.open = navMedia.matches;
  }

  ex.toc = { attach: attach, fold: fold };
  if (ex.pages && ex.pages.on) {
    ex.pages.on("mount", attach);
    ex.pages.on("mount", fold);
    ex.pages.on("unmount", function () { if (detach) detach(); });
  }
  document.addEventListener("DOMContentLoaded", function () { attach(document.body); fold(document.body); });
})();
