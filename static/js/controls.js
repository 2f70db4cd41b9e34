/* The control kit: slider, toggle, select, buttons, a matrix of typed numbers; a typed
   number, a grid of them and play are in controls/ (each page's runtime carries the kinds
   its figures draw: site_builder/output/panels.py), made with ex.controlKit. Each control
   sends events named in the scene; none knows what a figure means. A refused typed value
   stays in its field with a message until the reader fixes it. */
(function () {
  "use strict";
  const ex = window.explorables;
  let serial = 0;
  function uid(prefix) { serial += 1; return "ex-" + prefix + "-" + serial; }
  function send(figure, event) { return figure.send(event).catch(function () {}); }

  function frame(spec, body) {
    const help = ex.el("p", { class: "ex-help" });
    const el = ex.el("div", { class: "ex-control ex-control-" + spec.kind }, body, help);
    return {
      el: el,
      help: function (next) { ex.setText(help, next.help || ""); help.hidden = !next.help; },
    };
  }

  ex.controls.slider = function (figure, spec) {
    const id = uid("slider");
    const input = ex.el("input", { type: "range", id: id, name: spec.name });
    // <output> is a live region by default: the slider's own value text is what is heard
    const output = ex.el("output", { for: id, "aria-live": "off", "aria-hidden": "true" });
    const label = ex.el("label", { for: id });
    const f = frame(spec, ex.el("div", { class: "ex-slider-head" }, label, output));
    f.el.insertBefore(input, f.el.lastChild);
    let digits = 2, r = spec;
    /* A log slider moves along log(value) in whole steps (ex.range.track); the engine always
       gets the value itself. */
    function fromInput() {
      const value = ex.range.fromTrack(r, Number(input.value));
      return ex.range.log(r) ? Number(value.toPrecision(4)) : value;
    }
    let labelText = spec.label;
    /* The value a screen reader speaks is written before the input event returns, so the
       slider never says an older number than the one drawn beside it. */
    function show(value) {
      const text = ex.fmt(value, digits);
      output.textContent = text;
      input.setAttribute("aria-valuetext", labelText + " " + text);
    }
    input.addEventListener("input", function () {
      const value = fromInput();
      show(value);
      send(figure, { type: "set", name: spec.name, value: value });
    });
    function update(next) {
      digits = next.digits === undefined ? 2 : next.digits;
      r = next;
      ex.setText(label, labelText = next.label);
      const track = ex.range.track(r);
      input.min = track.min; input.max = track.max; input.step = track.step;
      // while the reader moves the slider, an older answer must not pull it (or its
      // spoken value) back; any other answer (a Play tick's) moves it
      if (!figure.setting(spec.name)) { input.value = ex.range.toTrack(r, next.value); show(Number(next.value)); }
      f.help(next);
    }
    update(spec);
    return { el: f.el, update: update };
  };

  ex.controls.toggle = function (figure, spec) {
    const input = ex.el("input", { type: "checkbox", role: "switch", name: spec.name });
    const text = ex.el("span");
    const f = frame(spec, ex.el("label", { class: "ex-toggle" }, input, text));
    input.addEventListener("change", function () { send(figure, { type: "set", name: spec.name, value: input.checked }); });
    function update(next) { ex.setText(text, next.label); input.checked = !!next.value; f.help(next); }
    update(spec);
    return { el: f.el, update: update };
  };

  ex.controls.select = function (figure, spec) {
    const id = uid("select");
    const select = ex.el("select", { id: id, name: spec.name });
    const label = ex.el("label", { for: id });
    const f = frame(spec, ex.el("div", { class: "ex-select" }, label, select));
    select.addEventListener("change", function () { send(figure, { type: "set", name: spec.name, value: select.value }); });
    function update(next) {
      ex.setText(label, next.label);
      select.replaceChildren.apply(select, next.options.map(function (o) {
        return ex.el("option", { value: o.value, selected: o.value === next.value }, o.label);
      }));
      select.value = next.value;
      f.help(next);
    }
    update(spec);
    return { el: f.el, update: update };
  };

  ex.controls.buttons = function (figure, spec) {
    const heading = ex.el("h4", { class: "ex-control-title" });
    const list = ex.el("div", { class: "ex-buttons", role: "group" });
    const message = ex.el("p", { class: "ex-message" });
    const f = frame(spec, ex.el("div", null, heading, list, message));
    function update(next) {
      ex.setText(heading, next.label || ""); heading.hidden = !next.label;
      list.setAttribute("aria-label", next.label || ex.t("runtime.actions"));
      list.replaceChildren.apply(list, next.items.map(function (item) {
        return ex.el("button", {
          type: "button", class: "ex-button" + (item.active ? " ex-active" : ""), title: item.title,
          dataset: { focusKey: "action:" + item.name },
          "aria-pressed": item.active === undefined ? undefined : String(!!item.active),
          onclick: function () { send(figure, { type: "action", name: item.name }); },
        }, item.label);
      }));
      // "reveal": the message says what to look for, hidden until the reader asks, so
      // they can predict first.
      if (next.reveal && next.message) {
        const open = message.querySelector("details") ? message.querySelector("details").open : false;
        message.replaceChildren(ex.el("details", { open: open && message.dataset.text === next.message },
          ex.el("summary", null, next.reveal), ex.el("p", null, next.message)));
      } else {
        ex.setText(message, next.message || "");
      }
      message.dataset.text = next.message || "";
      message.hidden = !next.message;
      f.help(next);
    }
    update(spec);
    return { el: f.el, update: update };
  };

  /* A typed number: sends the raw text on change (Enter or leaving the field); Enter
     keeps the focus in the field, Escape puts back the last value the figure took. A
     refused text stays, described by its message, until the reader fixes it. */
  function numberField(figure, cell, labelText, fields, id) {
    // named by a visible <label for=id> when it has one, else by its aria-label
    const input = ex.el("input", { type: "text", inputmode: "decimal", name: cell.name, id: id,
                                   "aria-label": id ? undefined : labelText,
                                   class: "ex-number", autocomplete: "off", spellcheck: "false" });
    // not a live region: the figure's one announcer says the message once
    const error = ex.el("span", { class: "ex-field-error", id: uid("error") });
    error.hidden = true;
    input.value = cell.value;
    let sent = input.value;
    // ``again``: Enter on a refused text sends it again (its message is said again);
    // leaving the field does not (nor does a page swapped in under it)
    function commit(again) {
      if (input.value === sent && !(again && field.invalid)) return;
      sent = input.value;
      send(figure, { type: "set", name: cell.name, value: input.value });
    }
    input.addEventListener("change", function () { commit(false); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") { event.preventDefault(); commit(true); }
      if (event.key === "Escape" && (input.value !== String(field.shown) || field.invalid)) {
        event.preventDefault();
        event.stopPropagation();
        input.value = sent = String(field.shown);
        field.ok();
        figure.announce(ex.t("runtime.field_back", { label: labelText, value: field.shown }));
      }
    });
    const field = {
      input: input, error: error, label: labelText, invalid: false, shown: cell.value,
      /* The figure's value for this field. A refused text stays until the reader fixes
         it, unless the value changes another way (a drag, a preset): then it follows.
         What the reader is typing since the last text sent stays too: an answer to that
         text, coming meanwhile, does not write over it. */
      set: function (value) {
        const changed = String(value) !== String(field.shown);
        field.shown = value;
        if (changed && field.invalid) field.ok();
        const typing = document.activeElement === input && input.value !== sent;
        if (!field.invalid && !typing && (changed || document.activeElement !== input)) input.value = sent = String(value);
      },
      fail: function (message) {
        field.invalid = true; input.setAttribute("aria-invalid", "true");
        input.setAttribute("aria-describedby", error.id);
        error.textContent = message; error.hidden = false;
      },
      ok: function () {
        field.invalid = false; input.removeAttribute("aria-invalid"); input.removeAttribute("aria-describedby");
        error.textContent = ""; error.hidden = true;
      },
    };
    fields[cell.name] = field;
    return ex.el("span", { class: "ex-field" }, input, error);
  }

  ex.controls.matrix = function (figure, spec) {
    const heading = ex.el("h4", { class: "ex-control-title" });
    const table = ex.el("table", { class: "ex-matrix ex-matrix-edit" });
    const presets = ex.el("div", { class: "ex-buttons ex-presets", role: "group" });
    const f = frame(spec, ex.el("div", null, heading, table, presets));
    const fields = Object.create(null);  // a field's name (the author's) -> field
    let shape = "";
    function update(next) {
      ex.setText(heading, next.label);
      const nextShape = JSON.stringify(next.rows.map(function (r) { return r.map(function (c) { return c.name; }); }));
      if (nextShape !== shape) {
        shape = nextShape;
        for (const key of Object.keys(fields)) delete fields[key];
        table.replaceChildren(...next.rows.map(function (row, i) {
          return ex.el("tr", null, ...row.map(function (cell, j) {
            return ex.el("td", null, numberField(figure, cell, ex.t("runtime.matrix_cell", { label: next.label, i: i + 1, j: j + 1 }), fields));
          }));
        }));
      }
      next.rows.forEach(function (row) { row.forEach(function (cell) { fields[cell.name].set(cell.value); }); });
      presets.setAttribute("aria-label", ex.t("runtime.presets", { label: next.label }));
      presets.replaceChildren.apply(presets, (next.presets || []).map(function (p) {
        return ex.el("button", { type: "button", class: "ex-button ex-small" + (p.active ? " ex-active" : ""),
          dataset: { focusKey: "action:" + p.name },
          onclick: function () { send(figure, { type: "action", name: p.name }); } }, p.label);
      }));
      presets.hidden = !(next.presets && next.presets.length);
      f.help(next);
    }
    update(spec);
    return { el: f.el, update: update, fields: fields };
  };

  ex.controlKit = { uid: uid, send: send, frame: frame, numberField: numberField };  // controls/*.js
})();
