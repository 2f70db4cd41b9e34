/* Offline bundles: Python from the files the bundle carries, and lessons swapped in place.

   A bundle (explorables bundle) is a built site that also carries, as classic scripts,
   every page's content (bundle/pages.js, loaded with the page), the Pyodide files and
   the engine archive (loaded once, when the first figure starts the engine). Opened
   from disk, a page may not fetch and may not start module workers, so:
   - the engine's worker is made from a Blob holding worker.js, and given the files;
   - a link to another page of the bundle swaps the page's content in place instead of
     loading a new document, so Python starts once per opened bundle and keeps running.
   Back and forward walk the pages swapped in; each figure keeps the state the reader
   left it in. Served over http, a bundle folder works the same way. */
(function () {
  "use strict";
  const ex = window.explorables;
  const carried = window.explorablesBundle || null;
  const saved = {};  // page name -> {figure id: {state, scene}}
  let loading = null;
  let current = null;

  function assetsURL(path) {
    return new URL(path, new URL(document.body.dataset.assets || "assets/", location.href)).href;
  }

  /* A classic script, added to the page: the only way to read a file from disk. */
  function script(path) {
    return new Promise(function (resolve, reject) {
      const tag = document.createElement("script");
      tag.src = assetsURL(path);
      tag.onload = function () { resolve(); };
      tag.onerror = function () { reject(new Error("the bundle is missing " + path + "; unzip the whole bundle again")); };
      document.head.append(tag);
    });
  }

  function pageName(url) {
    const name = decodeURIComponent(new URL(url, location.href).pathname.split("/").pop() || "index.html");
    return name || "index.html";
  }

  function sameFolder(url) {
    const here = location.href.replace(/[#?].*$/, "").replace(/[^/]*$/, "");
    return url.replace(/[#?].*$/, "").replace(/[^/]*$/, "") === here;
  }

  ex.bundle = {
    carried: function () { return !!(carried && carried.pages); },

    /* The Pyodide files and the engine archive, read once per opened bundle. */
    load: function () {
      if (!loading) {
        loading = Promise.all([script("bundle/worker-source.js"), script("bundle/engine-data.js"),
                               script("bundle/pyodide-data.js")]).then(function () {
          return { pyodide: carried.pyodide, engine: carried.engine };
        });
      }
      return loading;
    },

    workerURL: function () {
      return URL.createObjectURL(new Blob([carried.workerSource], { type: "text/javascript" }));
    },

    /* Show the page ``name`` of the bundle in place of the current one. */
    show: function (name, hash, push) {
      const page = carried.pages[name];
      if (!page) return false;
      keep();
      current = name;
      document.title = page.title;
      document.body.innerHTML = page.body;
      if (push) history.pushState({ explorablesPage: name, hash: hash || "" }, "");
      if (ex.boot) ex.boot();
      restore(name);
      const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
      const heading = document.querySelector("main h1");
      if (target) {
        target.scrollIntoView();
      } else {
        window.scrollTo(0, 0);
      }
      const focus = target || heading;
      if (focus) {
        if (!focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
        focus.focus({ preventScroll: true });
      }
      return true;
    },

    page: function () { return current; },
  };

  /* The figures of the page being left: their states are kept, their timers stopped. */
  function keep() {
    if (!current) return;
    const states = (saved[current] = {});
    Object.keys(ex.figures).forEach(function (id) {
      const figure = ex.figures[id];
      states[id] = { state: figure.state, scene: figure.scene };
      Object.values(figure.controlViews || {}).forEach(function (view) { if (view.stop) view.stop(); });
    });
    ex.figures = {};
  }

  function restore(name) {
    const states = saved[name] || {};
    Object.keys(states).forEach(function (id) {
      const figure = ex.figures[id];
      if (!figure) return;
      figure.state = states[id].state;
      figure.render(states[id].scene);
    });
  }

  if (!ex.bundle.carried()) return;
  current = pageName(location.href);
  history.replaceState({ explorablesPage: current, hash: location.hash }, "");

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link || link.target || link.hasAttribute("download")) return;
    const url = new URL(link.getAttribute("href"), location.href);
    if (!sameFolder(url.href)) return;
    const name = pageName(url.href);
    if (name === current && url.hash) return;  // an anchor on this page: the browser scrolls
    if (!carried.pages[name]) return;
    event.preventDefault();
    ex.bundle.show(name, url.hash, true);
  });

  window.addEventListener("popstate", function (event) {
    const state = event.state;
    if (state && state.explorablesPage && state.explorablesPage !== current) {
      ex.bundle.show(state.explorablesPage, state.hash, false);
    }
  });
})();
