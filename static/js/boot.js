/* Boot: draw every figure from its build-time scene at once, then start the engine. */
(function () {
  "use strict";
  const ex = window.explorables;


  /* A reader who saves data or has little memory (ex.frugal) starts Python with a Start
     button; an offline bundle carries Python already and starts at once. */
  function frugal() {
    return !(ex.bundle && ex.bundle.carried()) && ex.frugal();
  }

  /* Until the reader asks, each figure shows its first frame and a Start button. */
  function offerStart(figures) {
    const size = document.body.dataset.engineSize;
    const buttons = figures.map(function (f) {
      f.root.classList.remove("ex-loading");
      f.root.classList.add("ex-waiting");
      f.badge.hidden = true;
      const button = ex.el("button", { type: "button", class: "ex-button ex-start" },
        ex.t("runtime.start_figures") + (size ? " (" + size + ")" : ""));
      f.badge.before(button);
      return { figure: f, button: button };
    });
    buttons.forEach(function (b) {
      b.button.addEventListener("click", function () {
        ex._engineAsked = true;
        buttons.forEach(function (other) {
          other.button.remove();
          other.figure.root.classList.remove("ex-waiting");
          if (!other.figure.failed && !other.figure.live) {
            other.figure.root.classList.add("ex-loading");
            other.figure.badge.hidden = false;
          }
        });
        b.figure.root.setAttribute("tabindex", "-1");  // the focus stays on the figure asked for
        b.figure.root.focus({ preventScroll: true });
        ex.client.start();
      });
    });
  }

  /* Copy buttons, search and exercises (js/later.js) wait until the first frame is
     drawn: they are not part of it. Once a visit: a swapped-in page finds them. */
  let loadLater = null;  // loads js/later.js now, once the first frame is drawn
  function later() {
    if (ex._later) return;
    ex._later = true;
    if (!performance.getEntriesByName("explorables:first-frame").length) performance.mark("explorables:first-frame");
    loadLater = function () {
      if (!loadLater) return;
      loadLater = null;
      const script = document.createElement("script");
      script.src = ex.asset("later");
      document.body.append(script);
      if (ex.pages.ahead) ex.pages.ahead();  // the next lesson's page, while the reader reads (pages.js)
    };
    if (window.requestIdleCallback) window.requestIdleCallback(loadLater, { timeout: 300 });
    else setTimeout(loadLater, 0);
  }

  /* An exercise's answer, sent with Enter or its Check button, is never sent as a form
     (that would reload the page and lose it): js/exercise.js grades it. One sent before
     js/later.js has come waits for it, and asks for it now if the first frame is drawn. */
  document.addEventListener("submit", function (event) {
    const form = event.target.closest && event.target.closest(".ex-exercise .ex-answer");
    if (!form) return;
    event.preventDefault();
    if (ex.exercises) { ex.exercises.answer(form); return; }
    ex._unchecked = (ex._unchecked || []).filter(function (other) { return other !== form; }).concat([form]);
    if (loadLater) loadLater();
  });

  /* What the engine said to the figures drawn so far ("live", or the error it failed
     with): a figure drawn after that is told at once. */
  let told = null;
  function tell(figure) {
    if (!told && figure) downloading(figure);
    if (!told || !figure) return;
    if (told === "live") {
      figure.setLive();
      if (ex.client.stopped && ex.engineSays) ex.engineSays(figure, "stopped", ex.client.stopped);
    } else {
      figure.fail(told);
    }
  }

  /* How much of Python and the engine has come, on the figure's badge while it waits
     ("Python 4.1 of 14.3 MB", and its ring filled as much: --ex-done), then what it said
     before ("Starting Python…"). */
  function downloading(figure) {
    const total = parseFloat(document.body.dataset.engineSize) * 1e6;
    const done = ex.client.downloaded;
    if (figure.live || figure.failed || !done || !(total > 0)) return;
    figure.badge.style.setProperty("--ex-done", String(Math.min(1, done / total)));
    figure.badge.textContent = done >= total ? ex.t("runtime.starting")
      : ex.t("runtime.downloaded", { done: ex.fmt(done / 1e6, 1), total: ex.fmt(total / 1e6, 1) });
  }

  /* One figure from its build-time scene (null if it cannot be drawn); `pieces`: the
     panels made at once, the rest as it unfolds (figure.js). */
  function make(root, pieces) {
    const data = root.querySelector("script.ex-data");
    try {
      return (ex.figures[root.id] = new ex.Figure(root, JSON.parse(data.textContent), pieces));
    } catch (err) {
      root.append(ex.el("div", { class: "ex-error", role: "alert" }, ex.t("runtime.cannot_draw") + err.message));
      console.error("Explorables figure '" + root.id + "': " + err.message);
      return null;
    }
  }
  const MADE_AT_ONCE = 1;  // panels of a figure made and laid out in the task that first shows it

  let generation = 0;  // a page swapped in while the first one's figures were being drawn wins
  // a figure this near the reader's view (a screen above or below it) is drawn soon: before
  // the first frame if the reader sees some of it, in the tasks after it if not; the others
  // when they come as near, or once Python is live
  const NEAR = "100% 0px";

  /* Draw the page's figures and start the engine. The page the browser loaded draws
     them one per task (`gradually`): each figure's first drawing is tens of milliseconds
     (four times that on a phone), and together with the page's first layout they were
     one long task, in which the page could not answer a reader. Only the figures in the
     reader's view are drawn before the first frame, and those a screen from it just
     after; a figure further down shows its still (the build's drawing of its first
     frame) until it comes near, or until the page is idle once Python is live, and is
     then drawn in a task of its own. A page swapped in place (pages.js) makes them all
     at once, as its mount hooks expect: at its top, each its first panel, the rest a
     piece a frame; landing on a place, whole. So does a page opened at an anchor or
     reloaded (parts.js), whole: the browser keeps its place while the page is loading. */
  function boot(gradually) {
    const mine = ++generation;
    const roots = Array.from(document.querySelectorAll("figure.ex-figure[data-figure]"));
    const waiting = frugal() && !ex._engineAsked && !ex.client.started;
    const exercises = document.querySelector(".ex-exercise");  // graded by the engine
    // Python starts loading before the first frames are drawn, not after (when the reader
    // saves data, at the first Start or the first exercise checked).
    if (!waiting && (roots.length || exercises || (ex.bundle && ex.bundle.carried()))) ex.client.start();
    if (gradually !== true || !ex.parts.gradually()) {
      // a lesson swapped in at its top (the next one): each figure's first panel in the
      // swap's task, the rest a piece a frame after it, as the page the browser loaded
      // draws them (made whole, they were most of the swap's task and of its first frame,
      // and the reader's click waited for both); every figure is made, for the mount
      // hooks, and goes live at once. One landing on a place is made whole: what is
      // above the place must not grow under the reader.
      const pieces = gradually !== true && ex.pages && ex.pages.landing === "top" ? MADE_AT_ONCE : undefined;
      roots.forEach(function (root) {
        const figure = make(root, pieces);
        if (figure && figure.pieces) figure.unfold();
      });
      drawn(roots, exercises, waiting);
      return;
    }
    // (a reader who starts Python with a button gets one on every figure: all drawn)
    const lazy = roots.length > 0 && !waiting && window.IntersectionObserver && window.requestIdleCallback;
    const left = roots.slice();  // not drawn yet, in the page's order
    let near = lazy ? null : left.slice();  // to draw now: null until the observer first says
    const seen = lazy ? [] : left.slice();  // of those, the ones in the reader's view when the observer said
    let busy = false, first = true;
    const next = function () {
      busy = false;
      if (mine !== generation) return;
      if (first && near && !near.some(function (root) { return seen.indexOf(root) >= 0; })) {
        // the first frame: every figure in the reader's view drawn; those near it next,
        // once the frame is painted
        first = false;
        drawn(roots, exercises, waiting);
        if (lazy && left.length) ex.ready.then(rest, function () {});
        if (near.length) {
          busy = true;
          ex.afterFrame(next);
          return;
        }
      }
      const root = near && near.shift();
      if (root) {
        busy = true;
        if (left.indexOf(root) >= 0) left.splice(left.indexOf(root), 1);
        const figure = root.isConnected ? make(root, MADE_AT_ONCE) : null;
        tell(figure);  // drawn after Python was live
        if (figure) figure.unfold(true).then(function () { setTimeout(next, 0); });
        else setTimeout(next, 0);
        return;
      }
      if (!left.length && observer) observer.disconnect();
    };
    /* Once Python is live, the figures still waiting, one per idle moment. */
    const rest = function () {
      if (mine !== generation || !left.length) return;
      if (!busy && !(near && near.length)) { near = [left[0]]; next(); }
      window.requestIdleCallback(rest, { timeout: 1000 });
    };
    const observer = lazy ? new IntersectionObserver(function (entries) {
      if (mine !== generation) { observer.disconnect(); return; }
      const coming = entries.filter(function (e) { return e.isIntersecting && left.indexOf(e.target) >= 0; })
        .map(function (e) { return e.target; });
      if (first) {
        entries.forEach(function (e) {
          const box = e.boundingClientRect;
          if (e.isIntersecting && box.top < window.innerHeight && box.bottom > 0) seen.push(e.target);
        });
      }
      near = (near || []).concat(coming.filter(function (root) { return near === null || near.indexOf(root) < 0; }));
      // those in view first, then in the page's order
      const rank = function (root) { return (first && seen.indexOf(root) < 0 ? roots.length : 0) + left.indexOf(root); };
      near.sort(function (a, b) { return rank(a) - rank(b); });
      if (!busy) next();
    }, { rootMargin: NEAR }) : null;
    if (observer) roots.forEach(function (root) { observer.observe(root); });
    else setTimeout(next, 0);
  }

  /* Once the page's figures are drawn. */
  function drawn(roots, exercises, waiting) {
    setTimeout(later, 0);  // after this task has drawn the figures
    // A page with no figure nor exercise needs no engine, except in a bundle, where the next lesson
    // is swapped into this same page and finds Python started.
    if (!roots.length && !exercises && !(ex.bundle && ex.bundle.carried())) {
      if (!ex.client.started) { ex._settleReady(true, {}); ex._readyWithoutEngine = true; }
      return;
    }
    if (!ex._watchingEngine) {  // once per visit: pages swapped in place share the engine
      ex._watchingEngine = true;
      ex.client.onStatus(function (status, detail) {  // said by figure-speech.js (js/later.js)
        if (status === "progress") Object.values(ex.figures).forEach(downloading);
        else if (ex.engineSays) Object.values(ex.figures).forEach(function (f) { ex.engineSays(f, status, detail); });
      });
    }
    if (waiting) offerStart(Array.from(roots, function (root) { return ex.figures[root.id]; }).filter(Boolean));
    else ex.client.start();
    ex.ready.then(
      function () {  // a page swapped in while the engine is stopped says so at once
        told = "live";
        Object.values(ex.figures).forEach(tell);
      },
      function (err) { told = err; Object.values(ex.figures).forEach(tell); }
    );
  }

  /* "/" before the search box exists (search-box.js comes after the first frame): remembered,
     and so is what the reader types after it; the box takes the focus and the words when
     it is made (search-box.js). */
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || document.getElementById("ex-search-input")) return;
    const t = e.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (!document.querySelector(".ex-header")) return;
    const typed = ex._searchTyped;  // a text once "/" was pressed
    if (e.key === "/" && typed === undefined) ex._searchTyped = "";
    else if (typed === undefined) return;
    else if (e.key === "Escape") { ex._searchTyped = undefined; return; }
    else if (e.key === "Backspace") ex._searchTyped = typed.slice(0, -1);
    else if (e.key.length === 1) ex._searchTyped = typed + e.key;
    else return;
    e.preventDefault();  // (a space would scroll the page)
  });

  ex.boot = boot;  // a page whose content is swapped in place draws its figures again
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { boot(true); });
  else boot(true);
})();
