/* A read-only matrix between brackets. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.panels.matrix = function (figure, spec) {
    const el = ex.el("section", { class: "ex-panel ex-matrix-panel" });
    function update(next) {
      const table = ex.el("table", { class: "ex-matrix" });
      if (next.col_labels) {
        table.append(ex.el("tr", null, next.row_labels ? ex.el("th") : null,
          ...next.col_labels.map(function (c) { return ex.el("th", { scope: "col" }, c); })));
      }
      (next.rows || []).forEach(function (row, r) {
        table.append(ex.el("tr", null, next.row_labels ? ex.el("th", { scope: "row" }, next.row_labels[r]) : null,
          ...row.map(function (v) { return ex.el("td", null, v); })));
      });
      el.replaceChildren(next.title ? ex.el("h3", { class: "ex-panel-title" }, next.title) : "", table);
    }
    update(spec);
    return { el: el, update: update, highlight: function () {} };
  };
})();
