/* Explorables core: the one namespace every other script adds its part to.
   Classic script (no modules): pages must also run when opened from disk. */
(function () {
  "use strict";
  const ex = (window.explorables = window.explorables || {});
  ex.marks = ex.marks || {};     // kind -> draw(ctx, mark, view)
  ex.panels = ex.panels || {};   // kind -> create(figure, spec) -> {el, update(spec), highlight(link)}
  ex.controls = ex.controls || {}; // kind -> create(figure, spec) -> {el, update(spec), setError(name, msg)}
  // id -> Figure. Anything keyed by an author's or a reader's text (a figure's id, a value's
  // or an exercise's name, a word) is a Map or has no prototype: an id "constructor" or
  // "__proto__" is then a key like any other, never one of Object's own members.
  ex.figures = ex.figures || Object.create(null);

  /* The build this page belongs to, and where the files its scripts load are: the build
     writes them under names that change with their content (explorables.3f2a9c1d.css),
     and the page's head carries the map, {"build": id, "assets": {key: name}}. Scripts
     ask ex.asset(key) for a URL and never build a file's name themselves. */
  const manifest = document.getElementById("ex-build");
  const built = manifest ? JSON.parse(manifest.textContent) : { build: "", assets: {} };
  ex.build = built.build;
  ex.assetNames = built.assets;
  ex.engineNeeds = built.engine || null;  // {figures, next}: what the page needs of the engine (client.js)
  ex.asset = function (key) {
    const name = ex.assetNames[key];
    if (!name) throw new Error(ex.t("runtime.asset_missing", { key: key }));
    const folder = new URL(document.body.dataset.assets || "_explorables/", location.href);
    return new URL(name, folder).href;
  };

  let settle;
  /* ex.ready: the engine is live. A page with no figure settles it at once, without an
     engine; the page swapped in after it (ex.pages) may start one: then ready is new. */
  ex._resetReady = function () {
    ex.ready = new Promise(function (resolve, reject) { settle = { resolve: resolve, reject: reject }; });
    ex.ready.catch(function () { /* each figure shows the failure itself */ });
    ex._readyWithoutEngine = false;
  };
  ex._resetReady();
  ex._settleReady = function (ok, value) { ok ? settle.resolve(value) : settle.reject(value); };

  /* The reader's browser asks to save data (the "Lite mode" of mobile browsers), or
     reports little memory: Python (about 14 MB to download, over 100 MB of memory) waits
     for the reader's Start, no snapshot is fetched, no lesson ahead. (start.js, which
     runs before this file, asks the same two questions itself.) */
  ex.saving = function () {
    const connection = navigator.connection;
    return !!(connection && connection.saveData);
  };
  ex.frugal = function () {
    return ex.saving() || (typeof navigator.deviceMemory === "number" && navigator.deviceMemory <= 2);
  };

  /* Right-to-left pages: a text with no letter of a right-to-left script (a formula such
     as "2.710 ÷ √2 = 1.916", a vector, a token) is written as one left-to-right run,
     isolated from the words around it, so it keeps its order inside a Hebrew panel. In
     the HTML that is a <bdi dir="ltr">; on a canvas the text's own direction. */
  const RTL_LETTER = /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefc]/;
  const PLAIN_TEXT = new Set(["OPTION", "TEXTAREA", "TITLE", "SCRIPT", "STYLE"]);  // hold text only
  ex.textDirection = function (text) {
    return ex.words.dir === "rtl" && RTL_LETTER.test(text) ? "rtl" : "ltr";
  };
  function textOf(node, text) {
    if (ex.words.dir !== "rtl" || !text || RTL_LETTER.test(text) || PLAIN_TEXT.has(node.tagName)) {
      return document.createTextNode(text);
    }
    const run = document.createElement("bdi");
    run.dir = "ltr";
    run.textContent = text;
    return run;
  }

  /* A node's text, replaced: as textContent does (null and undefined write nothing),
     with the same rule as el() for a right-to-left page. */
  ex.setText = function (node, text) {
    const value = text == null ? "" : String(text);
    if (value) node.replaceChildren(textOf(node, value));
    else node.replaceChildren();
  };

  /* el("div", {class: "x", onclick: f, dataset: {link: "t1"}}, child, "text", ...) */
  ex.el = function (tag, attrs) {
    const node = document.createElement(tag);
    if (attrs) {
      for (const key of Object.keys(attrs)) {
        const value = attrs[key];
        if (value === undefined || value === null || value === false) continue;
        if (key === "class") node.className = value;
        else if (key === "text") node.replaceChildren(textOf(node, String(value)));
        else if (key === "dataset") Object.assign(node.dataset, value);
        else if (key === "style") Object.assign(node.style, value);
        else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
        else node.setAttribute(key, value === true ? "" : value);
      }
    }
    for (let i = 2; i < arguments.length; i++) {
      const child = arguments[i];
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : textOf(node, String(child)));
    }
    return node;
  };

  /* The colour of a role, read from the stylesheet (light or dark). */
  ex.color = function (node, role) {
    const value = getComputedStyle(node).getPropertyValue("--ex-" + (role || "text")).trim();
    return value || "#888";
  };

  /* The tool's words in the page's language: the data block the build wrote into every
     page (site_builder/language.py), read once. ex.t("runtime.starting") -> "Starting
     Python…"; fields fill {name}: ex.t("runtime.search_count", {n: 3}). */
  const block = document.getElementById("ex-words");
  ex.words = block ? JSON.parse(block.textContent) : { language: "en", dir: "ltr", messages: {} };
  ex.t = function (key, fields) {
    const text = ex.words.messages[key];
    if (text === undefined) { console.error("Explorables: no words for '" + key + "'"); return key; }
    return fields ? text.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in fields ? String(fields[name]) : whole;
    }) : text;
  };
  /* A slider's range as its control declares it (kit/params.py Slider.control_dict): a log
     range is crossed along log(value) in log_steps steps. at: a value's place on the
     track; of: the value at a place; step: one step, in places; next: k steps on.
     track: the range input's min, max and step; a log range's input counts whole steps
     (0 to log_steps), so its ends are whole numbers the browser reaches exactly, where a
     step of log(max/min)/log_steps lost the last one to rounding. fromTrack and toTrack
     map the input's value to the number and back; the ends map to min and max exactly. */
  ex.range = {
    log: function (r) { return r.log && r.min > 0; },
    at: function (r, v) { return ex.range.log(r) ? Math.log(v) : v; },
    of: function (r, x) { return ex.range.log(r) ? Math.exp(x) : x; },
    step: function (r) { return ex.range.log(r) ? Math.log(r.max / r.min) / r.log_steps : r.step; },
    track: function (r) {
      return ex.range.log(r) ? { min: 0, max: r.log_steps, step: 1 } : { min: r.min, max: r.max, step: r.step || "any" };
    },
    toTrack: function (r, v) {
      return ex.range.log(r) ? (Math.log(v) - Math.log(r.min)) / ex.range.step(r) : v;
    },
    fromTrack: function (r, x) {
      if (!ex.range.log(r)) return x;
      if (x <= 0) return r.min;
      if (x >= r.log_steps) return r.max;
      return Math.exp(Math.log(r.min) + x * ex.range.step(r));
    },
    next: function (r, v, k) {
      return ex.range.log(r) ? ex.range.fromTrack(r, ex.range.toTrack(r, v) + k) : v + k * r.step;
    },
  };

  /* Panel and control kinds a page's first frames do not draw come later
     (site_builder/output/panels.py): the runtime registers each as a stand-in, which a
     page's own kinds replace before its figures are drawn. A figure that draws a stand-in
     (a scene of the engine, a page swapped in) shows it empty, loads js/panels.js (every
     kind), and draws its scene again. That file also comes once the page is live, so that
     a swap rarely has to wait. */
  ex.lazyPanels = function (panels, controls) {
    let loading = null;
    const load = ex.loadPanels = function () {
      return loading || (loading = new Promise(function (resolve, reject) {
        const script = ex.el("script", { src: ex.asset("panels"), onload: resolve, onerror: function () {
          script.remove();
          loading = null;  // the next call asks again
          reject(new Error(ex.asset("panels")));
        } });
        document.body.append(script);  // not the head: pages.js compares the heads' scripts
      }));
    };
    const GONE = "js/panels.js is no longer on the server";  // the console's words, before the reload
    // Whether the server answered that the file is not there (a dropped request is no answer)
    function gone() {
      return fetch(ex.asset("panels"), { method: "HEAD", cache: "no-store" })
        .then(function (response) { return response.status === 404 || response.status === 410; },
              function () { return false; });
    }
    // Drawn again once js/panels.js has come, once however many stand-ins it drew; if the
    // file cannot be had (a dropped request), the figure says so and asks again when the
    // browser is back online; if the server no longer has it (a deploy replaced this
    // page's build), the page is loaded again, once.
    const pending = new WeakSet();  // figures waiting to be drawn again
    // "online" events heard: a request begun before the last of them, which failed, is
    // made again at once (it may have been under way while the browser came back)
    let online = 0;
    window.addEventListener("online", function () { online++; });
    function redraw(figure) {
      if (pending.has(figure)) return;
      pending.add(figure);
      const begun = online;
      load().finally(function () { pending.delete(figure); }).then(function () {
        if (ex.figures[figure.id] !== figure) return;
        [figure.panelViews, figure.controlViews].forEach(function (views) {
          for (const key of Object.keys(views)) if (views[key].waiting) { views[key].el.remove(); delete views[key]; }
        });
        figure.render(figure.scene);
        if (figure.errorEl.textContent === ex.t("runtime.panels_failed")) figure.errorEl.hidden = true;
      }, function () {
        if (ex.figures[figure.id] !== figure) return;
        gone().then(function (deployed) {
          // a page of a build whose files a deploy replaced: a fresh copy names the new ones
          if (deployed && ex.reloadOnce && ex.reloadOnce(GONE, "explorables-reloaded-for-panels")) return;
          if (online !== begun) { redraw(figure); return; }
          figure.showError(ex.t("runtime.panels_failed"), false);
          window.addEventListener("online", function () { redraw(figure); }, { once: true });
        });
      });
    }
    function standIn(kinds, kind) {
      if (!kinds[kind]) (kinds[kind] = function (figure) {
        redraw(figure);
        return { el: ex.el("div"), waiting: true, update: function () {}, highlight: function () {} };
      }).waiting = true;
    }
    panels.forEach(function (kind) { standIn(ex.panels, kind); });
    controls.forEach(function (kind) { standIn(ex.controls, kind); });
    const idle = function () {
      (window.requestIdleCallback || setTimeout)(function () {
        load().catch(function () { /* asked again by the figure that needs it */ });
      }, { timeout: 2000 });
    };
    ex.ready.then(idle, idle);
  };

  /* Call fn in a task of its own once the next frame is painted: its work, and the style,
     layout and paint it causes (in the frame after), are two tasks rather than one.
     Returns a function that cancels it. */
  ex.afterFrame = function (fn) {
    let timer = 0;
    const frame = requestAnimationFrame(function () { timer = setTimeout(fn, 0); });
    return function () { cancelAnimationFrame(frame); clearTimeout(timer); };
  };

  ex.reducedMotion = function () {
    return window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  };
})();
