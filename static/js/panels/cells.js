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
    let built = null;  // the shape of the table's elements (shapeOf)

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

    /* Which scene cell each table cell shows ([row, column] of its rows), and which mark
       each button selects: the table is kept from one answer to the next and its cells
       rewritten in place (rebuilt, a table of 144 cells was 30-40 ms of every answer), so
       the handlers below ask these rather than holding a cell of their own. */
    const places = new WeakMap();  // td -> [row, column]
    const marks = new WeakMap();  // button -> what a click on it selects: {mark, index}
    function sceneCell(node) {
      const td = node && node.closest ? node.closest("td") : null;
      const at = td && table.contains(td) ? places.get(td) : null;
      const cell = at && current.rows && current.rows[at[0]] ? current.rows[at[0]][at[1]] : null;
      return cell ? { cell: cell, at: at } : null;
    }

    /* An attribute, text or fill written only when it changed: what stays the same costs
       the browser no new style. */
    function attr(node, name, value) {
      if (value === undefined || value === null) {
        if (node.hasAttribute(name)) node.removeAttribute(name);
      } else if (node.getAttribute(name) !== String(value)) {
        node.setAttribute(name, value);
      }
    }
    function text(node, value) {
      if (node.textContent !== (value == null ? "" : String(value))) ex.setText(node, value);
    }
    const fills = new WeakMap();  // td -> the background its tone gave it
    function tone(node, item) {
      const fill = toneStyle(item).background || "";
      if ((fills.get(node) || "") === fill) return;
      fills.set(node, fill);
      node.style.background = fill;
    }

    /* A label or cell of the table, empty until written: a selectable one holds a button. */
    function made(tag, item, scope) {
      const node = ex.el(tag, { scope: scope });
      if (item.select) node.append(ex.el("button", { type: "button", class: "ex-cell-button ex-focusable" }));
      return node;
    }
    function writeButton(button, item, ref) {
      attr(button, "aria-label", item.title || item.text);
      attr(button, "data-focus-key", "select:" + item.id);
      marks.set(button, ref || item.ref || { mark: item.id });
      text(button, item.text);
    }
    function writeLabel(node, item) {
      attr(node, "data-link", item.link);
      attr(node, "class", item.active ? "ex-active" : undefined);
      if (item.select) writeButton(node.firstChild, item); else text(node, item.text);
    }
    function writeCell(td, cell, at, colors) {
      const explained = !cell.select && !!cell.detail;  // a Tab stop of its own, for its arithmetic
      attr(td, "class", "ex-cell" + (cell.active ? " ex-active" : "") + (cell.muted ? " ex-muted" : "") +
        (Math.abs(cell.tone || 0) > 0.45 ? " ex-strong" : "") + ink(colors, cell) + (explained ? " ex-focusable" : ""));
      if (!explained) attr(td, "tabindex", undefined);
      // a cell holding a button is named once, by the button
      attr(td, "title", cell.title);
      attr(td, "aria-label", cell.select ? undefined : cell.title);
      attr(td, "data-link", cell.link);
      tone(td, cell);
      places.set(td, at);
      if (cell.select) {  // a cell reports its panel's mark, and its row and column
        writeButton(td.firstChild, cell, { mark: current.mark || current.id, index: at });
        attr(td.firstChild, "aria-pressed", cell.active ? "true" : "false");
      } else {
        text(td, cell.text);
      }
    }

    /* What decides the table's elements: its rows, their lengths, which labels and cells
       are buttons. A table of the same shape is rewritten in place, another built anew. */
    function shapeOf(next) {
      const select = function (item) { return item && item.select ? 1 : 0; };
      return JSON.stringify([next.col_labels ? next.col_labels.map(select) : null, !!next.row_labels,
        (next.rows || []).map(function (row, r) {
          return [next.row_labels && next.row_labels[r] ? select(next.row_labels[r]) : -1, row.map(select)];
        })]);
    }
    function build(next) {
      const rows = [];
      if (next.col_labels) {
        const head = ex.el("tr", null, next.row_labels ? ex.el("td", { "aria-hidden": "true" }) : null);
        next.col_labels.forEach(function (c) { head.append(made("th", c, "col")); });
        rows.push(ex.el("thead", null, head));
      }
      const body = ex.el("tbody");
      (next.rows || []).forEach(function (row, r) {
        const tr = ex.el("tr");
        if (next.row_labels && next.row_labels[r]) tr.append(made("th", next.row_labels[r], "row"));
        row.forEach(function (cell) { tr.append(made("td", cell)); });
        body.append(tr);
      });
      rows.push(body);
      table.replaceChildren.apply(table, rows);
    }
    function write(next) {
      const shift = next.row_labels ? 1 : 0;  // the head's corner
      if (next.col_labels) {
        next.col_labels.forEach(function (c, i) { writeLabel(table.tHead.rows[0].cells[i + shift], c); });
      }
      const colors = palette(figure);
      const body = table.tBodies[0];
      (next.rows || []).forEach(function (row, r) {
        const tr = body.rows[r];
        attr(tr, "class", next.active_row === r ? "ex-active-row" : undefined);
        const labelled = next.row_labels && next.row_labels[r] ? 1 : 0;
        if (labelled) writeLabel(tr.cells[0], next.row_labels[r]);
        row.forEach(function (cell, c) { writeCell(tr.cells[c + labelled], cell, [r, c], colors); });
      });
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
    /* The focus on a cell: its detail shown, what it names highlighted. */
    function focusCell(node) {
      const found = sceneCell(node);
      if (!found) {  // a row's or a column's label: no arithmetic of its own, nor the last cell's
        focused = null;
        showDetail(null);
        return;
      }
      focused = found.cell;
      showDetail(found.cell, found.at);
      figure.hover(found.cell.link || null);
    }
    table.addEventListener("focusin", function (event) {
      if (!event.target.classList.contains("ex-focusable")) return;
      rove(event.target);
      focusCell(event.target);
    });
    // the pointer on a cell shows its detail (once as it enters, not again over its button)
    table.addEventListener("mouseover", function (event) {
      const found = sceneCell(event.target);
      if (!found) return;
      const td = event.target.closest("td");
      if (!(event.relatedTarget && td.contains(event.relatedTarget))) showDetail(found.cell, found.at);
    });
    table.addEventListener("click", function (event) {
      const button = event.target.closest && event.target.closest(".ex-cell-button");
      const ref = button && marks.get(button);
      if (ref) figure.send({ type: "select", mark: ref.mark, index: ref.index }).catch(function () {});
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
      const shape = shapeOf(next);
      if (shape !== built) { build(next); built = shape; }
      write(next);
      showDetail(null);
      if (pointed && next.rows && next.rows[pointed[0]] && next.rows[pointed[0]][pointed[1]]) {
        showDetail(next.rows[pointed[0]][pointed[1]], pointed);
      }
      // keep the keyboard's place on redraw; else the active cell, else the first
      const again = (place && focusable(place[0], place[1])) ||
        table.querySelector(".ex-active .ex-focusable, .ex-active.ex-focusable") || table.querySelector(".ex-focusable");
      if (again) rove(again);
      // (a cell kept in place keeps the focus: it shows its new detail as a focus would)
      if (again && had) {
        if (again === document.activeElement) focusCell(again); else again.focus({ preventScroll: true });
      }
    }

    update(spec);
    // the reader looks at the arithmetic: the pointer on the table, or the focus in it
    const wantsDetail = function () { return el.matches(":hover") || el.contains(document.activeElement); };
    return { el: el, update: update, highlight: function () {}, wantsDetail: wantsDetail };
  };
})();
