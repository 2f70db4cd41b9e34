/* A formula as numbered steps, the one being looked at highlighted. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.panels.steps = function (figure, spec) {
    const title = ex.el("h3", { class: "ex-panel-title" });
    const formula = ex.el("p", { class: "ex-formula" });
    const list = ex.el("ol", { class: "ex-steps" });
    const el = ex.el("section", { class: "ex-panel ex-steps-panel" }, title, formula, list);
    function update(next) {
      ex.setText(title, next.title || ""); title.hidden = !next.title;
      formula.textContent = next.formula || ""; formula.hidden = !next.formula;
      el.classList.toggle("ex-wide", !!next.wide);
      list.replaceChildren.apply(list, (next.steps || []).map(function (step, i) {
        const active = next.active === i;
        return ex.el("li", { class: active ? "ex-active" : undefined, "aria-current": active ? "step" : undefined },
          ex.el("span", { class: "ex-step-label" }, step.label),
          ex.el("span", { class: "ex-step-note" }, step.note || ""),
          step.detail ? ex.el("span", { class: "ex-step-detail" }, step.detail) : null);
      }));
    }
    update(spec);
    return { el: el, update: update, highlight: function () {} };
  };
})();
