/* The section being read, marked in the table of contents (aria-current) as the reader
   scrolls. Loaded after the first frame (js/later.js): it marks the page in the document
   now, then every page mounted (pages.js), and lets go on unmount. */
(function () {
  "use strict";
  const ex = window.explorables;
  let detach = null;

  function attach(root) {
    if (detach) detach();
    const nav = root.querySelector(".ex-toc");
    if (!nav) return;
    const links = Array.from(nav.querySelectorAll("a[href^='#']"));
    const targets = links.map(function (a) {
      return document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
    });
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
    // Nothing is measured before the page has been laid out and painted, its parts too
    // (parts.js): measuring the headings of parts not laid out yet would lay the whole
    // lesson out at once (as a phone's first resize did).
    let marked = false;
    function onScroll() { if (!frame && marked) frame = requestAnimationFrame(mark); }
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("resize", onScroll);
    let cancelFirst = function () {};
    const cancelParts = ex.parts.then(function () {
      cancelFirst = ex.afterFrame(function () { marked = true; mark(); });
    });
    detach = function () {
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("resize", onScroll);
      if (frame) cancelAnimationFrame(frame);
      cancelParts();
      cancelFirst();
      detach = null;
    };
  }

  if (ex.pages && ex.pages.on) {
    ex.pages.on("mount", attach);
    ex.pages.on("unmount", function () { if (detach) detach(); });
  }
  attach(document.body);
})();
