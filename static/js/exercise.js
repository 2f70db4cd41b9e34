/* Exercises (site_builder/directives/exercise.py): the page grades the reader's answer
   against the answer the build computed with the engine's exercise type, within its
   tolerance, and recognises each known mistake by the value it gives. Answers are read
   as engine/exercises.py read_answer reads them: a number, a percentage for a weight,
   a vector such as (1.2, −0.4); a typographic minus is accepted. */
(function () {
  "use strict";
  const ex = window.explorables;
  const FORMS = { number: "runtime.answer_number", weight: "runtime.answer_weight", vector: "runtime.answer_vector" };
  const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

  function number(text) {
    let clean = text.trim().replace(/\u2212/g, "-").replace(/[\u2009\u00a0 ]/g, "");
    if (ex.decimalComma() && clean.indexOf(".") < 0) clean = clean.replace(",", ".");  // 1,25 in German
    if (!NUMBER.test(clean)) throw new Error(text);
    const x = Number(clean);
    if (!isFinite(x)) throw new Error(text);
    return x;
  }

  /* The reader's answer, or throws an Error whose message says the expected form. */
  function read(text, kind, n) {
    const typed = String(text).trim();
    const example = ["1.2", "-0.4", "0.5"].slice(0, n).map(ex.localize).join(ex.listSeparator());
    const form = ex.t(FORMS[kind], { n: n, example: kind === "number" ? ex.localize("1.25") : example,
      a: ex.localize("0.45"), b: ex.percent("45") });
    if (!typed) throw new Error(ex.t("runtime.answer_missing", { form: form }));
    try {
      if (kind === "vector") {
        const inner = /^[(\[]/.test(typed) && /[)\]]$/.test(typed) ? typed.slice(1, -1) : typed;
        const parts = inner.split(ex.decimalComma() ? /;/ : /[,;]/);
        if (parts.length !== n) throw new Error(typed);
        return parts.map(number);
      }
      if (kind === "weight" && typed.endsWith("%")) return number(typed.slice(0, -1).trim()) / 100;
      return number(typed);
    } catch (err) {
      throw new Error(ex.t("runtime.answer_unreadable", { typed: typed.slice(0, 40), form: form }));
    }
  }

  function close(a, b, tolerance) {
    if (Array.isArray(b)) return Array.isArray(a) && a.length === b.length && a.every(function (x, i) { return Math.abs(x - b[i]) <= tolerance; });
    return !Array.isArray(a) && Math.abs(a - b) <= tolerance;
  }

  function grade(data, typed) {
    let answer;
    try { answer = read(typed, data.kind, data.n); } catch (err) { return { ok: false, message: err.message }; }
    if (close(answer, data.answer, data.tolerance)) return { ok: true, message: ex.t("runtime.answer_right") };
    for (const mistake of data.mistakes) {
      if (close(answer, mistake.value, data.tolerance)) return { ok: false, message: mistake.hint, mistake: mistake.name };
    }
    return { ok: false, message: ex.t("runtime.answer_wrong") };
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
