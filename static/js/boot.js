/* Boot: draw every figure from its build-time scene at once, then start the engine. */
(function () {
  "use strict";
  const ex = window.explorables;

  function boot() {
    const roots = document.querySelectorAll("figure.ex-figure[data-figure]");
    const exercises = document.querySelector("section.ex-exercise");  // graded by the engine
    // Python starts loading before the first frames are drawn, not after.
    if (roots.length || exercises || (ex.bundle && ex.bundle.carried())) ex.client.start();
    roots.forEach(function (root) {
      const data = root.querySelector("script.ex-data");
      try {
        ex.figures[root.id] = new ex.Figure(root, JSON.parse(data.textContent));
      } catch (err) {
        root.append(ex.el("div", { class: "ex-error", role: "alert" }, ex.t("runtime.cannot_draw") + err.message));
        console.error("Explorables figure '" + root.id + "': " + err.message);
      }
    });
    // A page with no figure nor exercise needs no engine, except in a bundle, where the next lesson
    // is swapped into this same page and finds Python started.
    if (!roots.length && !exercises && !(ex.bundle && ex.bundle.carried())) {
      if (!ex.client.started) { ex._settleReady(true, {}); ex._readyWithoutEngine = true; }
      return;
    }
    if (!ex._watchingEngine) {  // once per visit: pages swapped in place share the engine
      ex._watchingEngine = true;
      ex.client.onStatus(function (status, detail) {
        Object.values(ex.figures).forEach(function (f) {
          if (status === "restarting") {  // the figure keeps its state; its requests wait
            f.root.classList.add("ex-restarting");
            f.badge.hidden = false;
            f.badge.textContent = ex.t("runtime.restarting");
            f.showError(ex.t("runtime.engine_stopped", { detail: detail }), false);
          } else if (status === "live") {
            f.root.classList.remove("ex-restarting");
            f.badge.hidden = true;
            f.badge.textContent = "";
            f.errorEl.hidden = true;
          } else if (status === "dead") {
            f.root.classList.remove("ex-restarting");
            f.fail(detail, ex.t("runtime.stopped_working"));
          }
        });
      });
    }
    ex.client.start();
    ex.ready.then(
      function () {  // a page swapped in after the engine was given up fails at once
        Object.values(ex.figures).forEach(function (f) {
          if (ex.client.dead) f.fail(ex.client.dead, ex.t("runtime.stopped_working")); else f.setLive();
        });
      },
      function (err) { Object.values(ex.figures).forEach(function (f) { f.fail(err); }); }
    );
  }

  ex.boot = boot;  // a page whose content is swapped in place draws its figures again
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
