/* A row or grid of numbers; cells coloured by tone (sign and size), optionally
   clickable (select events), with a detail box for the hovered or focused cell. The
   detail box is not a live region: a screen reader hears a cell's short name as the
   arrow keys reach it, and its arithmetic only when asked for, with the D key. */
(function () {
  "use strict";
  const ex = window.explorables;

  /* How much of its role's colour a cell's fill takes (0..0.75); a muted cell half that. */
  function toneShare(cell) {
    const tone = cell.tone;
    if (typeof tone !== "number" || !isFinite(tone) || tone === 0) return 0;
    return Math.round(Math.min(1, Math.abs(tone)) * 75 * (cell.muted ? 0.5 : 1)) / 100;
  }
  function toneStyle(cell) {
    const share = toneShare(cell);
    if (!share) return {};
    const role = cell.tone > 0 ? "positive" : "negative";
    return { background: "color-mix(in srgb, var(--ex-" + role + ") " + Math.round(share * 100) + "%, transparent)" };
  }

  /* WCAG 2.1 contrast of two [r, g, b] colours (0..255). */
  function luminance(c) {
    const f = function (v) { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  }
  function contrast(a, b) {
    const la = luminance(a), lb = luminance(b);
    return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
  }
  function parse(value) {
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value);
    if (!hex) return null;
    const h = hex[1].length === 3 ? hex[1].replace(/./g, "$&$&") : hex[1];
    return [0, 2, 4].map(function (i) { return parseInt(h.slice(i, i + 2), 16); });
  }

  /* The ink a cell's text needs on the fill it ends up with (its role's colour over the
     panel): its own colour (text, or soft when muted) if that reads at 4.5:1, else
     whichever of the dark and light inks reads better. "" keeps its own colour. */
  function ink(colors, cell) {
    const share = toneShare(cell);
    const own = colors[cell.muted ? "soft" : "text"];
    const panel = colors.panel;
    const role = colors[cell.tone > 0 ? "positive" : "negative"];
    if (!share || !own || !panel || !role) return "";
    const fill = panel.map(function (p, i) { return share * role[i] + (1 - share) * p; });
    if (contrast(own, fill) >= 4.5) return "";
    const dark = colors["ink-dark"] || [0, 0, 0];
    const light = colors["ink-light"] || [255, 255, 255];
    return contrast(dark, fill) >= contrast(light, fill) ? " ex-ink-dark" : " ex-ink-light";
  }

  /* The colours ink() mixes, read from the stylesheet once per colour scheme (a table
     of 144 cells asked for them 700 times, a fifth of its first frame's time; and each
     reading made the browser compute the style of a page just swapped in). */
  const ROLES = ["text", "soft", "panel", "positive", "negative", "ink-dark", "ink-light"];
  const DARK = "screen and (prefers-color-scheme: dark)";  // as the stylesheet's
  const palettes = {};
  function palette(figure) {
    const scheme = window.matchMedia && window.matchMedia(DARK).matches ? "dark" : "light";
    if (palettes[scheme]) return palettes[scheme];
    const style = getComputedStyle(figure.root);
    const colors = {};
    let read = true;
    ROLES.forEach(function (role) {
      const value = style.getPropertyValue("--ex-" + role).trim();
      if (!value) read = false;
      colors[role] = parse(value || "#888");
    });
    if (read) palettes[scheme] = colors;  // not kept when read without the stylesheet
    return colors;
  }

  let tables = 0;  // numbers the tables of the page, for their hints' ids

  ex.panels.cells = function (figure, spec) {
    const title = ex.el("h3", { class: "ex-panel-title" });
    const caption = ex.el("p", { class: "ex-caption" });
    const key = ex.el("ul", { class: "ex-legend ex-cells-key" });  // what the colours mean
    const table = ex.el("table", { class: "ex-cells" });
    const detail = ex.el("div", { class: "ex-detail" });
    const hint = ex.el("p", { class: "ex-sr", id: "ex-cells-hint-" + (++tables) },
      ex.t("runtime.cells_keys"));
    const el = ex.el("section", { class: "ex-panel ex-cells-panel" }, title, caption, key,
      ex.el("div", { class: "ex-scroll" }, table), detail, hint);
    let current = spec;
    let focused = null;  // the cell the keyboard is on

    let shown = null;  // [row, column] of the cell whose detail the box shows

    /* A cell's detail lines. A page's first frame leaves the cells' arithmetic out
       ("detail_later": the engine gives it once live): until then, a line saying so. */
    function linesOf(cell) {
      if (cell && cell.detail && cell.detail.length) return cell.detail;
      if (cell && cell.detail && current.detail_later) {
        if (!figure.live) return [ex.t("runtime.detail_later")];
        figure.complete(true);  // live: asked for now, shown when it comes
        return [ex.t("runtime.detail_coming")];
      }
      return (cell && cell.detail) || current.detail || [];
    }

    function showDetail(cell, at) {
      const lines = linesOf(cell);
      shown = cell ? at || null : null;
      detail.replaceChildren.apply(detail, lines.map(function (line) { return ex.el("div", null, line); }));
      detail.hidden = lines.length === 0;
    }

    function label(item, tag, scope) {
      // a label with "select" is a button, like a selectable cell
      const content = item.select ? ex.el("button", {
        type: "button", class: "ex-cell-button ex-focusable", "aria-label": item.title || item.text,
        dataset: { focusKey: "select:" + item.id },
        onclick: function () { figure.send({ type: "select", mark: item.id }).catch(function () {}); },
      }, item.text) : item.text;
      return ex.el(tag, { scope: scope, dataset: item.link ? { link: item.link } : undefined, class: item.active ? "ex-active" : undefined }, content);
    }

    /* [row, column] of the table cell that holds an element, or null. */
    function position(node) {
      const cell = node && node.closest ? node.closest("td, th") : null;
      if (!cell || !table.contains(cell)) return null;
      return [Array.prototype.indexOf.call(table.rows, cell.parentElement),
              Array.prototype.indexOf.call(cell.parentElement.children, cell)];
    }
    function focusable(r, c) {
      const cell = table.rows[r] && table.rows[r].children[c];
      if (!cell) return null;
      return cell.classList.contains("ex-focusable") ? cell : cell.querySelector(".ex-focusable");
    }
    /* One Tab stop per table (a roving tabindex): arrow keys move inside it. */
    function rove(target) {
      table.querySelectorAll(".ex-focusable").forEach(function (node) { node.tabIndex = node === target ? 0 : -1; });
    }
    table.addEventListener("focusin", function (event) {
      if (event.target.classList.contains("ex-focusable")) rove(event.target);
    });

    /* Arrow keys move the focus to the nearest focusable cell or label in that direction;
       D says the focused cell's detail lines. */
    table.addEventListener("keydown", function (event) {
      if ((event.key === "d" || event.key === "D") && !event.ctrlKey && !event.metaKey && !event.altKey) {
        const lines = focused ? linesOf(focused) : [];
        if (lines.length && table.contains(event.target)) {
          event.preventDefault();
          figure.announce(lines.join(". "));
        }
        return;
      }
      const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
      const move = moves[event.key];
      const from = move && position(event.target);
      if (!from) return;
      for (let r = from[0] + move[0], c = from[1] + move[1]; table.rows[r] && table.rows[r].children[c];
           r += move[0], c += move[1]) {
        const target = focusable(r, c);
        if (target) { event.preventDefault(); target.focus(); return; }
      }
    });

    function update(next) {
      current = next;
      ex.setText(title, next.title || ""); title.hidden = !next.title;
      ex.setText(caption, next.caption || ""); caption.hidden = !next.caption;
      key.replaceChildren.apply(key, (next.key || []).map(function (item) {
        return ex.el("li", null, ex.el("span", { class: "ex-swatch ex-cell-swatch", style: toneStyle(item) }), item.label);
      }));
      key.hidden = !(next.key && next.key.length);
      el.classList.toggle("ex-wide", !!next.wide);
      el.classList.toggle("ex-narrow", next.wide === false);  // may share a row with another panel
      const columns = ((next.rows || [])[0] || []).length;
      el.classList.toggle("ex-many", columns >= 10);  // compact cells
      el.classList.toggle("ex-crowded", columns >= 14);  // more compact: 16 fit beside the controls
      const rows = [];
      if (next.col_labels) {
        const head = ex.el("tr", null, next.row_labels ? ex.el("td", { "aria-hidden": "true" }) : null);
        next.col_labels.forEach(function (c) { head.append(label(c, "th", "col")); });
        rows.push(ex.el("thead", null, head));
      }
      const body = ex.el("tbody");
      const colors = palette(figure);
      (next.rows || []).forEach(function (row, r) {
        const tr = ex.el("tr", { class: next.active_row === r ? "ex-active-row" : undefined });
        if (next.row_labels && next.row_labels[r]) tr.append(label(next.row_labels[r], "th", "row"));
        row.forEach(function (cell, c) {
          const attrs = {
            class: "ex-cell" + (cell.active ? " ex-active" : "") + (cell.muted ? " ex-muted" : "") +
              (Math.abs(cell.tone || 0) > 0.45 ? " ex-strong" : "") + ink(colors, cell),
            // a cell holding a button is named once, by the button
            title: cell.title, "aria-label": cell.select ? undefined : cell.title,
            dataset: cell.link ? { link: cell.link } : undefined,
            style: toneStyle(cell),
          };
          let content = cell.text;
          if (cell.select) {
            content = ex.el("button", {
              type: "button", class: "ex-cell-button ex-focusable", "aria-label": cell.title || cell.text,
              dataset: { focusKey: "select:" + cell.id },
              "aria-pressed": cell.active ? "true" : "false",
              onclick: function () { figure.send({ type: "select", mark: cell.id }).catch(function () {}); },
            }, cell.text);
          }
          const td = ex.el("td", attrs, content);
          const target = cell.select ? content : td;
          if (!cell.select && cell.detail) td.classList.add("ex-focusable");
          const at = [r, c];
          td.addEventListener("mouseenter", function () { showDetail(cell, at); });
          target.addEventListener("focus", function () { focused = cell; showDetail(cell, at); figure.hover(cell.link || null); });
          tr.append(td);
        });
        body.append(tr);
      });
      rows.push(body);
      const explained = (next.rows || []).some(function (row) {
        return row.some(function (cell) { return cell.detail && (cell.detail.length || next.detail_later); });
      });
      hint.hidden = !explained;
      if (explained) table.setAttribute("aria-describedby", hint.id); else table.removeAttribute("aria-describedby");
      const had = table.contains(document.activeElement);
      const place = position(had ? document.activeElement : table.querySelector(".ex-focusable[tabindex='0']"));
      // the cell the pointer was on keeps its detail shown (the arithmetic arriving
      // from the engine after the first frame, say); the focused cell shows its own below
      const pointed = shown && el.matches(":hover") ? shown : null;
      table.replaceChildren.apply(table, rows);
      showDetail(null);
      if (pointed && next.rows && next.rows[pointed[0]] && next.rows[pointed[0]][pointed[1]]) {
        showDetail(next.rows[pointed[0]][pointed[1]], pointed);
      }
      // keep the keyboard's place on redraw; else the active cell, else the first
      const again = (place && focusable(place[0], place[1])) ||
        table.querySelector(".ex-active .ex-focusable, .ex-active.ex-focusable") || table.querySelector(".ex-focusable");
      if (again) rove(again);
      if (again && had) again.focus({ preventScroll: true });
    }

    update(spec);
    // the reader looks at the arithmetic: the pointer on the table, or the focus in it
    const wantsDetail = function () { return el.matches(":hover") || el.contains(document.activeElement); };
    return { el: el, update: update, highlight: function () {}, wantsDetail: wantsDetail };
  };
})();
