/* A figure's talk with the engine (figure.js draws it): a reader's events queue, one
   computation is in flight at a time, newer events of the same kind on the same target
   replace older ones, and each answer is drawn. While the reader looks at no cell's
   arithmetic an answer leaves it out, and the whole scene follows when the page is idle. */
(function () {
  "use strict";
  const ex = window.explorables;
  const Figure = ex.Figure;

  /* Send a reader's event to the engine. ``options.quiet``: draw the answer but say
     nothing (Play's ticks); ``options.whole``: the scene with its cells' arithmetic
     even while the reader looks at none (complete). */
  Figure.prototype.send = function (event, options) {
    const self = this;
    const quiet = !!(options && options.quiet);
    const whole = !!(options && options.whole);
    if (this.failed) return Promise.reject(this.failed);
    return new Promise(function (resolve, reject) {
      const last = self.queue[self.queue.length - 1];
      const sameTarget = last && last.event.type === event.type &&
        (event.type === "drag" ? last.event.mark === event.mark && last.event.index === event.index
          : event.type === "set" && last.event.name === event.name);
      if (sameTarget) {
        last.event = event;
        last.quiet = last.quiet && quiet;
        last.waiters.push({ resolve: resolve, reject: reject });
      } else {
        self.queue.push({ event: event, quiet: quiet, whole: whole, waiters: [{ resolve: resolve, reject: reject }] });
      }
      self.pump();
    });
  };

  /* update({temperature: 0.5}): a promise that resolves after recompute and redraw. */
  Figure.prototype.update = function (patch) {
    return this.send({ type: "patch", patch: patch });
  };

  /* Resolves once every queued event has been computed and drawn. */
  Figure.prototype.idle = async function () {
    await ex.ready;
    while (this.busy || this.queue.length) {
      await new Promise(function (resolve) { setTimeout(resolve, 10); });
    }
    return this.values;
  };

  Figure.prototype.pump = async function () {
    if (this.busy) return;
    this.busy = true;
    let refused = false;  // a change the figure's own code could not draw
    try {
      await ex.ready;
      while (this.queue.length) {
        const item = this.queue.shift();
        this.computing = item;
        let result;
        try {
          // while no cell's arithmetic is looked at, the engine leaves it out (complete)
          result = await ex.client.step(this.name, this.state, item.event, !item.whole && !this.wantsDetail());
        } catch (err) {  // one event failed; the figure keeps its last good state
          if (item.whole) this.unwhole = this.scene;
          if (!this.failed) this.showError(ex.t("runtime.change_failed") + ((err && err.message) || err), true);
          item.waiters.forEach(function (w) { w.reject(err); });
          continue;
        }
        if (result.ok && item.whole && this.queue.length) {
          // a reader's change came meanwhile: this scene is stale (drawn, it would pull a
          // toggle the reader just clicked back for a moment), and the next answer brings it
          item.waiters.forEach(function (w) { w.resolve(result.scene.values || {}); });
        } else if (result.ok) {
          this.state = result.state;
          this.clearFieldError(item.event);
          // a Play tick: the prose's numbers wait too (the whole scene after an answer
          // changes no number: whether they wait is the answer's to say)
          if (!item.whole) this.quietly = !!item.quiet;
          this.render(result.scene, item.whole);
          // (said by figure-speech.js, in js/later.js: it comes a moment after the first
          // frame, before the engine is live and the controls take a reader's change)
          if (!item.quiet && item.event.type !== "patch" && this.changed) this.changed(item.event);
          this.errorEl.hidden = true;
          item.waiters.forEach(function (w) { w.resolve(result.scene.values || {}); });
        } else if (result.internal) {  // the figure's own code failed: the reader is told in plain words
          refused = true;
          if (item.whole) this.unwhole = this.scene;  // not asked again for this scene
          // (a preview, livereload.js's, shows its author the file and line)
          this.showError(ex.preview ? result.error : ex.t("runtime.figure_failed"), true, result.error);
          const error = new Error(result.error);
          item.waiters.forEach(function (w) { w.reject(error); });
        } else {
          this.showFieldError(result.field, result.error);
          const error = new Error(result.error);
          error.field = result.field;
          item.waiters.forEach(function (w) { w.reject(error); });
        }
      }
    } catch (err) {
      this.fail(err);
      const queued = this.queue.splice(0);
      queued.forEach(function (item) { item.waiters.forEach(function (w) { w.reject(err); }); });
    } finally {
      this.busy = false;
      this.computing = null;
    }
    // the figure kept its last good state: so do its controls (a slider the reader moved
    // to where the figure failed goes back to where it was drawn)
    if (refused && !this.queue.length) this.render(this.scene);
    // an answer without the arithmetic: the whole scene follows, at once for a reader
    // who has come to look at it meanwhile (not while Play runs: its pause brings it)
    const looking = this.wantsDetail();
    if (this.live && !this.failed && !this.queue.length && (!this.quietly || looking)) {
      this.complete(looking || "idle");
    }
  };

  /* Whether a reader's change of the control ``name`` waits to be computed: an answer
     drawn meanwhile (an older one of this control, a Play tick) must not pull the
     control back from where the reader put it. The answer being drawn is the newest of
     the control's changes when none is queued. */
  Figure.prototype.setting = function (name) {
    return this.queue.some(function (item) {
      return !item.quiet && item.event.type === "set" && item.event.name === name;
    });
  };

  /* Whether a change is still being computed: an event queued or in flight. The whole
     scene asked for after an answer (complete) is none: it changes no number, and what
     the figure and the prose say of the change does not wait for it. */
  Figure.prototype.changing = function () {
    return this.queue.length > 0 || (this.busy && !(this.computing && this.computing.whole));
  };

  /* Whether work that can wait (the rest of the figure made in pieces, a plane's first
     drawing) waits a frame more, its ``waited``-th, for the answer to a change being
     computed: it is drawn from that answer, not once before it too. A few frames at
     most: a reader dragging on and on holds nothing back for long. */
  const ANSWER_FRAMES = 6;
  Figure.prototype.answerFirst = function (waited) {
    return this.live && this.changing() && waited < ANSWER_FRAMES;
  };

  /* Whether some live figure of the page waits for the engine's answer to a change: the
     page's work that can wait (the rest of a figure made in pieces, the parts laid out
     after the first frame: figure.js unfold, parts.js) waits for it, so that on a swapped
     page the answer is not drawn a frame or a part's layout later. */
  ex.answering = function () {
    return Object.values(ex.figures).some(function (f) { return f.answerFirst(0); });
  };

  /* Whether the reader looks at some cells' arithmetic: the pointer is on a table, or
     the focus in one (panels/cells.js). Answers then bring it. */
  Figure.prototype.wantsDetail = function () {
    const views = this.panelViews;
    return Object.keys(views).some(function (key) { return views[key].wantsDetail && views[key].wantsDetail(); });
  };

  /* A scene may leave out the cells' arithmetic ("detail_later"): the page's first
     frame does, and so do the engine's answers while the reader looks at none of it
     (about half of a table's scene: a drag is answered sooner). The live figure then
     asks for its scene whole: with complete(true) at once (a reader pointing at a cell),
     with "idle" when the page is next idle (after an answer), else a second later and
     idle (the first frame: a reader's first move, often sooner, comes first). A whole
     scene the engine could not draw is not asked for again until the next change. */
  function lacking(scene) {
    return (scene.panels || []).some(function (panel) { return panel.detail_later; });
  }
  Figure.prototype.complete = function (when) {
    const self = this;
    if (!lacking(this.scene) || this.unwhole === this.scene) return;
    const ask = function () {
      self.asking = false;
      if (!self.live || self.failed || !self.root.isConnected || self.busy || self.queue.length ||
          !lacking(self.scene) || self.unwhole === self.scene) return;  // (a busy figure asks when done)
      self.send({ type: "patch", patch: {} }, { quiet: true, whole: true }).catch(function () { /* shown by the figure */ });
    };
    if (when === true) { ask(); return; }
    if (this.asking) return;
    this.asking = true;
    const idle = function () {
      if (window.requestIdleCallback) window.requestIdleCallback(ask, { timeout: 1000 }); else ask();
    };
    if (when === "idle") idle(); else setTimeout(idle, 1000);
  };
})();
