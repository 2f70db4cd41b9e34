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
        reject(new Error("the bundle is missing " + ex.assetNames[key] + "; unzip the whole bundle again"));
      };
      document.head.append(tag);
    });
  }

  function pageName(url) {
    return decodeURIComponent(new URL(url, location.href).pathname.split("/").pop()) || "index.html";
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
      const page = carried.pages[pageName(url)];
      return Promise.resolve(page ? { title: page.title, body: page.body, attrs: {} } : null);
    };
  }
})();
