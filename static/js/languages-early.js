/* A site in several languages, before js/languages.js has come. languages.js is not part
   of the first frame: it comes first in js/later.js. A reader who picks a language in the
   switch before then waits for it, so that the page in that language is swapped in with
   its words (or, if it never comes, is loaded as any link is); a page swapped in
   meanwhile (the next lesson) has its head set by languages.js once it comes. */
(function () {
  "use strict";
  const ex = window.explorables;
  if (!ex || !ex.pages) return;
  ex.pages.on("head", function (html) { if (!ex.languages) ex.languagesHead = html; });
  document.addEventListener("click", function (event) {
    if (ex.languages || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest && event.target.closest(".ex-languages a[href]");
    if (!link) return;
    event.preventDefault();
    event.stopPropagation();  // (js/pages.js would swap it in without its words)
    let tries = 0;
    (function go() {
      if (ex.languages) ex.pages.go(link.href, { push: true });
      else if (++tries > 100) location.assign(link.href);
      else setTimeout(go, 50);
    })();
  }, true);
})();
