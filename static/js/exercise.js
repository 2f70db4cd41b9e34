/* Exercises (site_builder/directives/exercise.py): the page grades the reader's answer
   against the answer the build computed with the engine's exercise type, within its
   tolerance, and recognises each known mistake by the value it gives. Answers are read
   as engine/exercises.py read_answer reads them: a number, a percentage for a weight,
   a vector such as (1.2, −0.4); a typographic minus is accepted. */
(function () {
  "use strict";
  const ex = window.explorables;
  const FORMS = {
    number: "a number, such as 1.25",
    weight: "a number from 0 to 1 or a percentage, such as 0.45 or 45%",
    vector: "a vector of {n} numbers, such as ({example})",
  };
  const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

  function number(text) {
    const clean = text.trim().replace(/\u2212/g, "-").replace(/[\u2009 ]/g, "");
    if (!NUMBER.test(clean)) throw new Error(text);
    const x = Number(clean);
    if (!isFinite(x)) throw new Error(text);
    return x;
  }

  /* The reader's answer, or throws an Error whose message says the expected form. */
  function read(text, kind, n) {
    const typed = String(text).trim();
    const example = ["1.2", "\u22120.4", "0.5"].slice(0, n).join(", ");
    const form = FORMS[kind].replace("{n}", String(n)).replace("{example}", example);
    if (!typed) throw new Error("Type your answer: " + form + ".");
    try {
      if (kind === "vector") {
        const inner = /^[(\[]/.test(typed) && /[)\]]$/.test(typed) ? typed.slice(1, -1) : typed;
        const parts = inner.split(/[,;]/);
        if (parts.length !== n) throw new Error(typed);
        return parts.map(number);
      }
      if (kind === "weight" && typed.endsWith("%")) return number(typed.slice(0, -1)) / 100;
      return number(typed);
    } catch (err) {
      throw new Error("\u201c" + typed.slice(0, 40) + "\u201d is not " + form + ".");
    }
  }

  function close(a, b, tolerance) {
    if (Array.isArray(b)) return Array.isArray(a) && a.length === b.length && a.every(function (x, i) { return Math.abs(x - b[i]) <= tolerance; });
    return !Array.isArray(a) && Math.abs(a - b) <= tolerance;
  }

  function grade(data, typed) {
    let answer;
    try { answer = read(typed, data.kind, data.n); } catch (err) { return { ok: false, message: err.message }; }
    if (close(answer, data.answer, data.tolerance)) return { ok: true, message: "Right." };
    for (const mistake of data.mistakes) {
      if (close(answer, mistake.value, data.tolerance)) return { ok: false, message: mistake.hint, mistake: mistake.name };
    }
    return { ok: false, message: "Not quite. Work through the formula step by step and try again." };
  }
  ex.exercises = { read: read, grade: grade };

  document.addEventListener("submit", function (event) {
    const form = event.target.closest && event.target.closest(".ex-exercise .ex-answer");
    if (!form) return;
    event.preventDefault();
    const section = form.closest(".ex-exercise");
    const data = JSON.parse(section.querySelector("script.ex-exercise-data").textContent);
    const input = form.querySelector("input");
    const verdict = grade(data, input.value);
    const feedback = section.querySelector(".ex-feedback");
    feedback.textContent = verdict.message;
    feedback.dataset.verdict = verdict.ok ? "right" : verdict.mistake ? "mistake" : "wrong";
    input.setAttribute("aria-invalid", verdict.ok ? "false" : "true");
  });
})();
