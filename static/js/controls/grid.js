/* A grid of typed numbers, its rows and columns named (controls.js). */
(function () {
  "use strict";
  const ex = window.explorables;
  const kit = ex.controlKit;
  ex.controls.grid = function (figure, spec) {
    const heading = ex.el("h4", { class: "ex-control-title" });
    const table = ex.el("table", { class: "ex-grid" });
    // a wide grid scrolls in its own box on a narrow screen, not the page
    const f = kit.frame(spec, ex.el("div", null, heading, ex.el("div", { class: "ex-scroll ex-grid-scroll" }, table)));
    const fields = Object.create(null);  // a field's name (the author's) -> field
    let shape = "";
    function update(next) {
      ex.setText(heading, next.label);
      const nextShape = JSON.stringify([next.col_labels, next.rows.map(function (r) { return [r.label, r.cells.map(function (c) { return c.name; })]; })]);
      if (nextShape !== shape) {
        shape = nextShape;
        for (const key of Object.keys(fields)) delete fields[key];
        // the corner names the row labels' column, for screen readers (no empty header)
        const corner = ex.el("th", { scope: "col" }, ex.el("span", { class: "ex-sr" }, next.corner || ex.t("runtime.row")));
        const head = ex.el("tr", null, corner, ...(next.col_labels || []).map(function (c) { return ex.el("th", { scope: "col" }, c); }));
        table.replaceChildren(ex.el("thead", null, head), ex.el("tbody", null, ...next.rows.map(function (row) {
          return ex.el("tr", { dataset: row.link ? { link: row.link } : undefined },
            ex.el("th", { scope: "row" }, row.label),
            ...row.cells.map(function (cell, j) {
              const name = cell.label || row.label + " " + ((next.col_labels || [])[j] || j + 1);
              return ex.el("td", null, kit.numberField(figure, cell, name, fields));
            }));
        })));
      }
      next.rows.forEach(function (row) { row.cells.forEach(function (cell) { fields[cell.name].set(cell.value); }); });
      f.help(next);
    }
    update(spec);
    return { el: f.el, update: update, fields: fields };
  };
})();
