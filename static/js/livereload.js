/* Development only (explorables serve): reload the page after each successful rebuild.
   The event stream lives beside the site's root, found from the assets folder, so the
   preview works at any depth and under any path. */
(function () {
  "use strict";
  if (!window.EventSource) return;
  const assets = new URL(document.body.dataset.assets || "assets/", location.href);
  const source = new EventSource(new URL("../__livereload", assets).href);
  source.onmessage = function (event) { if (event.data === "reload") location.reload(); };
})();
