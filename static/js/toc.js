/* The table of contents (site_builder/toc.py): open beside the text on wide screens,
   folded at the top on phones, and the section being read marked (aria-current) as the
   reader scrolls. Attaches on every page mount (pages.js) and lets go on unmount.
   Also folds a sectioned site's navigation on phones (fold). */
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
    const links = Array.from(nav.querySelectorAll("a[href^='#']"));
    const targets = links.map(function (a) {
      return document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
    });
    const media = window.matchMedia(WIDE);
    function fit() { details.open = media.matches; }
    fit();
    let frame = 0;
    function mark() {
      frame = 0;
      const line = window.innerHeight * 0.25;
      let current = -1;
      targets.forEach(function (el, i) { if (el && el.getBoundingClientRect().top <= line) current = i; });
      // at the very bottom, the last section is the one being read
      if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2) current = targets.length - 1;
      links.forEach(function (a, i) {
        if (i === current) a.setAttribute("aria-current", "location");
        else a.removeAttribute("aria-current");
      });
    }
    // (not before the first mark: measuring the headings of parts not laid out yet would
    // lay them all out at once, as a phone's first resize did)
    let marked = false;
    function onScroll() { if (!frame && marked) frame = requestAnimationFrame(mark); }
    function keep() { if (media.matches && !details.open) details.open = true; }  // wide: always open
    function onClick(event) {
      if (event.target.closest("a") && !media.matches) details.open = false;  // phones: fold after choosing
    }
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll);
    media.addEventListener("change", fit);
    nav.addEventListener("click", onClick);
    details.addEventListener("toggle", keep);
    // The first mark waits until the page has been laid out and painted, its parts too
    // (parts.js): measuring the headings now would lay out the whole lesson at once.
    let firstTimer = 0;
    let firstFrame = 0;
    const cancelParts = ex.parts.then(function () {
      firstFrame = requestAnimationFrame(function () { firstTimer = setTimeout(function () { marked = true; mark(); }, 0); });
    });
    detach = function () {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onScroll);
      media.removeEventListener("change", fit);
      if (frame) cancelAnimationFrame(frame);
      cancelParts();
      cancelAnimationFrame(firstFrame);
      clearTimeout(firstTimer);
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
