/* What a SCORM package (explorables bundle --scorm) keeps of the reader's progress
   (js/progress.js) in cmi.suspend_data, which SCORM 1.2 allows 4,096 characters: the
   progress written compactly by the positions of the lessons, exercises and questions
   in the track (window.explorablesTrack), and read back. js/scorm.js, after it, talks to
   the LMS. */
(function () {
  "use strict";
  const ex = (window.explorables = window.explorables || {});
  const LIMIT = 4096;  // characters of cmi.suspend_data in SCORM 1.2 (CMIString4096)
  const VERSION = "1";  // of what suspend_data holds

  /* The progress, compact, in at most 4,096 characters:
     "1~FINGERPRINT~LAST~RECORD;RECORD..." where LAST is the index of the page last shown
     in the track and each lesson with any progress is "INDEX.VISITED.READ.EXERCISES.QUESTIONS":
     its index, the minute of its last visit, how far it was read (percent), all in base 36,
     then a letter an exercise of the lesson in the track's order (lower case: not solved,
     a for untried, b for one try, ...; upper case: solved, A in one try, B in two, ...)
     and its opened questions as bits, five a character. Names are the track's: the
     FINGERPRINT (of the track's lessons, exercises and questions) tells another version
     of the package, whose indices mean other things, and what it left is then not read. */
  const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz";

  function fingerprint(track) {
    let hash = 0x811c9dc5;  // FNV-1a, 32 bits
    const text = JSON.stringify(track.lessons.map(function (lesson) {
      return [lesson.url, lesson.exercises || [], lesson.questions || []];
    }));
    for (let i = 0; i < text.length; i += 1) {
      hash ^= text.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    return hash.toString(36);
  }

  function exerciseLetter(record) {
    if (!record) return "a";
    const tries = Math.max(0, Math.floor(Number(record.tries) || 0));
    return record.solved
      ? String.fromCharCode(65 + Math.min(Math.max(tries, 1), 26) - 1)
      : String.fromCharCode(97 + Math.min(tries, 25));
  }

  function questionBits(opened, ids) {
    let text = "";
    for (let start = 0; start < ids.length; start += 5) {
      let bits = 0;
      for (let i = 0; i < 5 && start + i < ids.length; i += 1) {
        if (opened && opened[ids[start + i]]) bits |= 1 << i;
      }
      text += DIGITS[bits];
    }
    return text.replace(/0+$/, "");
  }

  function record(index, lesson, kept, times) {
    if (!kept) return null;
    const exercises = (lesson.exercises || []).map(function (id) {
      return exerciseLetter(kept.exercises && kept.exercises[id]);
    }).join("").replace(/a+$/, "");
    const questions = questionBits(kept.questions, lesson.questions || []);
    const read = Math.round(Math.min(Math.max(Number(kept.read) || 0, 0), 1) * 100);
    const visited = times && kept.visited > 0 ? Math.floor(kept.visited / 60000).toString(36) : "";
    if (!kept.visited && !read && !exercises && !questions) return null;
    return { solved: /[A-Z]/.test(exercises), text: [index.toString(36), visited, read.toString(36), exercises, questions].join(".") };
  }

  /* What each page of the track keeps, in its order: a lesson's page its exercises and
     questions, then those only a translation of it has (progress.js keeps a lesson's
     answers given in any of its languages); any other page its own. */
  function keptIds(track) {
    const byUrl = new Map(track.lessons.map(function (page) { return [page.url, page]; }));
    const ids = new Map();  // lesson key -> {exercises, questions}
    track.lessons.forEach(function (page) {
      const base = byUrl.get(page.lesson) || page;
      if (!ids.has(base.url)) ids.set(base.url, { exercises: [], questions: [] });
      const one = ids.get(base.url);
      [base, page].forEach(function (from) {
        (from.exercises || []).forEach(function (id) { if (one.exercises.indexOf(id) < 0) one.exercises.push(id); });
        (from.questions || []).forEach(function (id) { if (one.questions.indexOf(id) < 0) one.questions.push(id); });
      });
    });
    return track.lessons.map(function (page) { return ids.get(page.url) || page; });
  }

  /* The progress ``data`` (progress.data()) as suspend_data for ``track``: at most
     ``limit`` characters. Too much for that, it keeps less: first no visits' times, then
     fewer lessons (the last ones with nothing solved go first). */
  function encode(data, track, limit) {
    limit = limit || LIMIT;
    const lessons = (data && data.lessons) || Object.create(null);
    const last = track.lessons.findIndex(function (lesson) { return data && lesson.url === data.last; });
    const head = [VERSION, fingerprint(track), last < 0 ? "" : last.toString(36)].join("~") + "~";
    const known = keptIds(track);
    let records = [];
    for (const times of [true, false]) {
      records = track.lessons.map(function (lesson, index) {
        return Object.prototype.hasOwnProperty.call(lessons, lesson.url) ? record(index, known[index], lessons[lesson.url], times) : null;
      }).filter(Boolean);
      const text = head + records.map(function (r) { return r.text; }).join(";");
      if (text.length <= limit) return text;
    }
    const order = records.map(function (r, i) { return i; }).sort(function (a, b) {
      return (records[a].solved - records[b].solved) || (b - a);  // nothing solved, then later, go first
    });
    const kept = new Set(records.map(function (r, i) { return i; }));
    let length = head.length + records.reduce(function (sum, r) { return sum + r.text.length + 1; }, 0) - 1;
    for (const i of order) {
      if (length <= limit) break;
      kept.delete(i);
      length -= records[i].text.length + 1;
    }
    const text = head + records.filter(function (r, i) { return kept.has(i); }).map(function (r) { return r.text; }).join(";");
    return text.length <= limit ? text : head;
  }

  /* suspend_data back as progress data, or null when it holds nothing of this track
     (empty, another package's, another version's, or not ours at all). */
  function decode(text, track) {
    if (typeof text !== "string" || !text) return null;
    const parts = text.split("~");
    if (parts.length !== 4 || parts[0] !== VERSION || parts[1] !== fingerprint(track)) return null;
    const data = { v: 1, last: "", lessons: Object.create(null) };
    const known = keptIds(track);
    if (parts[2]) {
      const last = track.lessons[parseInt(parts[2], 36)];
      if (!/^[0-9a-z]+$/.test(parts[2]) || !last) return null;
      data.last = last.url;
    }
    for (const entry of parts[3] ? parts[3].split(";") : []) {
      const match = /^([0-9a-z]+)\.([0-9a-z]*)\.([0-9a-z]+)\.([a-zA-Z]*)\.([0-9a-v]*)$/.exec(entry);
      const page = match && track.lessons[parseInt(match[1], 36)];
      const lesson = page && known[parseInt(match[1], 36)];
      if (!lesson || match[4].length > (lesson.exercises || []).length) return null;
      const kept = { visited: match[2] ? parseInt(match[2], 36) * 60000 : 1, read: Math.min(parseInt(match[3], 36), 100) / 100,
        exercises: Object.create(null), questions: Object.create(null) };
      match[4].split("").forEach(function (letter, i) {
        const solved = letter < "a";
        const tries = letter.charCodeAt(0) - (solved ? 64 : 97);
        if (solved || tries) kept.exercises[lesson.exercises[i]] = { solved: solved, tries: tries };
      });
      match[5].split("").forEach(function (digit, start) {
        const bits = DIGITS.indexOf(digit);
        for (let i = 0; i < 5; i += 1) {
          const id = (lesson.questions || [])[start * 5 + i];
          if (bits & (1 << i) && id !== undefined) kept.questions[id] = true;
        }
      });
      data.lessons[page.url] = kept;
    }
    return data;
  }

  ex.scorm = { encode: encode, decode: decode, fingerprint: fingerprint, limit: LIMIT, api: null };
})();
