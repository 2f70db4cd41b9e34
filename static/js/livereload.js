/* Development only (explorables serve): after each rebuild, update the open page.
   - "content": a lesson or template changed: its content is swapped in place, and
     Python keeps running (ex.pages.reload);
   - "reload": the engine or the runtime changed: the page loads anew;
   - "error": the build failed: its message (file:line:col) shows over the page until
     the next good build.
   The event stream lives beside the site's root, found from the assets folder. */
(function () {
  "use strict";
  // a preview: the figures show their author the file and line of an error (figure-engine.js)
  (window.explorables = window.explorables || {}).preview = true;
  if (!window.EventSource) return;
  let overlay = null;  // (window.explorables is read when a message comes: this script runs before the deferred ones)

  function clear() { if (overlay) { overlay.remove(); overlay = null; } }

  /* Where the focus is, so that an edit swapped in puts it back on the same control (its
     elements are new): its figure's id and the control's name, or its place among what
     takes focus there. */
  const FOCUSABLE = "a[href], button, input, select, textarea, summary, [tabindex]";
  function focusPlace() {
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const figure = el.closest("figure[id]");
    const all = Array.from((figure || document.body).querySelectorAll(FOCUSABLE));
    const index = all.indexOf(el);
    return index < 0 ? null : { figure: figure ? figure.id : "", name: el.getAttribute("name") || "", index: index };
  }
  function refocus(place) {
    const scope = place && (place.figure ? document.getElementById(place.figure) : document.body);
    if (!scope) return;
    const all = Array.from(scope.querySelectorAll(FOCUSABLE));
    const el = (place.name && all.find(function (e) { return e.getAttribute("name") === place.name; })) ||
      all[place.index];
    if (el) el.focus({ preventScroll: true });
  }

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
      try { msg = JSON.parse(event.data); } catch { msg = { kind: "reload" }; }
      if (msg.kind === "error") { show(msg.text || window.explorables.t("runtime.build_failed")); return; }
      clear();
      const ex = window.explorables;
      if (msg.kind === "content" && ex && ex.pages) {
        const place = focusPlace();
        ex.pages.reload().then(function (swapped) { if (swapped) refocus(place); });
      }
      else location.reload();
    };
  }
  listen();
})();
