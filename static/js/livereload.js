/* Development only (explorables serve): reload the page after each successful rebuild. */
(function () {
  "use strict";
  if (!window.EventSource) return;
  const source = new EventSource("/__livereload");
  source.onmessage = function (event) { if (event.data === "reload") location.reload(); };
})();
