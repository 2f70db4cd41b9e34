/* The reader's progress, kept in their browser only: which lessons they visited and how
   far they read, which exercises they solved and in how many tries, which questions'
   answers they opened. Nothing of it leaves the browser.

   Everything is keyed by lesson key and exercise id, never by build: a new deploy, the
   same site under /repo/ and an offline bundle opened from disk read the same keys. A
   lesson's key is its page key (its path from the site's root, as the build writes it:
   "basics/softmax.html"); in a site of several languages its translations ("de/basics/
   softmax.html") are the same lesson, kept under the default language's page key, so
   that what is solved in one language is solved in all (a store kept by the
   translation's own key, as earlier builds kept it, is merged in when loaded). The
   track's data (site_builder/output/track.py, window.explorablesTrack) says which pages
   are lessons, what each holds and which lesson each translates; it is loaded from the
   asset map after the first frame, as this script is.

   window.explorables.progress:
   - data(): a copy of {v: 1, last: the page key of the lesson shown last (in the language
     it was read in), lessons: {lesson key: {visited: ms, read: 0..1, exercises: {id:
     {solved, tries}}, questions: {id: true}}}};
   - forget(); on(fn): fn(data) after every change, and once when loaded;
   - useStore({load, save}): keep it there instead of localStorage (a SCORM package keeps
     it in the LMS); what that store holds is merged in (solved stays solved, the larger
     tries and read win);
   - status(page key): {visited, read, solved, exercises, complete} of its lesson;
   - track(): a promise of the track's data; key(): the page key of the page shown;
     lesson(page key): its lesson's key; page(lesson key, language): the lesson's page in
     that language (its translation, else the default language's page).
   Storage the browser refuses (turned off, full, a private window) or stored data that
   cannot be read cost the reader the marks only: progress is then kept for this visit.
   Keys are an author's and a reader's text: every store of them has no prototype, so an
   exercise named "constructor" or "__proto__" is a key like any other. */
(function () {
  "use strict";
  const ex = window.explorables;
  const STORAGE = "explorables-progress";  // localStorage, followed by the site's root path
  const READ_STEP = 20;  // read is kept in steps of 1/20 of the lesson: a change is worth saving

  function blank() { return Object.create(null); }
  function fresh() { return { v: 1, last: "", lessons: blank() }; }
  function blankLesson() { return { visited: 0, read: 0, exercises: blank(), questions: blank() }; }

  /* The page shown (a bundle from disk keeps one address for every page: pages.js knows which). */
  function address() {
    return (ex.pages && ex.pages.current) || location.href.replace(/#.*$/, "");
  }
  /* The site's root, the folder above the page's assets. */
  function siteRoot() {
    return new URL("..", new URL(document.body.dataset.assets || "_explorables/", address())).href;
  }
  /* A page's key from its address (relative to the page shown): null outside the site. */
  function keyOf(href) {
    const url = new URL(href, address());
    url.hash = "";
    url.search = "";
    const root = siteRoot();
    if (url.href.indexOf(root) !== 0) return null;
    let key = url.href.slice(root.length);
    try { key = decodeURIComponent(key); } catch { /* kept as it is */ }
    return key === "" || /\/$/.test(key) ? key + "index.html" : key;
  }

  /* Stored data, whatever it holds, as data: what cannot be read is left out. */
  function number(value, top) {
    return typeof value === "number" && isFinite(value) && value > 0 ? Math.min(value, top) : 0;
  }
  function table(value) {
    return value && typeof value === "object" && !Array.isArray(value) ? value : blank();
  }
  function cleaned(raw) {
    const data = fresh();
    if (!raw || typeof raw !== "object" || raw.v !== 1) return data;
    const lessons = table(raw.lessons);
    Object.keys(lessons).forEach(function (key) {
      const from = table(lessons[key]);
      const lesson = blankLesson();
      lesson.visited = number(from.visited, Number.MAX_SAFE_INTEGER);
      lesson.read = number(from.read, 1);
      const exercises = table(from.exercises);
      Object.keys(exercises).forEach(function (id) {
        const one = table(exercises[id]);
        lesson.exercises[id] = { solved: one.solved === true, tries: Math.floor(number(one.tries, 1e9)) };
      });
      const questions = table(from.questions);
      Object.keys(questions).forEach(function (id) { if (questions[id] === true) lesson.questions[id] = true; });
      data.lessons[key] = lesson;
    });
    // a page's key, its lesson's until the track's data says which (pruned)
    if (typeof raw.last === "string" && raw.last.length <= 2048) data.last = raw.last;
    return data;
  }
  /* Lesson ``b`` merged into ``a``: solved stays solved, the larger tries, read and visit win. */
  function mergeLesson(a, b) {
    a.visited = Math.max(a.visited, b.visited);
    a.read = Math.max(a.read, b.read);
    Object.keys(b.exercises).forEach(function (id) {
      const mine = a.exercises[id] || (a.exercises[id] = { solved: false, tries: 0 });
      mine.solved = mine.solved || b.exercises[id].solved;
      mine.tries = Math.max(mine.tries, b.exercises[id].tries);
    });
    Object.keys(b.questions).forEach(function (id) { a.questions[id] = true; });
  }
  /* ``from`` merged into ``into``, lesson by lesson. */
  function merge(into, from) {
    Object.keys(from.lessons).forEach(function (key) {
      mergeLesson(into.lessons[key] || (into.lessons[key] = blankLesson()), from.lessons[key]);
    });
    const visited = function (data) {
      const lesson = data.last && data.lessons[lessonOf(data.last)];
      return lesson ? lesson.visited : -1;
    };
    if (visited(from) > visited(into)) into.last = from.last;
    return into;
  }
  function copy(data) { return cleaned(JSON.parse(JSON.stringify(data))); }

  /* The browser's own store for this site: null when the browser refuses storage. */
  function localStore(name) {
    let storage = null;
    try { storage = window.localStorage; } catch { return null; }
    if (!storage) return null;
    return {
      load: function () { const text = storage.getItem(name); return text ? JSON.parse(text) : null; },
      save: function (data) { storage.setItem(name, JSON.stringify(data)); },
      name: name,
    };
  }
  function loadFrom(store) {
    try { return cleaned(store ? store.load() : null); } catch { return fresh(); }  // unreadable: no marks
  }
  function saveTo(store, data) {
    try { if (store) store.save(copy(data)); } catch { /* full or refused: kept for this visit */ }
  }

  const storageName = STORAGE + " " + new URL(siteRoot()).pathname;  // two sites of one origin keep apart
  let store = localStore(storageName);
  let data = loadFrom(store);
  const listeners = [];
  let loaded = false;

  function tell(fn) {
    try { fn(copy(data)); } catch (err) { setTimeout(function () { throw err; }, 0); }  // one listener's bug stops no other
  }
  function changed() {
    saveTo(store, data);
    if (loaded) listeners.forEach(tell);
  }

  /* The track's data (track.py), loaded once, as a script: from a server and from disk. */
  let tracking = null;
  let lessons = new Map();  // page key -> {url, title, exercises, questions, lesson?, language?}
  let copies = new Map();  // lesson key -> {pages: [the track's entries], exercises: Set, questions: Set}
  function track() {
    if (!tracking) {
      tracking = new Promise(function (resolve) {
        if (window.explorablesTrack) { resolve(window.explorablesTrack); return; }
        const name = ex.assetNames && ex.assetNames.track;
        if (!name) { resolve({ lessons: [] }); return; }  // a page of a build without it
        const script = document.createElement("script");
        script.src = new URL(name, new URL(document.body.dataset.assets || "_explorables/", address())).href;
        script.onload = function () { resolve(window.explorablesTrack || { lessons: [] }); };
        script.onerror = function () { tracking = null; resolve({ lessons: [] }); };
        document.body.appendChild(script);  // in <body>: pages.js compares the head's scripts
      }).then(function (found) {
        lessons = new Map((found.lessons || []).map(function (lesson) { return [lesson.url, lesson]; }));
        copies = new Map();
        lessons.forEach(function (lesson) {
          const key = lesson.lesson || lesson.url;
          if (!copies.has(key)) copies.set(key, { pages: [], exercises: new Set(), questions: new Set() });
          const one = copies.get(key);
          one.pages.push(lesson);
          (lesson.exercises || []).forEach(function (id) { one.exercises.add(id); });
          (lesson.questions || []).forEach(function (id) { one.questions.add(id); });
        });
        return found;
      });
    }
    return tracking;
  }

  /* The lesson a page is (a translation: the default language's page it translates). */
  function lessonOf(key) {
    const entry = lessons.get(key);
    return entry && entry.lesson ? entry.lesson : key;
  }
  /* The page of lesson ``key`` in ``language``: its translation, else the default language's. */
  function pageOf(key, language) {
    const one = copies.get(key);
    if (!one) return key;
    const page = one.pages.find(function (p) { return p.language === language; }) ||
      one.pages.find(function (p) { return !p.language; }) || one.pages[0];
    return page.url;
  }

  /* Only what the track can use is kept: the lessons it lists, their exercises and
     questions. A store holding other pages (another site's leftovers under the same key,
     a lesson deleted since, or a store planted there) is not carried on and written again
     at every change. What a store keeps under a translation's own page key joins its
     lesson's. Until the track's data has come (or if it could not), all is kept. */
  function pruned(from) {
    if (lessons.size === 0) return from;
    const data = fresh();
    Object.keys(from.lessons).forEach(function (key) {
      if (!lessons.has(key)) return;
      const at = lessonOf(key);
      const known = copies.get(at);
      const kept = blankLesson();
      kept.visited = from.lessons[key].visited;
      kept.read = from.lessons[key].read;
      known.exercises.forEach(function (id) {
        const one = from.lessons[key].exercises[id];
        if (one) kept.exercises[id] = one;
      });
      known.questions.forEach(function (id) {
        if (from.lessons[key].questions[id]) kept.questions[id] = true;
      });
      mergeLesson(data.lessons[at] || (data.lessons[at] = blankLesson()), kept);
    });
    if (lessons.has(from.last) && lessonOf(from.last) in data.lessons) data.last = from.last;
    return data;
  }

  function lessonAt(key) { return data.lessons[key] || (data.lessons[key] = blankLesson()); }

  function status(key) {
    const lesson = data.lessons[lessonOf(key)];
    const entry = lessons.get(key);
    const ids = entry ? entry.exercises : lesson ? Object.keys(lesson.exercises) : [];
    const solved = ids.filter(function (id) {
      return lesson && lesson.exercises[id] && lesson.exercises[id].solved;
    }).length;
    const read = lesson ? lesson.read : 0;
    return { visited: Boolean(lesson && lesson.visited), read: read, solved: solved, exercises: ids.length,
      complete: ids.length ? solved === ids.length : read >= 1 };
  }

  /* How far the reader has read the lesson shown: the share of it that has come into view. */
  function readSoFar() {
    const article = document.querySelector("main .ex-lesson") || document.querySelector("main");
    if (!article) return 0;
    const box = article.getBoundingClientRect();
    const seen = box.height > 0 ? (window.innerHeight - box.top) / box.height : 1;
    return seen >= 1 ? 1 : Math.max(0, Math.floor(seen * READ_STEP) / READ_STEP);
  }
  /* The key of the page shown, made once a page (it is read at every scrolled frame). */
  let shownAt = null;
  let shownKey = null;
  function keyShown() {
    const at = address();
    if (at !== shownAt) { shownAt = at; shownKey = keyOf(at); }
    return shownKey;
  }
  function noteRead() {
    const key = keyShown();
    if (!lessons.has(key)) return;
    const lesson = lessonAt(lessonOf(key));
    if (lesson.read >= 1) return;  // read to its end: no layout to measure any more
    const read = readSoFar();
    if (read > lesson.read) { lesson.read = read; changed(); }
  }
  let looking = false;
  window.addEventListener("scroll", function () {
    if (looking) return;
    looking = true;
    requestAnimationFrame(function () { looking = false; noteRead(); });
  }, { passive: true });

  /* A lesson shown: visited now, the one to continue from. */
  function visit() {
    const shown = keyOf(address());
    if (!lessons.has(shown)) return;
    const key = lessonOf(shown);
    lessonAt(key).visited = Date.now();
    data.last = shown;
    const read = readSoFar();
    if (read > data.lessons[key].read) data.lessons[key].read = read;
  }

  document.addEventListener("explorables:exercise", function (event) {
    const detail = event.detail || {};
    if (typeof detail.id !== "string") return;
    const key = lessonOf(keyOf(address()));
    const exercises = lessonAt(key).exercises;
    const one = exercises[detail.id] || (exercises[detail.id] = { solved: false, tries: 0 });
    if (one.solved) return;  // tries count to the first right answer
    one.tries += 1;
    one.solved = detail.verdict === "right";
    if (!data.lessons[key].visited) data.lessons[key].visited = Date.now();
    changed();
  });
  document.addEventListener("explorables:question", function (event) {
    const detail = event.detail || {};
    if (typeof detail.id !== "string") return;
    const lesson = lessonAt(lessonOf(keyOf(address())));
    if (lesson.questions[detail.id]) return;
    lesson.questions[detail.id] = true;
    changed();
  });

  // Another tab of the same site changed it, or forgot it: what it stored is the whole of
  // it (every tab stores each change at once, and takes up the others' as they come).
  window.addEventListener("storage", function (event) {
    if (!store || event.key !== store.name) return;
    try { data = pruned(cleaned(JSON.parse(event.newValue || "null"))); } catch { return; }
    if (loaded) listeners.forEach(tell);
  });

  ex.progress = {
    data: function () { return copy(data); },
    forget: function () {
      data = fresh();
      changed();
    },
    on: function (fn) {
      listeners.push(fn);
      if (loaded) tell(fn);
    },
    useStore: function (given) {
      store = given;
      data = pruned(merge(data, loadFrom(given)));
      changed();
    },
    status: status,
    track: track,
    key: function () { return keyOf(address()); },
    keyOf: keyOf,  // a page's key from its address
    lesson: lessonOf,  // the lesson a page is: its own key, or the one it translates
    page: pageOf,  // a lesson's page in a language
    // the track's lessons, each once, in its order: {url: its key, pages: its pages' keys} (scorm.js)
    lessons: function () {
      return Array.from(copies, function (one) { return { url: one[0], pages: one[1].pages.map(function (p) { return p.url; }) }; });
    },
    root: siteRoot,  // the site's root, as an address
  };

  // Loaded once the track's data has come (each listener is told then), and a visit
  // noted for every lesson shown, the first and each one swapped in.
  track().then(function () {
    loaded = true;
    data = pruned(data);
    visit();
    changed();
    if (ex.pages && ex.pages.on) {
      ex.pages.on("mount", function () { track().then(function () { visit(); changed(); }); });
    }
  });
})();
