/* Plain words, key/value items, or a collapsible block (a <details>). */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.panels.text = function (figure, spec) {
    const el = ex.el("section", { class: "ex-panel ex-text" });
    let details = null;
    function update(next) {
      const open = details ? details.open : false;
      const parts = [];
      (next.paragraphs || []).forEach(function (p) { parts.push(ex.el(next.mono ? "pre" : "p", null, p)); });
      if (next.items && next.items.length) {
        const dl = ex.el("dl", { class: "ex-items" });
        next.items.forEach(function (item) { dl.append(ex.el("div", null, ex.el("dt", null, item[0]), ex.el("dd", null, item[1]))); });
        parts.push(dl);
      }
      el.classList.toggle("ex-wide", !!next.wide);
      if (next.collapsible) {
        details = ex.el("details", { open: open }, ex.el("summary", null, next.collapsible));
        parts.forEach(function (p) { details.append(p); });
        el.replaceChildren(details);
      } else {
        details = null;
        el.replaceChildren.apply(el, [next.title ? ex.el("h3", { class: "ex-panel-title" }, next.title) : null].filter(Boolean).concat(parts));
      }
    }
    update(spec);
    return { el: el, update: update, highlight: function () {} };
  };
})();
