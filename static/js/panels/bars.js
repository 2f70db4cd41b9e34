/* Horizontal bars with labels and values (weights, shares), and a footer line. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.panels.bars = function (figure, spec) {
    const title = ex.el("h3", { class: "ex-panel-title" });
    const caption = ex.el("p", { class: "ex-caption" });
    const list = ex.el("ul", { class: "ex-bars" });
    const footer = ex.el("p", { class: "ex-bars-footer" });
    const el = ex.el("section", { class: "ex-panel ex-bars-panel" }, title, caption, list, footer);

    function update(next) {
      ex.setText(title, next.title || ""); title.hidden = !next.title;
      ex.setText(caption, next.caption || ""); caption.hidden = !next.caption;
      el.classList.toggle("ex-wide", !!next.wide);
      const max = next.max || Math.max.apply(null, (next.bars || []).map(function (b) { return Math.abs(b.value); }).concat([1e-12]));
      list.replaceChildren.apply(list, (next.bars || []).map(function (bar, i) {
        const pct = Math.max(0, Math.min(100, (Math.abs(bar.value) / max) * 100));
        const label = bar.select
          ? ex.el("button", { type: "button", class: "ex-bar-label ex-link-button", "aria-pressed": bar.active ? "true" : "false",
              dataset: { focusKey: "select:" + bar.id },
              onclick: function () { figure.send({ type: "select", mark: next.mark || next.id, index: i }).catch(function () {}); } }, bar.label)
          : ex.el("span", { class: "ex-bar-label" }, bar.label);
        return ex.el("li", { class: "ex-bar" + (bar.muted ? " ex-muted" : "") + (bar.active ? " ex-active" : ""),
                             dataset: bar.link ? { link: bar.link } : undefined },
          label,
          ex.el("span", { class: "ex-bar-track", "aria-hidden": "true" },
            ex.el("span", { class: "ex-bar-fill", style: { width: pct + "%", background: "var(--ex-" + (bar.role || "accent") + ")" } })),
          ex.el("span", { class: "ex-bar-value" }, bar.text));
      }));
      ex.setText(footer, next.footer || ""); footer.hidden = !next.footer;
    }
    update(spec);
    return { el: el, update: update, highlight: function () {} };
  };
})();
