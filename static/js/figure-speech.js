/* What a figure says to screen readers (figure.js draws it): a reader's change, once
   the figure is quiet, with its status line and the live numbers of the prose bound to
   it, through the page's one announcer (pages.js). Part of js/later.js: nothing here is
   needed before the engine is live. */
(function () {
  "use strict";
  const ex = window.explorables;
  const Figure = ex.Figure;
  // quiet time after a reader's last change before it is said, by the figure and by the
  // live numbers of the prose bound to it (prose.js), so that both speak together
  const SETTLE_MS = ex.SETTLE_MS = 400;
  let pressed = 0;        // pointers held down on the page
  document.addEventListener("pointerdown", function () { pressed += 1; }, true);
  ["pointerup", "pointercancel"].forEach(function (type) {
    document.addEventListener(type, function () { pressed = Math.max(0, pressed - 1); }, true);
  });
  /* Whether a pointer is held down on the page: a drag has not ended, nothing is said. */
  ex.pointerHeld = function () { return pressed > 0; };

  /* A message of the engine quoting a reader's long value keeps a short prefix of it
     (client.js): a refused 10,000-character input, quoted whole, widened the page. */
  const QUOTE = 40;  // characters of a reader's refused value quoted back
  ex.clipQuotes = function (message) {
    return String(message).replace(/'([^'\n]{41,})'|"([^"\n]{41,})"/g, function (all, single, double) {
      const value = single !== undefined ? single : double;
      return ex.t("runtime.clipped", { start: value.slice(0, QUOTE), n: value.length });
    });
  };

  /* What a figure shows of the engine (client.js onStatus, called by boot.js): "stopped"
     (why, the figure's last frame kept, and a button that starts the engine again),
     "restarting", "live". An engine that stopped before this script came is said now. */
  ex.engineSays = function (f, status, detail) {
    f.root.classList.toggle("ex-stopped", status === "stopped");
    f.root.classList.toggle("ex-restarting", status === "restarting");
    f.badge.hidden = status !== "restarting";
    f.badge.textContent = status === "restarting" ? ex.t("runtime.restarting") : "";
    if (f.restartEl) f.restartEl.hidden = status !== "stopped";
    if (status === "live") f.errorEl.hidden = true;
    if (status !== "stopped") return;
    f.showError(ex.t("runtime.engine_stopped", { detail: detail }), false);
    if (!f.restartEl) {
      f.restartEl = ex.el("button", { type: "button", class: "ex-button ex-restart", onclick: function () {
        f.root.setAttribute("tabindex", "-1");  // the focus stays on the figure, not the button that goes
        f.root.focus({ preventScroll: true });
        ex.client.restart();
      } }, ex.t("runtime.restart_engine"));
      f.errorEl.after(f.restartEl);
    }
  };
  if (ex.client && ex.client.stopped) {
    Object.values(ex.figures).forEach(function (f) { ex.engineSays(f, "stopped", ex.client.stopped); });
  }

  /* Parts said one after another, each ended by a full stop unless it ends with its own
     ("Why divide by √dₖ?", not "Why divide by √dₖ?."). */
  function sentences(parts) {
    return parts.filter(Boolean).reduce(function (text, part) {
      return !text ? part : text + (/[.?!:…]$/.test(text) ? " " : ". ") + part;
    }, "");
  }

  /* After a reader's change has been drawn: remember what changed, and once the figure
     is quiet (no computation queued, no pointer held down, SETTLE_MS without a redraw)
     say it once, with the figure's status line: "Temperature T 0.60. “chased” asks; best
     match: “cat” (45%)". A drag or a held arrow key is one change, said at its end. */
  Figure.prototype.changed = function (event) {
    const self = this;
    this.lastChange = event;
    this.saying = true;
    clearTimeout(this.sayTimer);
    this.sayTimer = setTimeout(function settle() {
      if (self.changing() || ex.pointerHeld()) { self.sayTimer = setTimeout(settle, SETTLE_MS); return; }
      self.sayChange();
    }, SETTLE_MS);
  };

  /* Say the change waiting to be said, now. ``early``: because the figure is about to say
     that the reader's next step was refused (a number it cannot take): the change drawn
     before it comes first, in the same message, rather than after it as if it were the
     latest (unless more changes are on their way, or a pointer is still held). */
  Figure.prototype.sayChange = function (early) {
    if (!this.saying || (early && (this.queue.length || ex.pointerHeld()))) return;
    clearTimeout(this.sayTimer);
    if (early && ex.prose && ex.prose.sayNow) ex.prose.sayNow(this.id);  // the prose's numbers of the change, with it
    this.saying = false;
    if (!document.body.contains(this.root)) { this.also = []; return; }
    const said = this.cause(this.lastChange);
    if (said === null) { this.also = []; return; }  // Play started: its ticks say nothing, its pause will
    // first in the message, before the live numbers of the prose said at the same time
    const also = this.also || [];
    this.also = [];
    if (ex.pages) ex.pages.announce(sentences([said, this.scene.status].concat(also)), -1);
  };

  /* More words for the change about to be said (the live numbers of the prose). */
  Figure.prototype.alsoSay = function (text) {
    if (!this.also) this.also = [];
    if (this.also.indexOf(text) < 0) this.also.push(text);
  };

  /* What a reader's event changed, in a few words, read from the scene just drawn. */
  Figure.prototype.cause = function (event) {
    const controls = this.scene.controls || [];
    if (event.type === "set") {
      const control = controls.find(function (c) { return c.name === event.name; });
      if (control && control.kind === "slider") return control.label + " " + ex.fmt(Number(control.value), control.digits === undefined ? 2 : control.digits);
      if (control && control.kind === "toggle") return control.label + " " + ex.t(control.value ? "runtime.on" : "runtime.off");
      if (control && control.kind === "play") return control.playing ? null : ex.t("runtime.paused");
      if (control && control.kind === "select") {
        const option = (control.options || []).find(function (o) { return String(o.value) === String(control.value); });
        return control.label + ": " + (option ? option.label : control.value);
      }
      const field = this.field(event.name);  // what was sent, which the field may no longer hold
      if (field) return field.label + " " + event.value;
      return "";
    }
    if (event.type === "drag") {
      for (const panel of this.scene.panels || []) {
        const mark = (panel.marks || []).find(function (m) {
          return m.ref ? m.ref.mark === event.mark && m.ref.index === event.index : m.id === event.mark;
        });
        if (!mark) continue;
        const head = mark.kind === "arrow";  // an arrow is dragged by its head
        return mark.name || ex.t("runtime.point_at", { name: mark.label || mark.id,
          point: "(" + ex.fmt(head ? mark.x2 : mark.x) + ex.listSeparator() + ex.fmt(head ? mark.y2 : mark.y) + ")" });
      }
      return "";
    }
    if (event.type === "action") {
      for (const control of controls) {
        const item = (control.items || control.presets || []).find(function (i) { return i.name === event.name; });
        if (item) return item.label;
      }
    }
    return "";
  };
})();
