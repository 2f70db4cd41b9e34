/* Prose bound to the figures of its page (the roles of site_builder/directives/roles.py):
   - .ex-value: a live number, rewritten from the figure's values after every redraw
     (figure.js dispatches "explorables:change" on the figure); once the change has
     settled, the page's one shared announcer says the numbers that changed.
   - .ex-adjust: an adjustable number (an ARIA slider in the sentence): drag it sideways
     or use the arrow keys; it sets the figure's control and follows it back.
   - .ex-try: a button that runs one of the figure's experiments.
   Everything is delegated from the document, so pages swapped in place need no setup.
   Loaded after the first frame (js/later.js): nothing here draws. It comes after
   figure-speech.js there, whose settle time and held pointer it shares. */
(function () {
  "use strict";
  const ex = window.explorables;
  const SETTLE_MS = ex.SETTLE_MS;  // quiet time after the last redraw before numbers are spoken
  const DRAG_PX = 300;    // a drag this wide sweeps an adjustable number's whole range
  const said = new WeakMap();  // live number -> the text last announced (or built)
  const built = new WeakMap();  // live number -> its text as built: the lesson's example
  const timers = new Map();  // figure id -> pending announcement

  /* The formats of kit/values.py Value.text (and roles.py write), by the one formatter. */
  const number = ex.number;
  function write(raw, format, digits) {
    if (format === "percent") return number.percent(raw);
    if (format === "decimal") return number.fixed(raw, digits);
    if (format === "integer") return number.fixed(Math.trunc(raw), 0);
    if (format === "vector") return number.vector(raw, digits);
    if (format === "bool") return raw ? ex.t("runtime.on") : ex.t("runtime.off");
    return String(raw);
  }
  ex.prose = { write: write };

  function of(selector, id) {
    return document.querySelectorAll(selector + '[data-figure="' + CSS.escape(id) + '"]');
  }

  function rawValue(span, values) {
    let raw = Object.prototype.hasOwnProperty.call(values, span.dataset.value) ? values[span.dataset.value] : undefined;
    if (span.dataset.index !== undefined) {  // "1", or "2,3" for a cell of a table
      span.dataset.index.split(",").forEach(function (i) { raw = raw ? raw[Number(i)] : raw; });
    }
    return raw;
  }

  /* A number quoted by position (cat's weight, row 2 of the table) speaks of the lesson's
     example: while the reader has changed the example (``off``), it keeps the lesson's
     number, marked, rather than give the same words another token's number. */
  function hold(span, off) {
    if (!built.has(span)) built.set(span, span.textContent);
    const held = span.dataset.index !== undefined && off();
    if (held !== span.classList.contains("ex-value-held")) {
      span.classList.toggle("ex-value-held", held);
      if (held) span.title = ex.t("runtime.value_held");
      else span.removeAttribute("title");
    }
    if (held) span.textContent = built.get(span);
    return held;
  }

  /* ``offExample``: whether the figure shows another example than the lesson's, asked at
     most once a redraw and only when a number quoted by position is bound to it (it
     compares the figure's state, tables of vectors included). */
  function refresh(id, values, state, offExample) {
    let known;
    const off = function () { return known === undefined ? (known = !!(offExample && offExample())) : known; };
    of(".ex-value", id).forEach(function (span) {
      if (!said.has(span)) said.set(span, span.textContent);
      if (hold(span, off)) return;
      const raw = rawValue(span, values);
      if (raw === undefined || raw === null) return;
      const text = write(raw, span.dataset.format, Number(span.dataset.digits));
      if (span.textContent !== text) span.textContent = text;
    });
    of(".ex-adjust", id).forEach(function (el) {
      follow(el);
      if (el.classList.contains("ex-dragging") || !state || typeof state[el.dataset.param] !== "number") return;
      show(el, state[el.dataset.param]);
    });
  }

  /* Speak the live numbers of figure ``id`` that changed, once the figure is quiet. */
  function settle(id) {
    clearTimeout(timers.get(id));
    timers.set(id, setTimeout(function () {
      const figure = ex.figures[id];
      if (ex.pointerHeld() || (figure && figure.changing())) { settle(id); return; }
      sayNumbers(id);
    }, SETTLE_MS));
  }
  /* Now, the numbers of figure ``id`` waiting to be said (figure-speech.js: with the
     change it says early, before a refusal of the reader's next step). */
  ex.prose.sayNow = function (id) {
    if (!timers.has(id)) return;
    clearTimeout(timers.get(id));
    sayNumbers(id);
  };
  function sayNumbers(id) {
    const figure = ex.figures[id];
    timers.delete(id);
    if (figure && figure.quietly) return;  // Play is running: said when it pauses
    const parts = [];
    of(".ex-value", id).forEach(function (span) {
      const text = span.textContent;
      if (said.get(span) === text || span.classList.contains("ex-value-held")) return;
      said.set(span, text);
      const part = (span.dataset.say || "{}").replace("{}", text);
      if (parts.indexOf(part) < 0) parts.push(part);
    });
    if (!parts.length) return;
    // the figure is about to say its own change: the numbers follow in the same message
    if (figure && figure.saying) figure.alsoSay(parts.join("; "));
    else if (ex.pages) ex.pages.announce(parts.join("; "));
  }

  document.addEventListener("explorables:change", function (event) {
    const detail = event.detail || {};
    if (!detail.id) return;
    refresh(detail.id, detail.values || {}, detail.state, detail.off);
    if (!detail.completed) settle(detail.id);  // a change's scene made whole changes no number
  });

  /* --- adjustable numbers ------------------------------------------------------------ */

  /* The slider's control (kit/params.py Slider.control_dict): from the first frame as
     built, then from each new scene (refresh). */
  function range(el) { return JSON.parse(el.dataset.control); }

  /* Take the range, step and scale of the figure's control as its scene now declares them. */
  function follow(el) {
    const figure = ex.figures[el.dataset.figure];
    const controls = (figure && figure.scene && figure.scene.controls) || [];
    const control = controls.find(function (c) { return c.name === el.dataset.param; });
    if (!control) return;
    el.dataset.control = JSON.stringify(control);
    el.setAttribute("aria-valuemin", String(control.min));
    el.setAttribute("aria-valuemax", String(control.max));
  }

  function show(el, value) {
    const text = number.fixed(value, range(el).digits);
    el.textContent = text;
    el.setAttribute("aria-valuenow", String(value));
    el.setAttribute("aria-valuetext", text);
  }

  function clamp(el, value) {
    const r = range(el);
    const snapped = r.min + Math.round((value - r.min) / r.step) * r.step;
    return Math.min(r.max, Math.max(r.min, Number(snapped.toFixed(Math.max(r.digits, 0)))));
  }

  function set(el, value) {
    value = clamp(el, value);
    if (value === Number(el.getAttribute("aria-valuenow"))) return;
    show(el, value);
    const figure = ex.figures[el.dataset.figure];
    if (!figure) { console.error("Explorables: no figure '" + el.dataset.figure + "' for an adjustable number"); return; }
    figure.send({ type: "set", name: el.dataset.param, value: value }).catch(function () {});
  }

  document.addEventListener("pointerdown", function (event) {
    const el = event.target.closest && event.target.closest(".ex-adjust");
    if (!el || event.button !== 0) return;
    event.preventDefault();
    el.focus();
    const r = range(el);
    const x0 = event.clientX;
    const v0 = Number(el.getAttribute("aria-valuenow"));
    el.classList.add("ex-dragging");
    el.setPointerCapture(event.pointerId);
    function move(e) {
      const share = (e.clientX - x0) / DRAG_PX;
      set(el, ex.range.of(r, ex.range.at(r, v0) + share * (ex.range.at(r, r.max) - ex.range.at(r, r.min))));
    }
    function up() {
      el.classList.remove("ex-dragging");
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
    }
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  });

  document.addEventListener("keydown", function (event) {
    const el = event.target.closest && event.target.closest(".ex-adjust");
    if (!el || event.altKey || event.ctrlKey || event.metaKey) return;
    const r = range(el);
    const value = Number(el.getAttribute("aria-valuenow"));
    const big = event.shiftKey ? 10 : 1;
    let next = null;
    if (event.key === "ArrowRight" || event.key === "ArrowUp") next = ex.range.next(r, value, big);
    else if (event.key === "ArrowLeft" || event.key === "ArrowDown") next = ex.range.next(r, value, -big);
    else if (event.key === "PageUp") next = ex.range.next(r, value, 10);
    else if (event.key === "PageDown") next = ex.range.next(r, value, -10);
    else if (event.key === "Home") next = r.min;
    else if (event.key === "End") next = r.max;
    if (next === null) return;
    event.preventDefault();
    // a log step smaller than the precision would not move: take one step of the precision
    if (clamp(el, next) === value && next !== value) next = value + Math.sign(next - value) * r.step;
    set(el, next);
  });

  /* --- experiments from the text ------------------------------------------------------ */

  /* The way back to the sentence a {try} button took the reader away from: a button in
     the window's corner until it is used, the sentence is in view again, or another page
     comes. */
  let back = null;
  function leaveBack() {
    if (!back) return;
    back.el.remove();
    window.removeEventListener("scroll", back.check);
    back = null;
  }
  function offerBack(from) {
    leaveBack();
    const el = ex.el("button", { type: "button", class: "ex-button ex-back-to-text" }, ex.t("runtime.back_to_text"));
    const check = function () {  // the reader came back by themselves
      const r = from.getBoundingClientRect();
      if (back && back.away && r.bottom > 0 && r.top < window.innerHeight) leaveBack();
      else if (back && (r.bottom < 0 || r.top > window.innerHeight)) back.away = true;
    };
    el.addEventListener("click", function () {
      leaveBack();
      from.scrollIntoView({ block: "center", behavior: ex.reducedMotion() ? "auto" : "smooth" });
      from.focus({ preventScroll: true });
    });
    back = { el: el, check: check, away: false };
    window.addEventListener("scroll", check, { passive: true });
    document.body.append(el);
  }
  if (ex.pages) ex.pages.on("unmount", leaveBack);

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest(".ex-try");
    if (!button) return;
    const figure = ex.figures[button.dataset.figure];
    if (!figure) { console.error("Explorables: no figure '" + button.dataset.figure + "' for an experiment"); return; }
    figure.send({ type: "action", name: button.dataset.experiment }).catch(function () {});
    const box = figure.root.getBoundingClientRect();
    const off = box.bottom < 0 || box.top > window.innerHeight;
    if (off) {
      // a figure taller than the window shows its top, where the experiment's changes are
      // drawn, not its last readout ("nearest" lines up the edge it comes in by)
      figure.root.scrollIntoView({ block: box.height > window.innerHeight ? "start" : "nearest",
                                   behavior: ex.reducedMotion() ? "auto" : "smooth" });
      // the reader is taken to the figure: so is the keyboard; and the way back is offered
      if (!figure.root.hasAttribute("tabindex")) figure.root.setAttribute("tabindex", "-1");
      figure.root.focus({ preventScroll: true });
      offerBack(button);
    }
  });

  function quiet() {
    timers.forEach(function (timer) { clearTimeout(timer); });
    timers.clear();
  }
  if (ex.pages) {
    ex.pages.on("unmount", quiet);
    // A page swapped in (or back) shows its numbers as they are: the title is what is
    // announced then, so the numbers restored with its figures are not spoken.
    ex.pages.on("mount", shown);
  }
  function shown(root) {
    quiet();
    root.querySelectorAll(".ex-value").forEach(function (span) { said.set(span, span.textContent); });
    root.querySelectorAll(".ex-adjust").forEach(follow);
  }
  // loaded after the first frame (js/later.js): the page is there already, its numbers as built
  shown(document.body);
})();
