/* Exercises (site_builder/directives/exercise.py), graded by the engine.

   The page shows the build's problem at once. Everything else goes to the engine in its
   worker (engine/runtime.py exercise), so engine/exercises.py is the one reader of
   answers, decimal commas and all:
   - Check sends the typed answer; until Python is live the form says "Checking…".
   - New numbers asks for the problem of a fresh seed, shows it, and writes the seed into
     the page's address as #ex-2=417 (one key per exercise, by its id), so the address
     hands the same problem to someone else.
   - Opening such an address (or swapping such a lesson in) shows that problem once the
     engine is live; a seed it cannot read gets a message, and the build's problem stays.
   Everything is delegated from the document or run on the pages' "mount" hook, so
   lessons swapped in place need no setup of their own. */
(function () {
  "use strict";
  const ex = window.explorables;
  const SEED_RANGE = 1000000;  // fresh seeds are drawn below this: short addresses
  const info = new WeakMap();  // section -> {type, seed, language, request}
  let live = false;            // the engine answered once: no "Python is starting"

  function dataOf(section) {
    let data = info.get(section);
    if (!data) {
      data = JSON.parse(section.querySelector("script.ex-exercise-data").textContent);
      data.request = 0;
      info.set(section, data);
    }
    return data;
  }

  function decode(text) {
    try { return decodeURIComponent(text); } catch { return text; }  // a stray "%": kept as typed
  }

  /* The seeds the address gives, by exercise id: "#ex-2=417&ex-3=9". */
  function seedsInAddress() {
    const seeds = new Map();  // (an exercise's id is the author's: "constructor" too)
    location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
      const at = pair.indexOf("=");
      if (at > 0) seeds.set(decode(pair.slice(0, at)), decode(pair.slice(at + 1)));
    });
    return seeds;
  }

  function writeAddress(id, seed) {
    const pairs = location.hash.replace(/^#/, "").split("&").filter(function (pair) {
      return pair && pair.indexOf("=") > 0 && decode(pair.slice(0, pair.indexOf("="))) !== id;
    });
    pairs.push(encodeURIComponent(id) + "=" + seed);
    const url = new URL(location.href);
    url.hash = pairs.join("&");
    history.replaceState(Object.assign({}, history.state, { hash: url.hash }), "", url.href);
  }

  /* The engine, live: started if the page had not started it yet. */
  function engine() {
    ex.client.start();
    return ex.ready.then(function () {
      if (ex.client.dead) throw ex.client.dead;
      live = true;
    });
  }

  /* What the exercise waits for ("" when nothing); ``making``: its problem is being replaced. */
  function busy(section, what, making) {
    const pending = section.querySelector(".ex-pending");
    pending.textContent = what ? (live ? what : ex.t("runtime.exercise_starting", { what: what })) : "";
    section.classList.toggle("ex-busy", Boolean(what));
    section.classList.toggle("ex-making", Boolean(what && making));
    section.querySelector(".ex-answer").setAttribute("aria-busy", what ? "true" : "false");
  }

  function say(section, message, verdict, invalid) {
    const feedback = section.querySelector(".ex-feedback");
    feedback.textContent = message;
    if (verdict) feedback.dataset.verdict = verdict; else delete feedback.dataset.verdict;
    const input = section.querySelector(".ex-answer input");
    if (invalid === undefined) input.removeAttribute("aria-invalid");
    else input.setAttribute("aria-invalid", invalid ? "true" : "false");
  }

  /* Ask the engine; a newer request of the same exercise makes older replies stale. */
  function ask(section, what, request) {
    const data = dataOf(section);
    const mine = (data.request += 1);
    busy(section, what, "seed" in request && !("answer" in request));
    if (ex.client.stopped) stopped(section, ex.client.stopped);
    return engine().then(function () {
      return ex.client.exercise(Object.assign({ exercise: data.type, language: data.language }, request));
    }).then(function (reply) {
      if (mine !== data.request) return null;
      busy(section, "");
      return reply;
    }, function (err) {
      if (mine !== data.request) return null;
      busy(section, "");
      throw err;
    });
  }

  function engineFailed(err) {
    return ex.t("runtime.exercise_no_engine", { error: (err && err.message) || err });
  }

  /* Show the engine's problem for a seed: statement, expected form, an empty field. */
  function show(section, problem) {
    const data = dataOf(section);
    data.seed = problem.seed;
    section.dataset.seed = String(problem.seed);
    // the engine's HTML, cleaned to the statement markup without being parsed in the page first (js/statement.js)
    section.querySelector(".ex-problem").replaceChildren(ex.statement.cleaned(problem.statement));
    const input = section.querySelector(".ex-answer input");
    input.value = "";
    input.placeholder = problem.form;
    say(section, "", "");
  }

  function load(section, seed, fromAddress) {
    return ask(section, ex.t("runtime.exercise_making"), { seed: seed }).then(function (reply) {
      if (!reply) return;
      if (!reply.ok) {
        say(section, fromAddress ? ex.t("runtime.exercise_bad_seed", { seed: String(seed).slice(0, 20),
          error: reply.error }) : reply.error, "wrong");
        return;
      }
      show(section, reply);
      if (!fromAddress) {
        writeAddress(section.id, reply.seed);
        const label = section.querySelector(".ex-exercise-label");
        if (ex.pages && ex.pages.announce) ex.pages.announce(ex.t("runtime.exercise_new", { label: label.textContent }));
      }
    }, function (err) { say(section, engineFailed(err), "wrong"); });
  }

  function check(section, typed) {
    const data = dataOf(section);
    say(section, "", "");
    return ask(section, ex.t("runtime.exercise_checking"), { seed: data.seed, answer: typed }).then(function (reply) {
      if (!reply) return;
      if (!reply.ok) { say(section, reply.error, "wrong", true); return; }
      const verdict = reply.right ? "right" : reply.mistake ? "mistake" : "wrong";
      say(section, reply.message, verdict, !reply.right);
      // graded: anyone may listen (js/progress.js keeps what the reader solved)
      if (section.isConnected) {
        document.dispatchEvent(new CustomEvent("explorables:exercise", { detail: { id: section.id, verdict: verdict } }));
      }
    }, function (err) { say(section, engineFailed(err), "wrong"); });
  }

  /* A check-yourself question's answer opened: "explorables:question" with its id, "q-" and
     its place among the page's questions (as site_builder/output/track.py names it). */
  document.addEventListener("toggle", function (event) {
    const question = event.target;
    if (!(question instanceof HTMLDetailsElement) || !question.open || !question.classList.contains("ex-question")) return;
    const place = Array.prototype.indexOf.call(document.querySelectorAll("main details.ex-question"), question);
    if (place < 0) return;
    document.dispatchEvent(new CustomEvent("explorables:question", { detail: { id: "q-" + (place + 1) } }));
  }, true);  // toggle does not bubble

  /* The problems the address asks for, on this page. */
  function mount(root) {
    const seeds = seedsInAddress();
    (root || document).querySelectorAll(".ex-exercise").forEach(function (section) {
      const wanted = seeds.get(section.id);
      if (wanted === undefined || String(dataOf(section).seed) === wanted) return;
      load(section, wanted, true);
    });
  }

  /* The answer a form holds, as typed: boot.js hands over every submitted one. */
  function answer(form) {
    if (form.isConnected) check(form.closest(".ex-exercise"), form.querySelector("input").value);
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest && event.target.closest(".ex-exercise .ex-new-numbers");
    if (!button) return;
    const section = button.closest(".ex-exercise");
    let seed = Math.floor(Math.random() * SEED_RANGE);
    if (seed === dataOf(section).seed) seed = (seed + 1) % SEED_RANGE;
    load(section, seed, false);
  });

  /* The engine stopped (client.js) while an exercise waits for it: say so, with a button
     that starts it again; the request is answered once the engine is live again. */
  function stopped(section, why) {
    say(section, ex.t("runtime.exercise_stopped", { detail: why }), "");
    section.querySelector(".ex-feedback").append(" ", ex.el("button", { type: "button",
      class: "ex-button ex-restart", onclick: ex.client.restart }, ex.t("runtime.restart_engine")));
  }
  ex.client.onStatus(function (status, detail) {
    document.querySelectorAll(".ex-exercise .ex-restart").forEach(function (b) { b.remove(); });
    if (status === "stopped") {
      document.querySelectorAll(".ex-exercise.ex-busy").forEach(function (section) { stopped(section, detail); });
    }
  });

  ex.exercises = { seedsInAddress: seedsInAddress, load: load, check: check, answer: answer };
  (ex._unchecked || []).splice(0).forEach(answer);  // sent before this script came
  if (ex.pages && ex.pages.on) ex.pages.on("mount", mount);  // a lesson swapped in
  window.addEventListener("hashchange", function () { mount(document); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { mount(document); });
  else mount(document);
})();
