/* A live figure: draws a scene at once, then redraws with each answer of the engine
   (figure-engine.js sends it the reader's events; figure-speech.js, which comes with
   js/later.js after the first frame, says the changes). */
(function () {
  "use strict";
  const ex = window.explorables;
  const NARROW = "(max-width: 760px)";  // one column: the same width as the stylesheet's

  /* `pieces`: the number of panels to make now, the rest and the controls a piece a frame
     after (unfold); left out, the whole figure is made at once. */
  function Figure(root, data, pieces) {
    this.root = root;
    this.id = root.id;
    this.name = data.figure;
    this.state = data.state;
    this.built = data.state;  // the build's first state: a preview's reload keeps what the reader set only while it stays
    // the lesson's own example, as its state keys' JSON: see offExample
    this.subject = (data.subject || []).map(function (key) { return [key, JSON.stringify(data.state[key])]; });
    this.scene = data.scene;
    this.values = data.scene.values || {};
    this.queue = [];
    this.busy = false;
    this.computing = null;  // the queue's item being computed
    this.live = false;
    this.panelViews = {};  // "kind:id" -> view (the kind's prefix keeps an id clear of Object's members)
    this.controlViews = {};
    this.hot = null;
    this.asking = false;  // the whole scene is to be asked for when the page is idle (complete)
    this.unwhole = null;  // the scene whose whole the engine could not draw
    // while the figure is made in pieces (unfold): how many of its panels are made, and
    // whether its controls are; null once it is whole
    this.pieces = typeof pieces === "number" ? { panels: pieces, controls: false } : null;
    this.mount();
    this.render(data.scene);
  }

  Figure.prototype.mount = function () {
    const ex_ = ex;
    this.titleEl = ex_.el("h2", { class: "ex-figure-title" });
    this.badge = ex_.el("span", { class: "ex-badge" }, ex_.t("runtime.starting"));
    this.panelsEl = ex_.el("div", { class: "ex-panels" });
    this.controlsEl = ex_.el("div", { class: "ex-side" });
    // what the figure shows now, in words; spoken by the page's one announcer (announce)
    this.statusEl = ex_.el("p", { class: "ex-status" });
    this.errorEl = ex_.el("div", { class: "ex-error", role: "alert" });
    this.errorEl.hidden = true;
    // Beside the panels, the controls come after all of them in Tab's order: the way
    // there, for the keyboard, shown when it has the focus (place() hides it when no
    // control is in that column)
    const controls = this.controlsEl;
    this.skipEl = ex_.el("button", { type: "button", class: "ex-skip-controls",
      onclick: function () {
        const first = controls.querySelector("input, button, select, textarea");
        if (first) first.focus();
      } }, ex_.t("runtime.skip_to_controls"));
    this.root.append(
      ex_.el("div", { class: "ex-figure-head" }, this.titleEl, this.badge),
      this.errorEl,
      this.skipEl,
      ex_.el("div", { class: "ex-body" }, this.panelsEl, this.controlsEl),
      this.statusEl
    );
    // The build's still of the first frame (.ex-still) steps aside, under the error
    // box: it comes back there if Python cannot start, and in print.
    const still = this.root.querySelector(":scope > .ex-still");
    if (still) this.errorEl.after(still);
    this.root.classList.add("ex-loading", "ex-drawn");
    // the figure's accessible name: its title, then the lesson's caption ("Figure 1: ...")
    this.titleEl.id = this.id + "-title";
    const caption = this.root.querySelector(":scope > figcaption");
    if (caption) this.root.append(caption);  // under the figure's parts, as the build writes it
    if (caption && !caption.id) caption.id = this.id + "-caption";
    if (!this.root.hasAttribute("aria-labelledby")) {
      this.root.setAttribute("aria-labelledby", this.titleEl.id + (caption ? " " + caption.id : ""));
    }
    const self = this;
    this.root.addEventListener("mouseover", function (event) {
      const target = event.target.closest("[data-link]");
      if (target && self.root.contains(target)) self.hover(target.dataset.link);
    });
    this.root.addEventListener("mouseout", function (event) {
      const target = event.target.closest("[data-link]");
      if (target && !(event.relatedTarget && target.contains(event.relatedTarget))) self.hover(null);
    });
    this.root.addEventListener("focusin", function (event) {
      const target = event.target.closest("[data-link]");
      if (target) self.hover(target.dataset.link);
    });
  };

  /* Draw a scene: panels and controls are created once and updated in place. */
  Figure.prototype.render = function (scene, completed) {
    // Controls rebuilt by a redraw must not drop the keyboard's focus: it moves to the
    // new element that stands for the same thing (same data-focus-key).
    const active = document.activeElement;
    const focusKey = active && this.root.contains(active) && active.dataset ? active.dataset.focusKey : null;
    this.scene = scene;
    this.values = scene.values || {};
    ex.setText(this.titleEl, scene.title || "");
    this.titleEl.hidden = !scene.title;
    ex.setText(this.statusEl, scene.status || "");
    const pieces = this.pieces;  // a figure made in pieces: only the pieces made so far
    this.sync((scene.panels || []).slice(0, pieces ? pieces.panels : undefined), this.panelViews, ex.panels, "panel");
    this.sync(pieces && !pieces.controls ? [] : scene.controls || [], this.controlViews, ex.controls, "control");
    this.place();
    if (this.hot) this.hover(this.hot, true);
    if (focusKey && !this.root.contains(document.activeElement)) {
      const again = this.root.querySelector('[data-focus-key="' + CSS.escape(focusKey) + '"]');
      if (again) again.focus({ preventScroll: true });
    }
    // Anything bound to this figure (live numbers in the prose) learns of the change
    // (``completed``: the same change again, its scene now whole: see complete).
    this.root.dispatchEvent(new CustomEvent("explorables:change",
      { bubbles: true, detail: { id: this.id, values: this.values, state: this.state, off: this.offExample.bind(this),
        completed: !!completed } }));
  };

  /* Whether the reader has changed the lesson's example (a state key of the figure's
     ``subject``, engine/figures/base.py): prose about its tokens then holds its numbers. */
  Figure.prototype.offExample = function () {
    const now = this.state || {};
    return this.subject.some(function (kept) { return JSON.stringify(now[kept[0]]) !== kept[1]; });
  };

  /* Create, update or remove one view a spec; place() puts them in order. `adding`: only
     create the views of `specs`, keeping the others (unfold). */
  Figure.prototype.sync = function (specs, views, kinds, what, adding) {
    const seen = {};
    for (const spec of specs) {
      const key = spec.kind + ":" + (spec.id || spec.name);
      seen[key] = true;
      const view = views[key];
      if (view) {
        view.update(spec);
      } else {
        const create = kinds[spec.kind];
        if (!create) { console.error("Explorables: unknown " + what + " kind '" + spec.kind + "'"); continue; }
        views[key] = create(this, spec);
        views[key].el.dataset.key = key;
      }
    }
    if (adding) return;
    for (const key of Object.keys(views)) {
      if (!seen[key]) { if (views[key].stop) views[key].stop(); views[key].el.remove(); delete views[key]; }
    }
  };

  /* Where each control sits. Wide: every control in the side column, beside the panels.
     Narrow (one column): a control that names a panel ("near") sits in a group right
     after that panel, the others after the last panel. The DOM order is the visual order
     in both, so Tab and a screen reader walk the figure from top to bottom. */
  Figure.prototype.place = function () {
    const narrow = window.matchMedia(NARROW).matches;
    const self = this;
    const active = document.activeElement;
    const panels = [];
    const near = Object.create(null);  // panel id -> the controls placed after it
    const coming = Object.create(null);  // the panels not made yet (a figure still unfolding)
    const rest = [];
    (this.scene.panels || []).forEach(function (spec) {
      const view = self.panelViews[spec.kind + ":" + (spec.id || spec.name)];
      if (view) { panels.push({ id: spec.id, el: view.el }); near[spec.id] = []; } else coming[spec.id] = true;
    });
    (this.scene.controls || []).forEach(function (spec) {
      const view = self.controlViews[spec.kind + ":" + (spec.id || spec.name)];
      if (!view) return;
      if (narrow && spec.near && near[spec.near]) near[spec.near].push(view.el);
      // narrow, its panel still to come: placed with it, not laid out first where it would not stay
      else if (narrow && spec.near && coming[spec.near]) view.el.remove();
      else rest.push(view.el);
    });
    const inPanels = [];
    const groups = this.nearGroups || (this.nearGroups = Object.create(null));
    panels.forEach(function (panel) {
      inPanels.push(panel.el);
      if (!near[panel.id].length) return;
      const group = groups[panel.id] || (groups[panel.id] = ex.el("div", { class: "ex-side ex-near" }));
      arrange(group, near[panel.id]);
      inPanels.push(group);
    });
    arrange(this.panelsEl, inPanels);
    arrange(this.controlsEl, rest);
    this.skipEl.hidden = narrow || !rest.length;  // narrow: each control follows its panel
    for (const id of Object.keys(groups)) {  // groups left empty go
      if (!groups[id].children.length) { groups[id].remove(); delete groups[id]; }
    }
    // moving a node drops the keyboard's focus: give it back
    if (active && active !== document.activeElement && active.isConnected && this.root.contains(active)) {
      active.focus({ preventScroll: true });
    }
  };

  /* Make `els` the children of `container`, in order, moving as few nodes as it can. */
  function arrange(container, els) {
    els.forEach(function (el, i) { if (container.children[i] !== el) container.insertBefore(el, container.children[i] || null); });
    while (container.children.length > els.length) container.lastElementChild.remove();
  }

  /* Light one token in every panel (pure view: no engine call). */
  Figure.prototype.hover = function (link, force) {
    if (link === this.hot && !force) return;
    this.hot = link;
    this.root.classList.toggle("ex-hovering", !!link);
    this.root.querySelectorAll(".ex-hot").forEach(function (el) { el.classList.remove("ex-hot"); });
    if (link) {
      this.root.querySelectorAll('[data-link="' + CSS.escape(link) + '"]').forEach(function (el) { el.classList.add("ex-hot"); });
    }
    for (const key of Object.keys(this.panelViews)) this.panelViews[key].highlight(link);
  };

  /* Page coordinates of a mark in a plane panel: {x, y}, or null. */
  Figure.prototype.locate = function (panelId, markId) {
    for (const key of Object.keys(this.panelViews)) {
      const view = this.panelViews[key];
      if (key.endsWith(":" + panelId) && view.locate) {
        const at = view.locate(markId);
        return at ? { x: at.x, y: at.y } : null;
      }
    }
    return null;
  };

  /* Test and debug API: for each plane (and chart) of the figure, the canvas size and
     every name drawn on it (see SCENE.md, "Where labels go"). */
  Figure.prototype.labels = function () {
    const out = [];
    for (const key of Object.keys(this.panelViews)) {
      const view = this.panelViews[key];
      if (view.labels) out.push(view.labels());
    }
    return out;
  };

  Figure.prototype.field = function (name) {
    for (const key of Object.keys(this.controlViews)) {
      const fields = this.controlViews[key].fields;
      if (fields && fields[name]) return fields[name];
    }
    return null;
  };

  Figure.prototype.showFieldError = function (name, message) {
    const field = name ? this.field(name) : null;
    if (!field) { this.showError(message, false); return; }
    if (this.sayChange) this.sayChange(true);  // the change drawn before it, if not said yet, first (figure-speech.js)
    field.fail(message);
    this.announce(message);
  };

  /* A message on the figure, cleared by the next good answer. A bug (not a reader's
     mistake) also goes to the console as an error, with its ``detail`` if given. */
  Figure.prototype.showError = function (message, bug, detail) {
    this.errorEl.textContent = message;
    this.errorEl.hidden = false;
    if (bug) console.error("Explorables figure '" + this.id + "': " + (detail || message));
    else console.warn("Explorables figure '" + this.id + "': " + message);
  };

  Figure.prototype.clearFieldError = function (event) {
    if (event.type === "set") { const field = this.field(event.name); if (field) field.ok(); }
    if (event.type === "action") {  // a preset or experiment rewrites fields: clear stale errors
      for (const key of Object.keys(this.controlViews)) {
        const fields = this.controlViews[key].fields || {};
        for (const name of Object.keys(fields)) fields[name].ok();
      }
    }
  };

  /* The page the browser loaded makes and lays out a new figure over a few frames
     (boot.js): its first panels (the `pieces` it was made with) at once, then its
     controls, then one more panel each frame. Made and laid out whole (panels, tables,
     form controls) in one task, a figure was the longest task of a page's start, four
     times longer on a phone. Each piece is made in a task of its own just after a frame,
     and styled, laid out and painted in the next frame's: made in an animation-frame
     callback, it shared that frame's task with its layout and paint. `settle`: the first
     panels' style and layout get a frame of their own before the controls come (a table
     of 144 cells and the controls in one frame were a task of 180 ms on a phone). Resolves
     once every part shows. */
  Figure.prototype.unfold = function (settle) {
    const self = this;
    this.controlsEl.classList.add("ex-held");  // (an empty side column would take its place a frame early)
    return new Promise(function (resolve) {
      let waited = 0;  // frames waited in a row for an answer
      const next = function () {
        const pieces = self.pieces;
        if (!pieces) { self.controlsEl.classList.remove("ex-held"); resolve(); return; }
        // a page left meanwhile (the reader went on): its figure is not made further
        if (!self.root.isConnected) { resolve(); return; }
        // a change of the reader's is being computed: its answer is drawn first, and the
        // pieces still to come are made from it (figure-engine.js answerFirst)
        const answering = self.answerFirst(waited);
        waited = answering ? waited + 1 : 0;
        if (settle || answering) { settle = false; ex.afterFrame(next); return; }
        const panels = self.scene.panels || [];
        if (!pieces.controls) {
          pieces.controls = true;
          self.sync(self.scene.controls || [], self.controlViews, ex.controls, "control");
          self.controlsEl.classList.remove("ex-held");
        } else if (pieces.panels < panels.length) {
          const spec = panels[pieces.panels++];
          self.sync([spec], self.panelViews, ex.panels, "panel", true);
        }
        if (pieces.panels >= panels.length) self.pieces = null;
        self.place();
        if (self.failed) self.disable();
        if (self.hot) self.hover(self.hot, true);
        ex.afterFrame(next);
      };
      ex.afterFrame(next);
    });
  };

  /* Say something now, through the page's one announcer. */
  Figure.prototype.announce = function (text) { if (text && ex.pages) ex.pages.announce(text); };

  Figure.prototype.setLive = function () {
    this.live = true;
    this.root.classList.remove("ex-loading");
    this.root.classList.add("ex-live");
    this.badge.textContent = "";
    this.badge.hidden = true;
    this.complete();
  };

  /* Every control of a figure that failed off (those it makes as it unfolds too). */
  Figure.prototype.disable = function () {
    this.root.querySelectorAll("input, button, select, textarea").forEach(function (c) { c.disabled = true; });
  };

  Figure.prototype.fail = function (err, lead) {
    const message = (err && err.message) || String(err);
    this.failed = err || new Error(message);  // from now on send() refuses; controls are disabled
    this.disable();
    this.root.classList.remove("ex-loading");
    this.root.classList.add("ex-failed");
    // Python never started: the figure shows the build's still of its first frame, and
    // the sentence under it says what the live figure would let the reader do.
    if (!this.live) this.root.classList.add("ex-unstarted");
    this.badge.hidden = false;
    this.badge.textContent = ex.t("runtime.not_interactive");
    this.errorEl.textContent = (lead || ex.t("runtime.cannot_start")) + message;
    this.errorEl.hidden = false;
    console.error("Explorables figure '" + this.id + "': " + message);
  };

  /* The layout (one column or two) and the colour scheme can change while a lesson is
     open: a turned phone, a zoom, the system going dark. Every figure on the page follows. */
  function everyFigure(fn) {
    for (const id of Object.keys(ex.figures)) {
      const figure = ex.figures[id];
      if (figure && figure.root && figure.root.isConnected) fn(figure);
    }
  }
  if (window.matchMedia) {
    window.matchMedia(NARROW).addEventListener("change", function () {
      everyFigure(function (figure) { figure.place(); });
    });
    window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () {
      everyFigure(function (figure) { figure.render(figure.scene); });  // canvases and cell inks read the colours anew
    });
  }

  ex.Figure = Figure;
})();
