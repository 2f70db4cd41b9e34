/* The published site kept in the reader's browser (the service worker, sw.js at the
   site's root: static/js/serviceworker.js). Part of js/later.js.

   - Registered once the page's first lesson is live and the page is idle, so that
     nothing of the first visit waits for it; then the worker is asked for the whole site,
     and once it has it the footer says "Available offline". A reader who saves data
     (Save-Data, prefers-reduced-data) asks for nothing: the worker keeps only the files
     they open.
   - Only on a built site served over http(s) whose pages name the worker (its asset map
     has "offline"): not with `offline: false`, not in `explorables serve`'s preview, not
     in a bundle, not from file://.
   - A new deploy: the new worker takes the new version's files while this page keeps
     running on the old; then a note says a new version is ready, with a reload button,
     rather than swapping anything under the reader. */
(function () {
  "use strict";
  const ex = window.explorables;
  const workers = navigator.serviceWorker;
  if (!workers || !/^https?:$/.test(location.protocol) || ex.bundle || !ex.assetNames.offline) return;

  const state = { whole: false, next: null, asked: false, shown: false, words: null };

  /* The notes' words come with the worker's answer (they are not in the page's words
     block, which every page carries): in the page's language, else its base language's. */
  function say(key) {
    const words = state.words || {};
    const language = ex.words.language || "en";
    const mine = words[language] || words[language.split("-")[0]] || words.en || {};
    return mine[key] || key;
  }

  function saving() {
    return ex.saving() || !!(window.matchMedia && window.matchMedia("(prefers-reduced-data: reduce)").matches);
  }

  /* The notes, put back after each page swap (the swap replaces the body). */
  function show() {
    if (!state.words) return;  // until the worker has answered
    const footer = document.querySelector(".ex-footer");
    if (state.whole && footer && !footer.querySelector(".ex-offline")) {
      footer.append(ex.el("p", { class: "ex-offline" }, say("page.offline_ready")));
    }
    if (state.next && !document.querySelector(".ex-update")) {
      const button = ex.el("button", { type: "button", class: "ex-update-reload", onclick: reload },
        say("page.offline_reload"));
      document.body.append(ex.el("div", { class: "ex-update", role: "region", "aria-label": say("page.offline_update") },
        ex.el("p", null, say("page.offline_update")), button));
      if (!state.shown) ex.pages.announce(say("page.offline_update"));
      state.shown = true;
    }
  }

  /* The reader asks for the new version: it takes over, then this page loads again from it. */
  function reload() {
    state.asked = true;
    if (state.next && state.next !== true && state.next.state === "installed") state.next.postMessage({ type: "take-over" });
    else location.reload();
  }

  function offer(worker) {
    state.next = worker || true;
    show();
  }

  /* A worker installed beside the one this page runs on is the new version, waiting. */
  function watch(registration) {
    function follow(worker) {
      if (!worker) return;
      if (worker.state === "installed") { if (workers.controller) offer(worker); return; }
      worker.addEventListener("statechange", function () {
        if (worker.state === "installed" && workers.controller) offer(worker);
      });
    }
    follow(registration.waiting || registration.installing);
    registration.addEventListener("updatefound", function () { follow(registration.installing); });
    // a page left open for long looks for a new deploy when the reader comes back to it
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") registration.update().catch(function () { /* offline */ });
    });
  }

  workers.addEventListener("message", function (event) {
    const data = event.data || {};
    if (data.type === "offline") {
      state.words = data.words || state.words;
      state.whole = state.whole || !!data.whole;
      show();
    }
  });
  let controlled = !!workers.controller;
  workers.addEventListener("controllerchange", function () {
    if (state.asked) { location.reload(); return; }
    if (controlled) offer(null);  // another page took the new version: this one still runs the old
    controlled = true;
  });

  function start() {
    const script = ex.asset("offline");
    workers.register(script, { scope: new URL("./", script).href }).then(function (registration) {
      if (!registration) return null;  // refused without an error (a browser's automation may)
      watch(registration);
      return workers.ready;
    }).then(function (registration) {
      if (registration && registration.active) registration.active.postMessage({ type: "cache", whole: !saving() });
    }).catch(function (err) {
      // the site works as before, from the network (a private window may refuse workers)
      console.info("Explorables: this site is not kept offline:", err && err.message);
    });
  }

  ex.pages.on("mount", show);
  // once the first lesson is live (or has failed: its files are cached all the same), when
  // idle; a reader who saves data may never start Python: for them, once the page is idle
  const idle = function () {
    if (window.requestIdleCallback) window.requestIdleCallback(start, { timeout: 2000 });
    else setTimeout(start, 0);
  };
  if (saving()) idle();
  else ex.ready.then(idle, idle);
})();
