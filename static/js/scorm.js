/* SCORM 1.2: a package (explorables bundle --scorm) played inside a learning management
   system reports to it what the reader's progress (js/progress.js) holds:
   - cmi.core.lesson_status: incomplete from the start; completed once every lesson is
     (its exercises solved, or read to the end when it has none); passed instead, once the
     score reaches the mastery score, when the LMS gives one. Never lowered;
   - cmi.core.score.raw (min 0, max 100): the track's exercises solved, in percent;
   - cmi.objectives: one a lesson, in the track's order, with its status and score;
   - cmi.suspend_data: the progress itself (js/scorm-data.js), read back next session
     instead of what the browser kept; cmi.core.lesson_location: the page last shown.
   It commits after a graded answer, a lesson done or another lesson shown, when the tab
   is hidden, and finishes on pagehide. Only a SCORM package carries this file (at the end
   of its js/later.js); opened with no LMS around it, it finds no API and does nothing. */
(function () {
  "use strict";
  const ex = (window.explorables = window.explorables || {});
  const DEPTH = 7;  // parent frames searched for the API, as the standard's own search does
  const DONE = new Set(["completed", "passed"]);

  /* The LMS's API: window.API of this frame or of one of its parents, else of the window
     that opened this one and its parents. A frame of another origin cannot be asked. */
  function search(win) {
    try {
      for (let depth = 0; win; depth += 1) {
        if (win.API && typeof win.API.LMSInitialize === "function") return win.API;
        if (depth >= DEPTH || !win.parent || win.parent === win) return null;
        win = win.parent;
      }
    } catch { /* a frame of another origin */ }
    return null;
  }
  function findAPI() {
    const here = search(window);
    if (here) return here;
    try { return window.opener ? search(window.opener) : null; } catch { return null; }
  }

  const api = findAPI();
  if (!api || !ex.scorm || String(api.LMSInitialize("")) !== "true") return;  // no LMS: a bundle like any other
  ex.scorm.api = api;
  const started = Date.now();
  let finished = false;
  let dirty = false;
  const sent = new Map();  // element -> the value last set, so that only changes are sent

  function get(element) {
    const value = api.LMSGetValue(element);
    return String(api.LMSGetLastError()) === "0" ? String(value) : null;
  }
  function set(element, value) {
    value = String(value);
    if (finished || sent.get(element) === value) return;
    if (String(api.LMSSetValue(element, value)) === "true") {
      sent.set(element, value);
      dirty = true;
    }
  }
  function commit() {
    if (finished || !dirty) return;
    dirty = false;
    api.LMSCommit("");
  }

  // What the LMS holds already: review mode records nothing; a status or score reached
  // in an earlier session is not taken back.
  const recording = get("cmi.core.lesson_mode") !== "review";
  const before = get("cmi.core.lesson_status") || "not attempted";
  const mastery = parseFloat(get("cmi.student_data.mastery_score"));
  const scored = parseFloat(get("cmi.core.score.raw"));
  const objectives = get("cmi.objectives._children") !== null;
  if (recording) {
    if (!DONE.has(before) && before !== "incomplete") set("cmi.core.lesson_status", "incomplete");
    set("cmi.core.exit", "suspend");  // the next session resumes with what suspend_data holds
    commit();
  }

  function objectiveId(lesson, index) {
    return /^[\x21-\x7e]{1,255}$/.test(lesson.url) ? lesson.url : "lesson-" + (index + 1);
  }

  function percent(solved, all) {
    return Math.round((100 * solved) / all);
  }

  /* Status, score and objectives, from the progress of each lesson: done once it is done in
     any of its languages; scored in the translation the learner worked in (the one with the
     largest share of its exercises solved: a translation may name exercises of its own). */
  function report(lessons, progress) {
    let solved = 0;
    let all = 0;
    let complete = lessons.length > 0;
    const share = function (status) { return status.exercises ? status.solved / status.exercises : 0; };
    lessons.forEach(function (lesson, index) {
      const statuses = lesson.pages.map(function (page) { return progress.status(page); });
      const worked = statuses.reduce(function (best, status) { return share(status) > share(best) ? status : best; });
      const count = worked.exercises;
      const done = worked.solved;
      const finished = statuses.some(function (status) { return status.complete; });
      const visited = statuses.some(function (status) { return status.visited; });
      solved += done;
      all += count;
      complete = complete && finished;
      if (!objectives) return;
      const at = "cmi.objectives." + index + ".";
      set(at + "id", objectiveId(lesson, index));
      set(at + "status", finished ? "completed" : visited || done ? "incomplete" : "not attempted");
      if (count) {
        set(at + "score.min", 0);
        set(at + "score.max", 100);
        set(at + "score.raw", percent(done, count));
      }
    });
    let score = null;
    if (all) {
      score = Math.max(percent(solved, all), isNaN(scored) ? 0 : scored);
      set("cmi.core.score.min", 0);
      set("cmi.core.score.max", 100);
      set("cmi.core.score.raw", score);
    }
    let status = complete ? "completed" : "incomplete";
    if (!isNaN(mastery) && score !== null) status = score >= mastery ? "passed" : complete ? "failed" : "incomplete";
    const now = sent.get("cmi.core.lesson_status") || before;
    if (!DONE.has(now) && now !== status) {
      set("cmi.core.lesson_status", status);
      commit();  // a gradebook's line changed: said at once
    }
  }

  function sessionTime() {
    const seconds = Math.floor((Date.now() - started) / 1000);
    const two = function (n) { return String(n).padStart(2, "0"); };
    return String(Math.min(Math.floor(seconds / 3600), 9999)).padStart(4, "0") + ":" + two(Math.floor(seconds / 60) % 60) + ":" + two(seconds % 60);
  }

  function finish() {
    if (finished) return;
    if (recording) set("cmi.core.session_time", sessionTime());
    commit();
    finished = true;
    api.LMSFinish("");
  }

  window.addEventListener("pagehide", finish);
  document.addEventListener("visibilitychange", function () { if (document.visibilityState === "hidden") commit(); });

  const progress = ex.progress;  // js/progress.js, before this file in js/later.js
  ex.scorm.ready = !progress ? Promise.resolve() : progress.track().then(function (data) {
    if (finished) return;
    const lessons = progress.lessons();
    // The learner's record in the LMS is their progress, not what this browser kept: a
    // class may share its computers, and one learner's exercises are not another's.
    progress.forget();
    progress.useStore({
      load: function () {
        const kept = get("cmi.suspend_data");
        return kept ? ex.scorm.decode(kept, data) : null;
      },
      save: function (current) {  // in review mode the LMS records nothing
        if (!recording) return;
        set("cmi.suspend_data", ex.scorm.encode(current, data));
        if (current.last && current.last.length <= 255) set("cmi.core.lesson_location", current.last);
      },
    });
    if (recording) progress.on(function () { report(lessons, progress); });  // now, and after every change
    document.addEventListener("explorables:exercise", function () { setTimeout(commit, 0); });
    if (ex.pages) ex.pages.on("mount", function () { setTimeout(commit, 0); });
    commit();
  });
})();
