/* The site's service worker: the whole site kept in the browser after the first visit,
   so that later visits, online or offline, start from there (site_builder/output/
   serviceworker.py writes it as sw.js at the site's root, with the build's data first:
   self.explorablesOffline = {build, version, files: {path: digest}, words: {language:
   {key: text}}}; js/offline.js registers it, and says what the worker answers it, in
   the words it sends).

   - One cache per version of the site (the build id and a digest of every file), named
     after the worker's scope too: several sites on one origin (USER.github.io/a/ and
     /b/) keep their caches apart.
   - Every answer is a file of this version: each file is checked against the sha256
     digest the build wrote for it before it is kept, so no cache on the way (GitHub
     Pages' ten minutes) can slip an older file into a newer version.
   - The first visit: nothing is fetched here until the page, its first lesson live and
     the page idle, asks for the whole site ("cache" {whole: true}); a reader who saves
     data asks for nothing, and only the files they open are kept as they come.
   - A new deploy is a new sw.js (its data differ): the browser installs it beside the
     running one, which keeps answering with the old version. It takes the new version's
     files (an unchanged one from the old cache, the rest from the network) and waits.
     It takes over when no page of the old version is open, when a reader asks for it
     (the page's "new version" note), or on a reload of the only page open; then the old
     version's cache is deleted.
   - Without files (`offline: false`, the preview of `explorables serve`) it is the
     worker that undoes an earlier one: it deletes the caches, unregisters and reloads
     the pages it held, so they come from the network again. */
(function () {
  "use strict";
  const site = self.explorablesOffline || {};
  const scope = self.registration.scope;  // the site's root, ending in "/"
  const PREFIX = "explorables " + scope + " ";  // this site's caches, of every version
  const WHOLE = "?explorables-offline=whole";  // an entry of the cache: the whole site is in it

  if (!site.files) {
    retire();
    return;
  }
  const files = new Map(Object.entries(site.files));  // path from the root -> sha256 digest (hex, cut)
  const CACHE = PREFIX + site.version;
  const AT_ONCE = 4;  // files fetched at the same time while the site is cached

  /* The path of an address in this version's files ("index.html", "basics/a.html",
     "_explorables/js/explorables.1a2b3c4d.js"), or null. A folder is its index.html. */
  function pathOf(address) {
    const url = new URL(address);
    if (url.origin !== self.location.origin) return null;
    const root = new URL(scope).pathname;
    if (url.pathname.indexOf(root) !== 0) return null;
    let path;
    try { path = decodeURIComponent(url.pathname.slice(root.length)); } catch { return null; }
    if (path === "" || path.endsWith("/")) path += "index.html";
    return files.has(path) ? path : null;
  }
  function urlOf(path) {
    return new URL(path.split("/").map(encodeURIComponent).join("/"), scope).href;
  }

  function hex(buffer) {
    return Array.from(new Uint8Array(buffer), function (b) { return b.toString(16).padStart(2, "0"); }).join("");
  }
  /* ``body`` is the file at ``path`` of this version. */
  function same(path, body) {
    return crypto.subtle.digest("SHA-256", body).then(function (digest) {
      const want = files.get(path);
      return hex(digest).slice(0, want.length) === want;
    });
  }
  function kept(response, body) {
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /* This version's file at ``path`` from the network, checked: first revalidated with
     the server (a browser's cache may hold an older one for minutes), then fetched anew. */
  function download(path) {
    function attempt(mode) {
      return fetch(urlOf(path), { cache: mode, credentials: "same-origin" }).then(function (response) {
        if (!response.ok) throw new Error(path + ": HTTP " + response.status);
        return response.arrayBuffer().then(function (body) {
          return same(path, body).then(function (ok) { return ok ? kept(response, body) : null; });
        });
      });
    }
    return attempt("no-cache").then(function (response) {
      return response || attempt("reload");
    }).then(function (response) {
      if (!response) throw new Error(path + " is not the file of this version of the site");
      return response;
    });
  }

  /* The same file in an older version's cache (a font, Pyodide, an unchanged page), or null. */
  function reuse(path, olds) {
    return olds.reduce(function (found, name) {
      return found.then(function (response) {
        if (response) return response;
        return caches.open(name).then(function (cache) { return cache.match(urlOf(path)); }).then(function (old) {
          if (!old) return null;
          return old.arrayBuffer().then(function (body) {
            return same(path, body).then(function (ok) { return ok ? kept(old, body) : null; });
          });
        });
      });
    }, Promise.resolve(null));
  }

  function olderCaches() {
    return caches.keys().then(function (names) {
      return names.filter(function (name) { return name.indexOf(PREFIX) === 0 && name !== CACHE; });
    });
  }

  /* Put this version's files in its cache: those of ``paths`` not there yet, from an
     older cache when unchanged, else from the network (``fetch``: false takes only
     what is unchanged). */
  function fill(paths, olds, fetchToo) {
    return caches.open(CACHE).then(function (cache) {
      const queue = paths.slice();
      function next() {
        const path = queue.shift();
        if (path === undefined) return Promise.resolve();
        return cache.match(urlOf(path)).then(function (there) {
          if (there) return null;
          return reuse(path, olds).then(function (response) {
            return response || (fetchToo ? download(path) : null);
          });
        }).then(function (response) {
          return response && cache.put(urlOf(path), response);
        }).then(next);
      }
      const lanes = [];
      for (let i = 0; i < AT_ONCE; i++) lanes.push(next());
      return Promise.all(lanes);
    });
  }

  function isWhole(name) {
    return caches.open(name).then(function (cache) { return cache.match(new URL(WHOLE, scope).href); })
      .then(function (marker) { return !!marker; });
  }

  let filling = null;  // the whole site being cached: one run for every page that asks
  function cacheWhole() {
    if (!filling) {
      filling = isWhole(CACHE).then(function (whole) {
        if (whole) return;
        return olderCaches().then(function (olds) {
          return fill(Array.from(files.keys()), olds, true);
        }).then(function () {
          return caches.open(CACHE).then(function (cache) {
            return cache.put(new URL(WHOLE, scope).href, new Response(site.version));
          });
        });
      }).then(function () { return true; }, function (err) {
        filling = null;  // the next page's request tries again
        console.info("Explorables: the site is not kept offline yet:", err && err.message);
        return false;
      });
    }
    return filling;
  }

  /* A new deploy: the new version is cached before it takes over, in whole if the old
     one was (the reader has it offline), else only what is unchanged of what they opened. */
  self.addEventListener("install", function (event) {
    event.waitUntil(olderCaches().then(function (olds) {
      if (!olds.length) return caches.open(CACHE);
      return Promise.all(olds.map(isWhole)).then(function (wholes) {
        if (wholes.indexOf(true) >= 0) return cacheWhole().then(function (ok) {
          if (!ok) throw new Error("the new version of the site could not be cached");
        });
        return fill(Array.from(files.keys()), olds, false);
      });
    }));
  });

  self.addEventListener("activate", function (event) {
    event.waitUntil(olderCaches().then(function (olds) {
      return Promise.all(olds.map(function (name) { return caches.delete(name); }));
    }).then(function () { return self.clients.claim(); }));
  });

  self.addEventListener("message", function (event) {
    const data = event.data || {};
    if (data.type === "take-over") {
      self.skipWaiting();
    } else if (data.type === "cache") {
      const asked = data.whole ? cacheWhole() : isWhole(CACHE);
      event.waitUntil(asked.then(function (whole) {
        if (event.source) {
          event.source.postMessage({ type: "offline", whole: whole, version: site.version, words: site.words });
        }
      }));
    }
  });

  /* A reload of the only page open while a new version waits: the new version takes
     over, and the page is loaded again, from it (no page of the old one is left). The
     answer is at once, a page that waits without asking for anything: the new worker
     activates once this one has no request left, takes the page (clients.claim) and the
     page loads itself again, now from it. A take-over that has not come after HANDING_MS
     is not asked for again: the page loads again and this version answers it, as it
     would with no new one waiting, rather than asking on and on. */
  const HANDING_MS = 10000;  // the longest a take-over may take before this version answers again
  let handing = 0;  // when this worker asked the waiting one to take over
  let handedTo = null;  // the waiting worker it asked
  /* The script of the page that waits (written into it as its source: it runs there). */
  function awaitTakeOver(ms) {
    const again = function () { location.reload(); };
    navigator.serviceWorker.addEventListener("controllerchange", again);
    setTimeout(again, ms);
    navigator.serviceWorker.getRegistration().then(function (r) { if (!r || !r.waiting) again(); });  // taken over already
  }
  const WAIT_PAGE = "<!doctype html><meta charset=\"utf-8\"><title></title><script>(" + awaitTakeOver + ")(" +
    HANDING_MS + ");</script>";
  function takeOver(request) {
    if (request.mode !== "navigate") return Promise.resolve(null);
    const again = function () {
      return new Response(WAIT_PAGE, { headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" } });
    };
    // Taking over: a page loaded meanwhile waits too, however many documents the reload
    // left open for a moment on a busy machine.
    if (Date.now() - handing < HANDING_MS) return Promise.resolve(again());
    const waiting = self.registration.waiting;
    if (!waiting || waiting === handedTo) return Promise.resolve(null);
    return self.clients.matchAll({ type: "window" }).then(function (pages) {
      // the page reloaded is the only one open (a new tab beside another page is not)
      if (pages.length > 1 || (pages.length === 1 && pages[0].url !== request.url)) return null;
      handing = Date.now();
      handedTo = waiting;
      waiting.postMessage({ type: "take-over" });
      return again();
    });
  }

  function answer(event, path) {
    const request = event.request;
    return takeOver(request).then(function (reloaded) {
      if (reloaded) return reloaded;
      return caches.open(CACHE).then(function (cache) {
        return cache.match(urlOf(path)).then(function (hit) {
          if (hit) return hit;
          return fetch(request).then(function (response) {
            if (response.ok && response.type === "basic") {  // kept if it is this version's
              const copy = response.clone();
              event.waitUntil(copy.arrayBuffer().then(function (body) {
                return same(path, body).then(function (ok) {
                  return ok && Promise.all([cache.put(urlOf(path), kept(copy, body)), itsRuntime(cache, path, body)]);
                });
              }).catch(function () { /* kept next time */ }));
            }
            return response;
          });
        });
      });
    });
  }

  /* A page kept as it is opened (the reader saves data) is kept with the runtime it
     names: a page swapped in place (pages.js) runs the runtime already loaded, so its
     own file (js/explorables.<kinds>.<hash>.js, a set of panel kinds) is never asked
     for, and the page reloaded offline would have no script. */
  function itsRuntime(cache, path, body) {
    if (!path.endsWith(".html")) return null;
    const named = /<script defer src="([^"]*js\/explorables\.[^"]+\.js)"/.exec(new TextDecoder().decode(body));
    const script = named && pathOf(new URL(named[1], urlOf(path)).href);
    if (!script) return null;
    return isWhole(CACHE).then(function (whole) {  // (the whole site has every runtime)
      return whole || cache.match(urlOf(script)).then(function (hit) {
        return hit || download(script).then(function (response) { return cache.put(urlOf(script), response); });
      });
    });
  }

  /* An address of the site it does not have (a mistyped one), offline: its 404 page. */
  function missing(request) {
    return fetch(request).catch(function (err) {
      return caches.open(CACHE).then(function (cache) { return cache.match(urlOf("404.html")); }).then(function (page) {
        if (!page) throw err;
        return new Response(page.body, { status: 404, headers: page.headers });
      });
    });
  }

  self.addEventListener("fetch", function (event) {
    const request = event.request;
    if (request.method !== "GET" || request.headers.has("range")) return;
    const path = pathOf(request.url);
    if (path !== null) event.respondWith(answer(event, path));
    else if (request.mode === "navigate" && request.url.indexOf(scope) === 0 && files.has("404.html")) {
      event.respondWith(missing(request));
    }
  });

  /* `offline: false`, or a preview: undo an earlier worker of this site. */
  function retire() {
    self.addEventListener("install", function () { self.skipWaiting(); });
    self.addEventListener("activate", function (event) {
      event.waitUntil(caches.keys().then(function (names) {
        return Promise.all(names.filter(function (name) { return name.indexOf(PREFIX) === 0; })
          .map(function (name) { return caches.delete(name); }));
      }).then(function () {
        return self.registration.unregister();
      }).then(function () {
        return self.clients.matchAll({ type: "window" });
      }).then(function (pages) {
        pages.forEach(function (page) { page.navigate(page.url).catch(function () { /* it stays as it is */ }); });
      }));
    });
  }
})();
