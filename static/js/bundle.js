/* Offline bundles: Python from the files the bundle carries, pages from its data.

   A bundle (explorables bundle) is a built site that also carries, as classic scripts,
   every page's content (bundle/pages.js, loaded with the page), the Pyodide files and
   the engine archive (loaded once, when the engine starts). Opened from disk, a page
   may not fetch and may not start module workers, so the engine's worker is made from a
   Blob holding worker.js and is given the files, and ex.pages (pages.js) swaps lessons
   in from the carried pages instead of fetching them: Python starts once per opened
   bundle. Served over http, a bundle folder works the same way. */
(function () {
  "use strict";
  const ex = window.explorables;
  const carried = window.explorablesBundle || null;
  let loading = null;

  /* A classic script, added to the page: the only way to read a file from disk. ``key``
     names it in the page's asset map. */
  function script(key) {
    return new Promise(function (resolve, reject) {
      const tag = document.createElement("script");
      tag.src = ex.asset(key);
      tag.onload = function () { resolve(); };
      tag.onerror = function () {
        reject(new Error(ex.t("runtime.bundle_missing", { file: ex.assetNames[key] })));
      };
      document.head.append(tag);
    });
  }

  /* The site's root: the folder above its assets (the page's own, as the bundle opened it). */
  function siteRoot() {
    return new URL("..", new URL(document.body.dataset.assets || "_explorables/", location.href));
  }

  /* A page's path from the site's root, as the bundle carries it: "basics/softmax.html". */
  function pageName(url) {
    const path = decodeURIComponent(new URL(url, location.href).pathname);
    const top = decodeURIComponent(siteRoot().pathname);
    if (path.indexOf(top) !== 0) return null;
    const name = path.slice(top.length);
    return !name || name.endsWith("/") ? name + "index.html" : name;
  }

  /* A page from a file:// bundle stays at the address the bundle was opened at, so its
     links and images, written from its own folder, are made absolute: a section's page
     shown from the bundle's index.html still reaches ../_explorables/ and its images. */
  function anchored(body, url) {
    const doc = new DOMParser().parseFromString("<body>" + body + "</body>", "text/html");
    ["href", "src"].forEach(function (name) {
      doc.body.querySelectorAll("[" + name + "]").forEach(function (el) {
        const value = el.getAttribute(name);
        if (!value || value.charAt(0) === "#" || /^[a-z][a-z0-9+.-]*:/i.test(value)) return;
        el.setAttribute(name, new URL(value, url).href);
      });
    });
    return doc.body.innerHTML;
  }

  ex.bundle = {
    carried: function () { return !!(carried && carried.pages); },

    /* The Pyodide files and the engine archive, read once per opened bundle. */
    load: function () {
      if (!loading) {
        loading = Promise.all([script("bundle-worker"), script("bundle-engine"), script("bundle-pyodide")]).then(function () {
          return { pyodide: carried.pyodide, engine: carried.engine };
        });
      }
      return loading;
    },

    workerURL: function () {
      return URL.createObjectURL(new Blob([carried.workerSource], { type: "text/javascript" }));
    },
  };

  if (ex.bundle.carried() && ex.pages) {
    ex.pages.source = function (url) {
      const name = pageName(url);
      const page = name === null || !Object.prototype.hasOwnProperty.call(carried.pages, name) ? null : carried.pages[name];
      if (!page) return Promise.resolve(null);
      const target = new URL(url, location.href).href;
      // From disk the address does not change: links are anchored to the page's folder.
      // Served, the address follows the page, and so do its assets' path.
      if (location.protocol === "file:") return Promise.resolve({ title: page.title, body: anchored(page.body, target), attrs: {} });
      return Promise.resolve({ title: page.title, body: page.body, attrs: { "data-assets": page.assets } });
    };
    if (location.protocol === "file:") {
      // The page's assets' path (data-assets), written from the folder of the page opened,
      // stays with every page shown: made absolute, it names the same folder whichever
      // page it is read against (js/progress.js reads it against the page shown).
      document.body.dataset.assets = new URL(document.body.dataset.assets || "_explorables/", location.href).href;
      keepPlace();
    }
  }

  /* From disk the address stays the page the bundle was opened at, whichever page is
     shown (a history entry may not name another file); the entry's state names the page
     shown. Reloaded, the bundle shows that page again, where the reader was. */
  function keepPlace() {
    const state = history.state;
    if (!state || !state.explorablesPage || state.explorablesPage === ex.pages.current) return;
    const scroll = ex.pages.left(state.explorablesPage);  // kept as the tab left it (pages.js)
    ex.pages.go(state.explorablesPage + (scroll === undefined ? state.hash || "" : ""), { scroll: scroll, restore: false });
  }
})();
