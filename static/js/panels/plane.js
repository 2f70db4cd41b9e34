/* A 2-D plane on a canvas: grid, axes, marks; draggable points, and arrows by their head,
   by pointer (mouse, touch, pen) and keyboard (digits, or N and P, pick one; arrows move a
   draggable one, Shift for big steps; Enter makes a selectable point the choice); hover
   linking by mark link.
   For screen readers the canvas is a widget (role application) when it takes keys, and
   is described by the list of its points (and, for a chart, its curves in words). */
(function () {
  "use strict";
  const ex = window.explorables;
  const G = ex.geometry, PAD = G.pad;
  const NEAR = "50% 0px";  // how near the view a plane is drawn: half a screen above or below it
  let planes = 0;  // numbers the planes of the page, for their point lists' ids

  function createPlane(figure, spec) {
    // dir="ltr": a plane keeps its mathematical orientation (x grows to the right) on
    // right-to-left pages too, and says so there.
    const canvas = ex.el("canvas", { class: "ex-canvas", dir: "ltr" });
    const orientation = ex.words.dir === "rtl" && ex.el("p", { class: "ex-caption ex-orientation" }, ex.t("runtime.orientation"));
    const listId = "ex-points-" + (++planes);
    const list = ex.el("ul", { class: "ex-sr", id: listId }); // the marks, for screen readers
    const about = ex.el("p", { class: "ex-sr", id: listId + "-about" });  // a chart's curves in words
    const title = ex.el("h3", { class: "ex-panel-title" });
    const caption = ex.el("p", { class: "ex-caption" });
    const legend = ex.el("ul", { class: "ex-legend", "aria-hidden": "true" });
    const el = ex.el("section", { class: "ex-panel ex-plane" }, title, canvas, orientation, legend, caption, about, list);
    let typed = "", typedAt = 0;  // digits typed in a row pick point 10 and above
    const state = { spec: spec, hot: null, selected: null, drag: null, width: 0, height: 0,
                    sides: Object.create(null), placed: null };  // sides: where each name was last drawn (hysteresis)

    function view() {
      const s = state.spec;
      const colors = Object.create(null);  // role -> colour
      const w = state.width, h = state.height;
      const xs = s.x || [-1, 1], ys = s.y || [-1, 1];
      let kx = (w - 2 * PAD) / (xs[1] - xs[0]), ky = (h - 2 * PAD) / (ys[1] - ys[0]);
      if (s.square) kx = ky = Math.min(kx, ky);
      const ox = (w - kx * (xs[1] - xs[0])) / 2, oy = (h - ky * (ys[1] - ys[0])) / 2;
      return {
        sx: function (x) { return ox + (x - xs[0]) * kx; },
        sy: function (y) { return h - oy - (y - ys[0]) * ky; },
        ix: function (px) { return xs[0] + (px - ox) / kx; },
        iy: function (py) { return ys[0] + (h - oy - py) / ky; },
        color: function (role) { return colors[role] || (colors[role] = ex.color(canvas, role)); },
        isHot: function (link) { return !!link && link === state.hot; },
        selected: state.selected,
        xs: xs, ys: ys, width: w, height: h,
      };
    }

    /* What a reader drags: a point, or an arrow by its head; ``grip`` and ``place`` read and
       set where it is held, in data coordinates. */
    function draggable(m) { return !!m.draggable && (m.kind === "point" || m.kind === "arrow"); }
    function grip(m) { return m.kind === "arrow" ? { x: m.x2, y: m.y2 } : { x: m.x, y: m.y }; }
    function place(m, x, y) { if (m.kind === "arrow") { m.x2 = x; m.y2 = y; } else { m.x = x; m.y = y; } }
    function draggables() { return (state.spec.marks || []).filter(draggable); }

    /* The canvas's size for its width on the page: `measured` by its ResizeObserver, or
       read here (a layout, when the page has changed since the last one). */
    function resize(measured) {
      const width = Math.max(160, Math.round(measured !== undefined ? measured || 320
        : canvas.clientWidth || el.clientWidth || 320));
      const s = state.spec;
      const xs = s.x || [-1, 1], ys = s.y || [-1, 1];
      // equal aspect: as tall as the domain needs (at most square); else a fixed ratio
      const height = Math.round(s.square
        ? Math.min(width, 2 * PAD + (width - 2 * PAD) * (ys[1] - ys[0]) / (xs[1] - xs[0]))
        : Math.min(width * (s.ratio || G.ratio), G.tall));
      if (width === state.width && height === state.height) return false;
      state.width = width; state.height = height;
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * dpr); canvas.height = Math.round(height * dpr);
      canvas.style.height = height + "px";
      return true;
    }

    /* Drawn only near the reader's view: a plane more than half a screen from it (NEAR)
       is left as it is, marked stale, and drawn when the reader comes near (``seen``,
       kept by an IntersectionObserver). A lesson opened or swapped in draws none of the
       planes further down, and an answer redraws only those in sight (on a phone, one of
       a figure's stacked panels). A jump (a link to a heading, End) onto a stale plane
       shows it drawn a frame later: the observer speaks after the frame that brought
       it. Without an observer every plane is drawn. */
    let seen = !window.IntersectionObserver, stale = false;
    function draw() {
      if (!seen) {  // sized all the same: the page's layout (and a kept scroll) is as drawn
        if (!state.width) resize();
        stale = true;
        return;
      }
      paint();
    }
    if (!seen) {
      new IntersectionObserver(function (entries) {
        seen = entries[entries.length - 1].isIntersecting;
        if (seen && stale) paintSoon(0);
      }, { rootMargin: NEAR }).observe(canvas);
    }
    /* A stale plane coming near while its figure waits for the engine's answer (a lesson
       just swapped in, changed at once) is drawn by that answer (figure-engine.js answerFirst). */
    function paintSoon(waited) {
      if (!stale) return;
      if (figure.answerFirst(waited)) requestAnimationFrame(function () { paintSoon(waited + 1); });
      else paint();
    }

    function paint() {
      stale = false;
      if (!state.width) resize();
      const ctx = canvas.getContext("2d");
      const dpr = window.devicePixelRatio || 1;
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      ctx.clearRect(0, 0, state.width, state.height);
      const v = view();
      const marks = state.spec.marks || [];
      const written = ex.planeGrid(ctx, v, state.spec);  // panels/plane-grid.js
      for (const m of marks) {
        const drawer = ex.marks[m.kind];
        if (drawer) drawer(ctx, m, v);
      }
      // names of points and arrows go on top, placed from measured text (marks/label.js)
      state.placed = ex.labels.place(ctx, v, marks, {
        dragged: state.drag ? state.drag.id : null, previous: state.sides,
        boxes: written.map(function (box) { return { box: box, weight: 1 }; }),
      });
      ex.labels.draw(ctx, state.placed, v);
    }

    /* What the tests and authors' scripts read: the canvas size, the names drawn (box in
       canvas px, text, the mark it names), the points (centre and drawn radius) and the
       label marks. */
    function labels() {
      if (!state.placed || stale) paint();
      const v = view();
      const ctx = canvas.getContext("2d");
      const box = function (b) { return { x: b.x0, y: b.y0, width: b.x1 - b.x0, height: b.y1 - b.y0 }; };
      const marks = state.spec.marks || [];
      return {
        panel: state.spec.id, width: state.width, height: state.height,
        labels: state.placed.map(function (p) {
          return Object.assign(box(p.box), { text: p.text, mark: p.mark.id || null, kind: p.mark.kind,
            side: p.side, leader: !!p.leader, shared: p.members || null });
        }),
        points: marks.filter(function (m) { return m.kind === "point"; }).map(function (m) {
          return { id: m.id || null, x: v.sx(m.x), y: v.sy(m.y), r: ex.marks.point.radius(m), label: m.label || null };
        }),
        // each arrow's head as a disc: where it is drawn widest (marks/arrow.js, label.js)
        heads: marks.filter(function (m) { return m.kind === "arrow"; }).map(function (m) {
          return Object.assign({ id: m.id || null }, ex.marks.arrow.head(m, v));
        }),
        marks: marks.filter(function (m) { return m.kind === "label"; }).map(function (m) {
          return Object.assign(box(ex.marks.label.box(ctx, m, v)), { text: m.text });
        }),
      };
    }

    /* The drawing's top left corner in client pixels: inside the canvas's border. */
    function origin() {
      const rect = canvas.getBoundingClientRect();
      return { left: rect.left + canvas.clientLeft, top: rect.top + canvas.clientTop };
    }
    function local(event) {
      const at = origin();
      return { x: event.clientX - at.left, y: event.clientY - at.top };
    }

    /* The mark under the pointer: draggable points and arrow heads (and selectable points)
       first, then anything with a link. */
    function hit(px, py, onlyDraggable) {
      const v = view();
      let best = null, bestD = Infinity;
      const marks = state.spec.marks || [];
      for (let i = marks.length - 1; i >= 0; i--) {
        const m = marks[i];
        const measure = ex.marks[m.kind] && ex.marks[m.kind].distance;
        if (!measure) continue;
        const held = onlyDraggable && m.kind === "arrow" && draggable(m);  // taken by its head
        if (onlyDraggable && !held && !(m.kind === "point" && (m.draggable || m.select))) continue;
        if (!onlyDraggable && !m.link) continue;
        const d = held ? Math.hypot(v.sx(m.x2) - px, v.sy(m.y2) - py) : measure(m, px, py, v);
        const reach = m.kind === "point" || held ? 16 : 6;
        if (d <= reach && d < bestD) { best = m; bestD = d; }
      }
      return best;
    }

    function clamp(value, range) { return Math.max(range[0], Math.min(range[1], value)); }

    function moveTo(mark, x, y) {
      const v = view();
      x = clamp(x, v.xs); y = clamp(y, v.ys);
      place(mark, x, y); // drawn at once; the engine's answer redraws everything
      if (state.drag && state.drag.id === mark.id) state.drag.at = { x: x, y: y };
      draw();
      const ref = mark.ref || { mark: mark.id };  // the mark and the element moved: {mark: "key", index: 3}
      figure.send({ type: "drag", mark: ref.mark, index: ref.index, x: x, y: y }).catch(function () {});
    }
    function select(mark) {  // a click names the mark and the element as a drag does
      const ref = mark.ref || { mark: mark.id };
      figure.send({ type: "select", mark: ref.mark, index: ref.index }).catch(function () {});
    }

    canvas.addEventListener("pointerdown", function (event) {
      const p = local(event);
      const m = hit(p.x, p.y, true);
      if (!m) return;
      event.preventDefault();
      canvas.focus({ preventScroll: true });
      if (m.draggable) {
        state.drag = { id: m.id, pointer: event.pointerId };
        state.selected = m.id;
        canvas.setPointerCapture(event.pointerId);
        canvas.classList.add("ex-dragging");
      } else if (m.select) {
        select(m);
      }
    });
    canvas.addEventListener("pointermove", function (event) {
      const p = local(event);
      if (state.drag && event.pointerId === state.drag.pointer) {
        const mark = (state.spec.marks || []).find(function (m) { return m.id === state.drag.id; });
        const v = view();
        if (mark) moveTo(mark, v.ix(p.x), v.iy(p.y));
        return;
      }
      const over = hit(p.x, p.y, true);
      canvas.style.cursor = over ? (over.draggable ? "grab" : "pointer") : "default";
      const linked = hit(p.x, p.y, false);
      figure.hover(linked ? linked.link : null);
    });
    function endDrag(event) {
      if (state.drag && event.pointerId === state.drag.pointer) {
        state.drag = null;
        canvas.classList.remove("ex-dragging");
      }
    }
    canvas.addEventListener("pointerup", endDrag);
    canvas.addEventListener("pointercancel", endDrag);
    canvas.addEventListener("pointerleave", function () { if (!state.drag) figure.hover(null); });

    function selectables() { return (state.spec.marks || []).filter(function (m) { return m.kind === "point" && m.select; }); }

    /* Pick the point or arrow ``m`` (the n-th of ``points``) and say so. */
    function pick(points, m, movable) {
      state.selected = m.id;
      figure.hover(m.link || null);
      figure.announce(ex.t("runtime.picked_nth", { name: m.label || m.name || m.id, i: points.indexOf(m) + 1, n: points.length }) +
        (movable ? ex.t("runtime.picked_move") : ex.t("runtime.picked_choose")));
      draw();
    }

    /* Keyboard: digits pick the n-th draggable point or arrow, in scene order (or, on a
       plane with none, the n-th selectable point): "1" then "3" within a second picks the
       13th; N and P step to the next and previous one (on a plane with nothing to move, the
       arrow keys too); arrows move a picked draggable one (an arrow by its head); Enter or
       Space selects. */
    canvas.addEventListener("keydown", function (event) {
      const movable = draggables();
      const points = movable.length ? movable : selectables();
      if (!points.length || event.altKey || event.ctrlKey || event.metaKey) return;
      if (/^[0-9]$/.test(event.key)) {
        const now = Date.now();
        let n = Number((now - typedAt < 1000 ? typed : "") + event.key);
        if (!(n >= 1 && n <= points.length)) n = Number(event.key);
        typed = String(n); typedAt = now;
        if (n >= 1 && n <= points.length) { event.preventDefault(); pick(points, points[n - 1], movable.length > 0); }
        return;
      }
      const at = points.findIndex(function (p) { return p.id === state.selected; });
      const steps = { n: 1, N: 1, p: -1, P: -1 };
      if (!movable.length) Object.assign(steps, { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 });
      if (event.key in steps) {  // (a key's name is never one of Object's members)
        event.preventDefault();
        const next = at < 0 ? (steps[event.key] > 0 ? 0 : points.length - 1)
          : (at + steps[event.key] + points.length) % points.length;
        pick(points, points[next], movable.length > 0);
        return;
      }
      if (event.key === "Enter" || event.key === " ") {
        const picked = points.find(function (p) { return p.id === state.selected; });
        if (picked && picked.select) {
          event.preventDefault();
          select(picked);
        }
        return;
      }
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
      const move = moves[event.key];
      if (!move || !movable.length) return;
      event.preventDefault();
      let m = movable.find(function (p) { return p.id === state.selected; });
      if (!m) { m = movable[0]; state.selected = m.id; }
      const keys = state.spec.keyboard || {};
      const small = keys.step || 0.1;
      const step = event.shiftKey ? (keys.big || 0.5) : small;
      // the moved axis lands on the fine grid; the other axis stays exactly where it was
      const round = function (x) { return Number((Math.round(x / small) * small).toFixed(6)); };
      const p = grip(m);
      // held as a drag is until the engine has answered every press (update)
      if (!state.drag) state.drag = { id: m.id, keys: true };
      moveTo(m, move[0] ? round(p.x + move[0] * step) : p.x, move[1] ? round(p.y + move[1] * step) : p.y);
    });
    /* Touch: a finger that lands on a draggable point or arrow head drags it; anywhere else the page scrolls. */
    canvas.addEventListener("touchstart", function (event) {
      const touch = event.touches[0], at = touch && local(touch);
      if (at && hit(at.x, at.y, true)) event.preventDefault();
    }, { passive: false });
    canvas.addEventListener("blur", function () { figure.hover(null); });

    const observed = !!window.ResizeObserver;
    if (observed) {
      // The observer gives the canvas's width: reading it here would lay the page out
      // again for every plane, each having changed the height of the one before. The
      // first drawing (its labels placed around the points) gets a task of its own, not
      // the frame that lays the new figure out; later ones follow the size at once.
      let first = true;
      new ResizeObserver(function (entries) {
        const changed = resize(entries[entries.length - 1].contentRect.width);
        if (first) { first = false; setTimeout(draw, 0); return; }
        if (changed) draw();
      }).observe(canvas);
    }

    function update(next) {
      state.spec = next;
      ex.setText(title, next.title || "");
      title.hidden = !next.title;
      ex.setText(caption, next.caption || "");
      caption.hidden = !next.caption;
      el.classList.toggle("ex-wide", !!next.wide);
      // The engine's pick wins when it changes; a pick made here with a digit key
      // survives redraws caused by other controls.
      if (next.selected !== state.sceneSelected) {
        state.sceneSelected = next.selected;
        if (next.selected !== undefined && !state.drag) state.selected = next.selected;
      }
      // keys faster than the engine: an answer to an earlier press leaves the mark where the
      // presses since put it, and the next steps on from there (every press counts)
      if (state.drag && state.drag.keys && !figure.queue.length) state.drag = null;
      if (state.drag) {  // keep the dragged point or arrow head under the pointer until the drag ends
        const dragged = (next.marks || []).find(function (m) { return m.id === state.drag.id; });
        if (!dragged) state.drag = null;
        else if (state.drag.at) place(dragged, state.drag.at.x, state.drag.at.y);
      }
      const movable = draggables().length > 0;
      const picks = movable ? draggables().length : selectables().length;
      canvas.tabIndex = picks ? 0 : -1;
      // a plane that takes keys is a widget: screen readers leave browse mode on it, so
      // digits and arrows reach it; one that does not is a picture, described in words
      canvas.setAttribute("role", picks ? "application" : "img");
      const keysHelp = picks > 1 ? ex.t("runtime.keys_pick", { n: picks }) + (picks > 9 ? ex.t("runtime.keys_two_digits") : "") : "";
      canvas.setAttribute("aria-label", (next.title || ex.t("runtime.plane")) + (movable
        ? ". " + keysHelp + ex.t("runtime.keys_move")
        : picks ? ". " + keysHelp + ex.t("runtime.keys_choose") : ""));
      about.textContent = next.description || "";
      canvas.setAttribute("aria-describedby", (next.description ? about.id + " " : "") + list.id);
      canvas.classList.toggle("ex-movable", movable);
      legend.replaceChildren.apply(legend, (next.legend || []).map(function (item) {
        const ring = item.shape === "ring";
        return ex.el("li", null, ex.el("span", { class: "ex-swatch ex-shape-" + (item.shape || "circle"),
          style: ring ? { borderColor: "var(--ex-" + item.role + ")" } : { background: "var(--ex-" + item.role + ")" } }), item.label);
      }));
      list.replaceChildren.apply(list, (next.marks || []).filter(function (m) {
        return (m.kind === "point" || (m.kind === "arrow" && draggable(m))) && (m.name || m.label);
      }).map(function (m) {
          // an engine's name already says where the point is; a bare label gets its place
          // (a draggable arrow's, its head's: what the keys move)
          const p = grip(m);
          const said = m.name || ex.t("runtime.point_at", { name: m.label,
            point: "(" + ex.fmt(p.x) + ex.listSeparator() + ex.fmt(p.y) + ")" });
          return ex.el("li", null, said + (m.muted ? ex.t("runtime.point_hidden") : ""));
        }));
      // A plane not yet in the page has no width nor colours: its ResizeObserver sizes
      // it once laid out, and draws it if it is near the view (drawing it here too was
      // the first frame's largest waste).
      if (!el.isConnected && observed) return;
      if (state.width) resize(state.width);  // a new domain may need a new height (the width is the observer's)
      draw();
    }

    update(spec);
    return {
      el: el,
      update: update,
      highlight: function (link) { if (state.hot !== link) { state.hot = link; draw(); } },
      canvas: canvas,
      labels: labels,
      /* Where a mark is drawn, in page (client) pixels: for tests and authors' scripts. */
      locate: function (id) {
        const m = (state.spec.marks || []).find(function (mark) { return mark.id === id; });
        if (!m) return null;
        const v = view(), rect = origin();
        const x = m.kind === "arrow" ? m.x2 : m.x, y = m.kind === "arrow" ? m.y2 : m.y;
        return { x: rect.left + v.sx(x), y: rect.top + v.sy(y), toData: function (px, py) {
          return { x: v.ix(px - rect.left), y: v.iy(py - rect.top) }; } };
      },
    };
  }

  ex.panels.plane = createPlane;
})();
