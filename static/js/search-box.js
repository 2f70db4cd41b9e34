/* The search box in the header, made here so pages without JavaScript show none; it
   asks js/search.js's ranking (ex.search). The index is a classic script (the asset
   map's "search") loaded on first use, from a server or from an offline bundle alike.
   Keyboard first: "/" focuses the box, the arrows move through the results (a combobox
   with a listbox), Enter opens the section, Escape closes. */
(function () {
  "use strict";
  const ex = window.explorables = window.explorables || {};
  const MAX = 8;  // results shown
  const query = ex.search.query, querySplit = ex.search.querySplit;

  let loading = null;
  function load() {
    if (ex.searchIndex) return Promise.resolve(ex.searchIndex);
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        const script = document.createElement("script");
        script.src = ex.asset("search");
        script.onload = function () { ex.searchIndex ? resolve(ex.searchIndex) : reject(new Error(ex.t("runtime.search_empty"))); };
        script.onerror = function () { loading = null; reject(new Error(ex.t("runtime.search_not_loaded"))); };
        // in <body>, not <head>: pages.js compares head scripts to tell its own pages apart
        document.body.appendChild(script);
      });
    }
    return loading;
  }

  /* A part of a split index, by its entry [.., key, file], loaded once: a classic script
     that adds itself to ex.searchParts[key] (from file:// as from a server). */
  const parts = new Map();
  function part(entry) {
    const key = entry[entry.length - 2];
    if (!parts.has(key)) {
      parts.set(key, new Promise(function (resolve, reject) {
        const script = document.createElement("script");
        const folder = new URL(document.body.dataset.assets || "_explorables/", location.href);
        script.src = new URL(entry[entry.length - 1], folder).href;
        script.onload = function () {
          const data = ex.searchParts && ex.searchParts[key];
          if (data) resolve(data); else reject(new Error(ex.t("runtime.search_empty")));
        };
        script.onerror = function () { parts.delete(key); reject(new Error(ex.t("runtime.search_not_loaded"))); };
        document.body.appendChild(script);
      }));
    }
    return parts.get(key);
  }

  /* A result's address: the index's are relative to the site's root, the folder above its assets. */
  function address(r) {
    const site = new URL("..", new URL(document.body.dataset.assets || "assets/", location.href));
    return new URL(r.url, site).href;
  }

  /* Text of the index into ``el``: a script Unicode has no letters for comes between
     marks (site_builder/search.py SUB, SUP), shown as <sub> or <sup>; an excerpt cut
     inside one closes it at its end. */
  function marked(el, text) {
    let into = el;
    text.split(/([\uE000-\uE003])/).forEach(function (part) {
      if (part === "\uE000" || part === "\uE002") into = el.appendChild(ex.el(part === "\uE000" ? "sub" : "sup", {}));
      else if (part === "\uE001" || part === "\uE003") into = el;
      else if (part) into.append(part);
    });
  }

  function attach(body) {
    const header = body.querySelector(".ex-header");
    let box = header && header.querySelector(".ex-search");
    if (!header || (box && box.firstChild)) return;
    if (!box) box = header.appendChild(ex.el("div", { class: "ex-search" }));  // a page of an older build
    box.setAttribute("role", "search");
    const label = ex.el("label", { class: "ex-sr", for: "ex-search-input" });
    label.textContent = ex.t("runtime.search_label");
    const input = ex.el("input", {
      id: "ex-search-input", type: "search", autocomplete: "off", spellcheck: "false",
      placeholder: ex.t("runtime.search_placeholder"), role: "combobox", "aria-expanded": "false",
      "aria-controls": "ex-search-results", "aria-autocomplete": "list"
    });
    const list = ex.el("ul", { id: "ex-search-results", class: "ex-search-results", role: "listbox",
                              "aria-label": ex.t("runtime.search_results") });
    list.hidden = true;
    const status = ex.el("p", { class: "ex-sr", role: "status" });
    box.append(label, input, list, status);
    let results = [], active = -1;

    function choose(i) {
      const items = list.querySelectorAll("[role=option]");
      items.forEach(function (li, k) { li.setAttribute("aria-selected", String(k === i)); });
      active = i;
      if (i >= 0 && items[i]) {
        input.setAttribute("aria-activedescendant", items[i].id);
        items[i].scrollIntoView({ block: "nearest" });
      } else input.removeAttribute("aria-activedescendant");
    }
    function close() {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      choose(-1);
    }
    function show() {
      list.replaceChildren();
      results.slice(0, MAX).forEach(function (r, i) {
        const li = ex.el("li", { id: "ex-search-result-" + i, role: "option", "aria-selected": "false" });
        const a = ex.el("a", { href: address(r), tabindex: "-1" });
        const where = ex.el("span", { class: "ex-search-where" });
        marked(where, r.heading ? r.lesson + " › " + r.heading : r.lesson);
        const excerpt = ex.el("span", { class: "ex-search-excerpt" });
        marked(excerpt, r.excerpt);
        a.append(where, excerpt);
        li.append(a);
        li.addEventListener("mousedown", function (e) { e.preventDefault(); });  // keep focus for the click
        a.addEventListener("click", function (e) { e.preventDefault(); go(r); });
        list.append(li);
      });
      const shown = Math.min(results.length, MAX);
      list.hidden = !input.value.trim();
      input.setAttribute("aria-expanded", String(!list.hidden));
      if (!shown && input.value.trim()) {
        const li = ex.el("li", { class: "ex-search-none" });
        li.textContent = ex.t("runtime.search_none_matches", { query: input.value.trim() });
        list.append(li);
      }
      status.textContent = input.value.trim() ? (shown ? ex.t("runtime.search_count", { n: shown }) : ex.t("runtime.search_no_results")) : "";
      choose(shown ? 0 : -1);
    }
    function update() {
      const text = input.value;
      load().then(function (index) {
        if (!text.trim()) return [];
        return index.version === 2 ? querySplit(index, text, part, MAX) : query(index, text);
      }).then(function (found) {
        if (input.value !== text) return;
        results = found;
        show();
      }, function (err) {
        status.textContent = ex.t("runtime.search_unavailable") + err.message;
      });
    }
    function go(r) {
      close();
      input.value = "";
      const target = new URL(address(r));
      const here = new URL(location.href);
      if (target.href.split("#")[0] === here.href.split("#")[0] && target.hash) {
        const heading = document.getElementById(decodeURIComponent(target.hash.slice(1)));
        if (location.protocol === "file:") { if (heading) heading.scrollIntoView(); } else location.hash = target.hash;
        if (heading) {
          if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
          heading.focus({ preventScroll: true });
        }
      } else if (ex.pages && ex.pages.go) ex.pages.go(target.href, { push: true });
      else location.assign(target.href);
    }
    input.addEventListener("focus", function () { load().catch(function () {}); });
    input.addEventListener("input", update);
    input.addEventListener("keydown", function (e) {
      const shown = Math.min(results.length, MAX);
      if (e.key === "ArrowDown" && shown) { e.preventDefault(); list.hidden = false; choose((active + 1) % shown); }
      else if (e.key === "ArrowUp" && shown) { e.preventDefault(); choose((active - 1 + shown) % shown); }
      else if (e.key === "Enter" && active >= 0 && results[active]) { e.preventDefault(); go(results[active]); }
      else if (e.key === "Escape") { if (!list.hidden) { e.preventDefault(); close(); } else input.blur(); }
    });
    input.addEventListener("blur", function () { setTimeout(close, 150); });
    if (ex._searchTyped !== undefined) {  // "/" pressed before this script had come, and what was typed since (boot.js)
      input.focus();
      input.value = ex._searchTyped;
      ex._searchTyped = undefined;
      if (input.value) update();
    }
  }

  document.addEventListener("keydown", function (e) {
    if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    const input = document.getElementById("ex-search-input");
    if (input) { e.preventDefault(); input.focus(); }
  });
  if (ex.pages && ex.pages.on) ex.pages.on("mount", attach);
  // loaded after the first frame (js/later.js): the page may be parsed already
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { attach(document.body); });
  else attach(document.body);
})();
