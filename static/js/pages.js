/* The page lifecycle: a lesson's content mounts and unmounts, and moving to another
   lesson swaps it in place, keeping the engine's worker and its Python alive.

   - Links to other pages of the site are fetched (or, in an offline bundle, read from
     the pages it carries) and their content swapped into this document: the title,
     the header, the lesson. Their figures are drawn at once from their build-time
     scenes and go live on the running engine. Any failure falls back to a plain
     navigation, and every page still works on its own; so does a page of another build
     of the site (a deploy since this page was loaded), whose scripts and engine differ.
   - History: back and forward swap pages too; each figure keeps the state the reader
     left it in, for the page it belongs to; scroll positions and #anchors are kept.
   - After a swap, focus moves to the new heading and the one shared announcer says
     the new title, for screen-reader users.
   - Later page features hook in with ex.pages.on("mount" | "unmount", fn(root)); "head",
     fn(html): the swapped page's <html> (its lang, dir and head; null from a bundle);
     "arrive", fn(page, url): a page fetched, swapped in once fn's promise settles. */
(function () {
  "use strict";
  const ex = window.explorables;
  const hooks = { mount: [], unmount: [], head: [], arrive: [] };
  const kept = {};  // page key (an address) -> {figure id: {state, scene}}
  const left = {};  // page key -> the scroll it was left at (Back leaves it: its history entry is gone by then)
  let announcer = null;
  let pending = [];  // texts waiting to be written into the announcer together
  let busy = null;

  function key(url) { return new URL(url, location.href).href.replace(/#.*$/, ""); }

  function root() {
    return new URL("..", new URL(document.body.dataset.assets || "_explorables/", location.href)).href;
  }

  /* The page's one polite live region: figures, live prose and navigation all speak
     through it, so nothing is announced twice. It lives outside the swapped content. */
  function announce(text, rank) {
    if (!announcer || !document.body.contains(announcer)) {
      announcer = ex.el("div", { class: "ex-announcer", role: "status", "aria-live": "polite" });
      document.body.append(announcer);
    }
    // what several parts of the page say at the same moment (a figure and the live
    // numbers bound to it) is heard as one message, none cutting another off
    // (``rank`` orders them: lower first, so a figure's change comes before the numbers
    // bound to it; a newer text of the same rank replaces the older, which is stale)
    const waiting = pending.length > 0;
    pending = pending.filter(function (p) { return p.rank !== (rank || 0); });
    pending.push({ text: text, rank: rank || 0 });
    if (waiting) return;
    announcer.textContent = "";
    // a change of text after a tick is announced even when it repeats the last one
    setTimeout(function () {
      const parts = pending.sort(function (a, b) { return a.rank - b.rank; }).map(function (p) { return p.text; });
      announcer.textContent = parts.length === 1 ? parts[0]
        : parts.map(function (part) { return part.replace(/[.;,]?\s*$/, "."); }).join(" ");
      pending = [];
    }, 60);
  }

  function scripts(d, base) {  // (the runtime, any of its sets of panel kinds: output/panels.py)
    return Array.from(d.querySelectorAll("head script[src]")).map(function (s) {
      return new URL(s.getAttribute("src"), base).href.replace(/\/js\/explorables(\.[\w.-]+)?\.js$/, "/js/explorables");
    }).join(" ");
  }
  // The scripts this document runs, resolved once from the address it was loaded at: the
  // head is never swapped, and after a move into another folder its relative addresses
  // would resolve elsewhere.
  const ownScripts = scripts(document, location.href);

  /* A page's build id and asset map, from its head: {build, assets}, or {}. */
  function manifestOf(doc) {
    const manifest = doc.getElementById("ex-build");
    try { return manifest ? JSON.parse(manifest.textContent) : {}; } catch { return {}; }
  }

  /* What the page would load from ``url``: {title, nodes (its parsed body), attrs,
     assets, engine (what it needs of the engine: {figures, next}, or null)}, or null.
     An offline bundle's pages give {title, body (as text), attrs}. */
  function fetched(url) {
    return fetchedText(url).then(function (html) { return html && read(html, url); });
  }
  /* The page at ``url`` as text, or null if it is no page of this site. */
  function fetchedText(url) {
    if (location.protocol === "file:") return Promise.resolve(null);
    return fetch(url, { credentials: "same-origin" }).then(function (response) {
      const type = response.headers.get("Content-Type") || "";
      if (!response.ok || type.indexOf("text/html") < 0) return null;
      return response.text();
    });
  }
  /* A page's text, parsed: what fetched() gives. */
  function read(html, url) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    // another build's page (another build id, other scripts): only a full load can run it
    const manifest = manifestOf(doc);
    if (manifest.build !== ex.build || scripts(doc, url) !== ownScripts) return null;
    const attrs = {};
    Array.from(doc.body.attributes).forEach(function (a) { attrs[a.name] = a.value; });
    // the parsed body itself: the swap moves its nodes in rather than parsing it again
    return { title: doc.title, nodes: doc.body, attrs: attrs, assets: manifest.assets,
      engine: manifest.engine || null, font: fontOf(doc, url), html: doc.documentElement };
  }

  /* The next lesson, fetched ahead while the reader reads: going there needs no network.
     Parsed (tens of milliseconds on a phone) when the page is idle or when the reader goes
     there, whichever comes first. Not when the reader saves data, nor from an offline
     bundle (its pages are here); a preview's edit forgets what was fetched. */
  let ahead = {};  // page key (an address) -> a function giving a Promise of what fetched() gives
  function prefetch(url, font) {
    if (ex.pages.source !== fetched || location.protocol === "file:" || ex.saving()) return;
    const pageKey = key(url);
    if (font) mathFace(font);  // beside the page, and come before it: set in it from its swap
    if (pageKey === ex.pages.current || ahead[pageKey]) return;
    const text = fetchedText(url).catch(function () { return null; });
    let page = null;
    ahead[pageKey] = function () {
      if (!page) {
        page = text.then(function (html) {
          const got = html && read(html, url);
          if (got && got.font) mathFace(got.font);  // loaded ahead: its first layout sets its math in it
          return got;
        }).catch(function () { return null; });
      }
      return page;
    };
  }
  /* Parse what was fetched ahead, now (as it comes), or once the page is idle. */
  function readAhead(now) {
    const parse = function () { Object.keys(ahead).forEach(function (pageKey) { ahead[pageKey](); }); };
    if (now || !window.requestIdleCallback) setTimeout(parse, 0);
    else window.requestIdleCallback(parse, { timeout: 1000 });
  }
  /* The link is read against the address of the page shown, not location: going back,
     the address changes before the page it names is swapped in. */
  function prefetchNext(early) {
    const link = document.querySelector("a[rel=next]");
    const font = link && !early && link.getAttribute("data-ex-font");  // (early: its font once live)
    if (link) prefetch(new URL(link.getAttribute("href"), ex.pages.current).href, font && new URL(font, ex.pages.current).href);
  }
  const SWAPPED_AFTER = 1000;  // ms
  function nextWhenLive(swapped) {
    // The page the browser loaded: fetched once the first frame is drawn (ex.pages.ahead,
    // boot.js), parsed once live: a click as the figures answer waits for no fetch (75-141
    // ms when fetched at live). A page swapped in: a second after live, when idle (at
    // once, parsing it came while the new page's figures first answered).
    ex.ready.then(function () {
      if (!swapped) { prefetchNext(); readAhead(true); return; }
      const page = ex.pages.current;
      const then = function () { if (ex.pages.current === page) { prefetchNext(); readAhead(); } };
      setTimeout(function () {
        if (window.requestIdleCallback) window.requestIdleCallback(then, { timeout: 1000 }); else then();
      }, SWAPPED_AFTER);
    }, function () { /* no engine: the reader may well stay */ });
  }

  function unmount() {
    left[ex.pages.current || key(location.href)] = window.scrollY;
    const states = (kept[ex.pages.current || key(location.href)] = Object.create(null));  // by figure id
    Object.keys(ex.figures).forEach(function (id) {
      const figure = ex.figures[id];
      // what the reader did that the engine has not computed yet (Python still on its
      // way): done again when the page is back
      const waiting = (figure.queue || []).map(function (item) { return item.event; });
      states[id] = { state: figure.state, scene: figure.scene, built: figure.built, waiting: waiting };
      Object.values(figure.controlViews || {}).forEach(function (view) { if (view.stop) view.stop(); });
    });
    hooks.unmount.forEach(function (fn) { fn(document.body); });
    ex.figures = Object.create(null);
  }

  /* ``scene`` with its controls showing the values the reader set in ``events`` (sent
     again, not computed yet): a slider moved before Python came stays where it was left. */
  function asSet(scene, events) {
    const sets = events.filter(function (e) { return e.type === "set"; });
    if (!sets.length || !scene || !scene.controls) return scene;
    const controls = scene.controls.map(function (control) {
      const set = sets.filter(function (e) { return e.name === control.name; }).pop();
      return set ? Object.assign({}, control, { value: set.value }) : control;
    });
    return Object.assign({}, scene, { controls: controls });
  }

  /* Mount the page swapped in. ``restore``: each figure takes the state it had when the
     reader left this page; "unchanged": only a figure whose build-time state is the same
     as before (a preview's reload: an edit to the text keeps what the reader set, an edit
     to the figure's options starts it anew). */
  function mount(pageKey, restore) {
    if (ex.boot) ex.boot();
    const states = (restore && kept[pageKey]) || {};
    Object.keys(states).forEach(function (id) {
      const figure = ex.figures[id];
      if (!figure) return;
      if (restore === "unchanged" && JSON.stringify(figure.built) !== JSON.stringify(states[id].built)) return;
      const waiting = states[id].waiting || [];
      figure.state = states[id].state;
      figure.render(asSet(states[id].scene, waiting));
      waiting.forEach(function (event) { figure.send(event).catch(function () { /* the figure says why */ }); });
    });
    hooks.mount.forEach(function (fn) { fn(document.body); });
  }

  function swap(page) {
    document.title = page.title;
    // the same build, maybe a later deploy of its lessons: their search index, say, is new
    if (page.assets) ex.assetNames = page.assets;
    if (page.engine !== undefined) ex.engineNeeds = page.engine;
    if (page.font !== undefined) mathFont(page.font);
    if (page.nodes) document.body.replaceChildren.apply(document.body, Array.from(page.nodes.childNodes));
    else document.body.innerHTML = page.body;
    Object.keys(page.attrs || {}).forEach(function (name) { document.body.setAttribute(name, page.attrs[name]); });
    if (announcer) document.body.append(announcer);
    hooks.head.forEach(function (fn) { fn(page.html || null); });
  }

  /* Each page has a math font of its own characters (site_builder/output/fonts.py). The
     head's @font-face is the one of the page the browser loaded; a page swapped in brings
     its font as a FontFace of the same family, loaded ahead with the page when it is
     fetched ahead, and added in the swap (no stylesheet to load and apply then): while
     it is shown, it is the one document.fonts holds beside the head's, and is matched
     first. An offline bundle's pages share one font, and name none. The family is the
     one the stylesheet names (--ex-math-font in css/page.css). */
  const faces = {};  // a font's address -> its FontFace
  function fontOf(doc, base) {
    const link = doc.querySelector("head link[data-ex-font]");
    return link ? new URL(link.getAttribute("data-ex-font"), base).href : null;
  }
  const ownFont = fontOf(document, location.href);
  function mathFace(href) {
    if (!faces[href] && window.FontFace) {
      const family = getComputedStyle(document.documentElement).getPropertyValue("--ex-math-font").trim();
      faces[href] = new FontFace(family.replace(/^"|"$/g, ""), "url(" + JSON.stringify(href) + ")", { display: "swap" });
      faces[href].load().catch(function () { /* the system's math font stands in */ });
    }
    return faces[href];
  }
  function mathFont(href) {
    Object.keys(faces).forEach(function (other) { if (other !== href) document.fonts.delete(faces[other]); });
    if (href && href !== ownFont && mathFace(href)) document.fonts.add(faces[href]);
  }

  /* A kept scroll position the page is not yet tall enough for (the lines that later
     scripts add at its end: the reader's progress, the offline note) is taken up as the
     page grows, until it is reached, the reader scrolls, or ten seconds have passed. */
  function reach(scroll) {
    if (window.scrollY >= scroll - 1 || !window.ResizeObserver) return;
    const until = performance.now() + 10000;
    const moves = ["wheel", "touchstart", "keydown", "pointerdown"];
    const watch = new ResizeObserver(function () {
      if (performance.now() < until) window.scrollTo(0, scroll);
      if (window.scrollY >= scroll - 1 || performance.now() >= until) stop();
    });
    function stop() {
      watch.disconnect();
      moves.forEach(function (name) { window.removeEventListener(name, stop); });
    }
    moves.forEach(function (name) { window.addEventListener(name, stop, { passive: true }); });
    watch.observe(document.body);
  }

  function land(hash, scroll) {
    const target = hash ? document.getElementById(decodeURIComponent(hash.slice(1))) : null;
    if (typeof scroll === "number") { window.scrollTo(0, scroll); reach(scroll); }
    else if (target) target.scrollIntoView();
    else window.scrollTo(0, 0);
    const focus = target || document.querySelector("main h1");
    if (focus && !focus.hasAttribute("tabindex")) focus.setAttribute("tabindex", "-1");
    // at its top: in the frame that first shows the page (in the swap's task, it laid the page out there)
    const put = function () { if (focus && focus.isConnected && document.activeElement === document.body) focus.focus({ preventScroll: true }); };
    if (target || typeof scroll === "number") put(); else requestAnimationFrame(put);
  }

  const PLACE = "explorables-place";  // sessionStorage: {page, scroll} of the page last left

  ex.pages = {
    current: key(location.href),
    /* Where the reader was on ``page`` (default: the one shown) if it was the page this
       tab last left (a reload), else undefined. */
    left: function (page) {
      try {
        const place = JSON.parse(sessionStorage.getItem(PLACE) || "null");
        return place && place.page === (page || ex.pages.current) && typeof place.scroll === "number"
          ? place.scroll : undefined;
      } catch { return undefined; }
    },
    source: fetched,  // url -> Promise of {title, nodes or body, attrs} or null; a bundle sets its own
    ahead: function () { prefetchNext(true); },  // the next lesson's page now (boot.js: at the first frame)
    landing: null,  // where the page last swapped in lands: "top", or "place" (an anchor, a kept scroll)
    announce: announce,
    on: function (event, fn) { hooks[event].push(fn); },

    /* Show the page at ``url`` in this document. ``how``: {push, scroll, restore, reload}.
       Resolves true when swapped; on any failure the browser loads the page itself. */
    go: function (url, how) {
      how = how || {};
      const target = new URL(url, location.href);
      const pageKey = key(target.href);
      const previous = busy || Promise.resolve();
      busy = previous.then(function () {
        const early = !how.reload && ahead[pageKey];
        delete ahead[pageKey];
        return (early ? early() : Promise.resolve(null)).then(function (page) {
          return page || ex.pages.source(target.href);
        }).then(function (page) {
          if (!page) throw new Error("no page to swap in");
          const waits = hooks.arrive.map(function (fn) { return fn(page, target.href); });  // languages.js: the words
          return Promise.all(waits).then(function () { return page; });
        }).then(function (page) {
          stamp();
          if (how.push) history.replaceState(Object.assign({}, history.state, { scroll: window.scrollY }), "");
          unmount();
          // the address first: the new content's relative links and images (../img/x.png
          // in a section's page) resolve against the page they belong to
          const state = { explorablesPage: pageKey, hash: target.hash };
          if (how.push) {
            if (location.protocol === "file:") history.pushState(state, "");
            else history.pushState(state, "", target.href);
          } else if (location.protocol !== "file:" && key(location.href) !== pageKey) {
            history.replaceState(state, "", target.href);  // a page shown in place of this one
          }
          swap(page);
          ex.pages.current = pageKey;
          // where it lands: at its top, it may be laid out part by part (parts.js)
          ex.pages.landing = target.hash || typeof how.scroll === "number" ? "place" : "top";
          mount(pageKey, how.reload ? "unchanged" : how.restore !== false);
          // a preview's reload stays where the author is: no title said; the focus is
          // put back on the same control by livereload.js
          if (how.reload) window.scrollTo(0, how.scroll);
          else { land(target.hash, how.scroll); announce(page.title.split(" · ")[0]); }
          nextWhenLive(true);
          // the figures of the page after this one, made ready while the reader reads
          if (page.engine && page.engine.next && ex.client) ex.client.ahead(page.engine.next);
          return true;
        }).catch(function () {
          if (how.reload) { location.reload(); return false; }
          if (location.protocol === "file:" && !how.push) return false;
          location.assign(target.href);
          return false;
        });
      });
      return busy;
    },

    /* The same page again (a preview's edit): its content anew, Python kept. */
    reload: function () {
      ahead = {};
      return ex.pages.go(location.href, { reload: true, scroll: window.scrollY });
    },
  };

  /* A page of this site: under its root (the folder above its assets), in any section. */
  function ours(url) {
    if (location.protocol === "file:") {
      return url.protocol === "file:" && url.href.indexOf(root()) === 0 && /\.html$/.test(url.pathname);
    }
    return url.origin === location.origin && url.href.indexOf(root()) === 0 &&
      (/\.html$/.test(url.pathname) || /\/$/.test(url.pathname));
  }

  document.addEventListener("click", function (event) {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = event.target.closest && event.target.closest("a[href]");
    if (!link || (link.target && link.target !== "_self") || link.hasAttribute("download")) return;
    const url = new URL(link.getAttribute("href"), location.href);
    if (!ours(url)) return;
    if (key(url.href) === key(location.href) && (url.hash || link.getAttribute("href").charAt(0) === "#")) return;
    if (location.protocol === "file:" && !(ex.bundle && ex.bundle.carried())) return;
    event.preventDefault();
    ex.pages.go(url.href, { push: true });
  });

  // the next lesson, once this one is live and the page is idle
  nextWhenLive();

  window.addEventListener("popstate", function (event) {
    const state = event.state;
    if (!state || !state.explorablesPage) return;  // an anchor of this page
    if (state.explorablesPage === ex.pages.current) return;
    const url = location.protocol === "file:" ? state.explorablesPage : location.href;
    ex.pages.go(url, { scroll: typeof state.scroll === "number" ? state.scroll : left[state.explorablesPage], restore: true });
  });

  // Scroll positions are the page's to restore: the browser's would act on the document before the swap.
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  // This entry of the history names its page, for the way back to it; written when the page is
  // idle (writing it costs the first frame's task several ms), or before the first swap.
  function stamp() {
    const state = history.state;
    if (state && state.explorablesPage) return;
    history.replaceState(Object.assign({}, state, { explorablesPage: ex.pages.current, hash: location.hash }), "");
  }
  if (window.requestIdleCallback) window.requestIdleCallback(stamp, { timeout: 1000 });
  else setTimeout(stamp, 0);

  // Leaving the page (a reload, another site): the tab keeps where the reader was, which
  // the page's next load restores (parts.js), as the browser's own restoration did. (The
  // history entry cannot be written any more as the page goes.)
  window.addEventListener("pagehide", function () {
    try {
      sessionStorage.setItem(PLACE, JSON.stringify({ page: ex.pages.current, scroll: window.scrollY }));
    } catch { /* storage refused: a reload starts at the top */ }
  });
})();
