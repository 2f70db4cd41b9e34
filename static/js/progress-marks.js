/* The reader's progress (js/progress.js), shown where a reader looks for it:
   - a mark beside each lesson in the menu: visited, or complete (every exercise solved,
     or read to the end when it has none);
   - on the lists of lessons (the front page's, a section's page): the same, and how many
     of a lesson's exercises are solved ("2 of 3 exercises");
   - on the front page, "Continue where you left off", leading to the last lesson shown,
     in the page's language (its translation, or the default language's page), only when
     there is one and not every lesson is complete;
   - beside an exercise's label, that it is solved and in how many tries;
   - in the footer, "Forget my progress", asked again before anything is forgotten.
   In a site of several languages a lesson's marks show on each of its translations.
   Nothing moves when they come: each mark is drawn in space the stylesheet keeps for it
   from the first frame (css/progress.css), and the marks follow every page swapped in. */
(function () {
  "use strict";
  const ex = window.explorables;
  const progress = ex.progress;
  if (!progress) return;

  /* The marks' words, in the page's language: they come with the track's data (track.py). */
  let words = {};
  function say(key, fields) {
    const text = words[key] === undefined ? key : words[key];
    return text.replace(/\{(\w+)\}/g, function (whole, name) {
      return fields && name in fields ? String(fields[name]) : whole;
    });
  }

  function trackEntries(track) {
    const entries = new Map();  // page key -> the track's lesson
    (track.lessons || []).forEach(function (lesson) { entries.set(lesson.url, lesson); });
    return entries;
  }

  function state(status) {
    return status.complete && status.visited ? "complete" : status.visited ? "visited" : "";
  }

  function mark(link, what, words) {
    if (what) {
      link.dataset.exProgress = what;
      link.dataset.exProgressLabel = words;
    } else {
      delete link.dataset.exProgress;
      delete link.dataset.exProgressLabel;
    }
  }

  function exercisesSolved(status) {
    if (!status.exercises) return "";
    return status.exercises === 1
      ? say("page.progress_exercise", { solved: status.solved })
      : say("page.progress_exercises", { solved: status.solved, total: status.exercises });
  }

  function stateWords(what) {
    return what === "complete" ? say("page.progress_complete") : say("page.progress_visited");
  }

  /* The menu: a mark after each lesson's link. */
  function markMenu(entries) {
    document.querySelectorAll(".ex-header nav a[href]").forEach(function (link) {
      const key = progress.keyOf(link.getAttribute("href"));
      const what = entries.has(key) && !link.closest(".ex-nav-more") ? state(progress.status(key)) : "";
      mark(link, what, what ? stateWords(what) : "");
    });
  }

  /* The lists of lessons: the state and the exercises solved, on the line kept under each title. */
  function markLists(entries) {
    document.querySelectorAll("main .ex-track a[href]").forEach(function (link) {
      const key = progress.keyOf(link.getAttribute("href"));
      if (!entries.has(key) || link.parentElement.tagName !== "LI") return;  // a lesson's title
      const status = progress.status(key);
      const what = state(status);
      const solved = status.visited ? exercisesSolved(status) : "";
      const note = [what ? stateWords(what) : "", solved].filter(Boolean).join(" · ");
      mark(link, what, note);
      if (note) link.dataset.exProgressNote = note; else delete link.dataset.exProgressNote;
    });
  }

  /* The front page's "Continue where you left off", in the place kept for it. */
  function markContinue(data, entries) {
    const place = document.querySelector("main .ex-continue");
    if (!place) return;
    const last = entries.get(progress.page(progress.lesson(data.last), ex.words.language));
    const all = Array.from(entries.keys());
    const done = all.length > 0 && all.every(function (key) { return progress.status(key).complete; });
    if (!last || done) { place.replaceChildren(); return; }
    const href = new URL(last.url, progress.root()).href;
    const link = place.querySelector("a");
    if (link && link.getAttribute("href") === href) return;
    place.replaceChildren(ex.el("a", { href: href, class: "ex-continue-link" },
      say("page.progress_continue") + " ", ex.el("strong", { text: last.title })));
  }

  /* Each exercise of the lesson shown: solved, and in how many tries. */
  function markExercises(data) {
    const lesson = data.lessons[progress.lesson(progress.key())];
    document.querySelectorAll("main .ex-exercise").forEach(function (section) {
      const label = section.querySelector(".ex-exercise-label");
      const one = lesson && lesson.exercises[section.id];
      if (!label) return;
      if (one && one.solved) {
        label.dataset.exSolved = one.tries === 1 ? say("page.progress_solved_first")
          : say("page.progress_solved", { tries: one.tries });
      } else {
        delete label.dataset.exSolved;
      }
    });
  }

  /* "Forget my progress" on a line of its own at the end of the footer (the footer's
     centred line would move), when there is something to forget; while the reader is
     asked, and once it is forgotten, that line says so instead. */
  let asking = false;
  function forgetControl(data) {
    const footer = document.querySelector(".ex-footer");
    if (!footer) return;
    let control = footer.querySelector(".ex-forget");
    if (control && (asking || control.dataset.said)) return;
    if (Object.keys(data.lessons).length === 0) {
      if (control) control.remove();
      return;
    }
    if (!control) {
      control = ex.el("p", { class: "ex-forget" });
      footer.append(control);
    }
    if (control.querySelector(".ex-forget-button")) return;
    control.replaceChildren(ex.el("button", { type: "button", class: "ex-link-button ex-forget-button",
      onclick: ask }, say("page.progress_forget")));
  }

  function ask(event) {
    const control = event.currentTarget.closest(".ex-forget");
    asking = true;
    const keep = ex.el("button", { type: "button", class: "ex-button", onclick: function () {
      asking = false;
      control.replaceChildren();
      forgetControl(progress.data());
      const again = control.querySelector("button");
      if (again) again.focus();
    } }, say("page.progress_forget_no"));
    control.replaceChildren(ex.el("span", { role: "group", "aria-label": say("page.progress_forget") },
      say("page.progress_forget_ask") + " ",
      ex.el("button", { type: "button", class: "ex-button ex-forget-yes", onclick: function () {
        asking = false;
        const said = ex.el("span", { tabindex: "-1" }, say("page.progress_forgotten"));
        control.dataset.said = "1";
        control.replaceChildren(said);
        progress.forget();
        said.focus();
        if (ex.pages && ex.pages.announce) ex.pages.announce(say("page.progress_forgotten"));
      } }, say("page.progress_forget_yes")), " ", keep));
    keep.focus();
  }

  /* The marks are written in the words of the page shown: after a switch of language
     (js/languages.js), once its words have come. */
  function paint(data) {
    Promise.all([progress.track(), ex.wordsSettled]).then(function (both) {
      const track = both[0];
      const all = track.words || {};
      words = all[ex.words.language] || all[Object.keys(all)[0]] || {};
      const entries = trackEntries(track);
      markMenu(entries);
      markLists(entries);
      markContinue(data, entries);
      markExercises(data);
      forgetControl(data);
      document.body.dataset.exProgressShown = progress.key();  // the marks of this page are drawn
    });
  }

  progress.on(paint);
  if (ex.pages && ex.pages.on) ex.pages.on("mount", function () { asking = false; });
})();
