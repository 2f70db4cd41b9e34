/* Development only (explorables serve): after each rebuild, update the open page.
   - "content": a lesson or template changed: its content is swapped in place, and
     Python keeps running (ex.pages.reload);
   - "reload": the engine or the runtime changed: the page loads anew;
   - "error": the build failed: its message (file:line:col) shows over the page until
     the next good build.
   The event stream lives beside the site's root, found from the assets folder. */
(function () {
  "use strict";
  if (!window.EventSource) return;
  let overlay = null;  // (window.explorables is read when a message comes: this script runs before the deferred ones)

  function clear() { if (overlay) { overlay.remove(); overlay = null; } }

  function show(text) {
    const ex = window.explorables;
    if (!ex || !ex.el) {  // the error came with the stream's opening, before the runtime ran
      document.addEventListener("DOMContentLoaded", function () { show(text); }, { once: true });
      return;
    }
    clear();
    overlay = ex.el("div", { class: "ex-build-error", role: "alert" },
      ex.el("p", { class: "ex-build-error-title" }, ex.t("runtime.build_error")),
      ex.el("pre", null, text),
      ex.el("button", { type: "button", class: "ex-button", onclick: clear }, ex.t("runtime.hide")));
    document.body.append(overlay);
  }

  function listen() {
    const assets = new URL(document.body.dataset.assets || "_explorables/", location.href);
    const source = new EventSource(new URL("../__livereload", assets).href);
    source.onopen = function () { document.documentElement.dataset.livereload = "open"; };
    source.onmessage = function (event) {
      let msg;
      try { msg = JSON.parse(event.data); } catch (err) { msg = { kind: "reload" }; }
      if (msg.kind === "error") { show(msg.text || window.explorables.t("runtime.build_failed")); return; }
      clear();
      const ex = window.explorables;
      if (msg.kind === "content" && ex && ex.pages) ex.pages.reload();
      else location.reload();
    };
  }
  listen();
})();
