/* Text on a plane: label marks (text at a data position, placed by the figure), and the
   names of points and arrows, placed here from measured text (ex.labels.place).

   The placement rule (SCENE.md, "Where labels go"):
   - Names are placed one at a time, by priority: the selected point and the point being
     dragged first, then marks in scene order.
   - Points closer than SAME_PX share one name: their texts joined with "/", or "N points"
     when that would be wider than the room a shared name may take.
   - Each name tries spots round its mark in a fixed order: the mark's own "anchor" if it
     has one, then (for a point) right, left, above, below, then the four diagonals. A spot
     is allowed only if the text stays on the canvas and covers no point and no name
     already placed. Among allowed spots the one covering least of arrows, lines, circles,
     label marks, axis names and tick numbers wins, ties going to the earlier spot.
   - Hysteresis: the spot a name had in the previous drawing keeps a bonus, so a name moves
     only when its spot is taken or clearly worse; a dragged point's name does not jump
     from side to side.
   - The same spots LEADER_PX further out, joined to the mark by a short leader line, are
     tried too, at an extra cost of LEADER_COST: a name goes out on a leader line when
     every near spot is taken or covers that much more. When no spot at all is allowed,
     the name is not drawn (the point keeps its accessible name in the panel's list). */
(function () {
  "use strict";
  const ex = window.explorables;

  const POINT_FONT = "13px system-ui, sans-serif";
  const HOT_FONT = "600 13px system-ui, sans-serif";  // a hovered name, and what is measured
  const ARROW_FONT = "600 13px system-ui, sans-serif";
  const GAP = ex.geometry.name_gap;  // px between a mark's edge and its name
  const LEADER_PX = 16;   // how much further out a name on a leader line sits
  const SAME_PX = 4;      // points closer than this share one name
  const EDGE = 1;         // a name keeps this far inside the canvas
  const KEEP = 12;        // the bonus of last drawing's spot (hysteresis), in cost units
  const LEADER_COST = 30; // what a leader line costs, in the same units
  const APART = 2;        // px kept clear between two names
  const SIDES = ["right", "left", "above", "below", "above-right", "above-left", "below-right", "below-left"];
  // unit direction of each spot from the mark, and which end of the text is held there
  const DIRECTIONS = {
    right: [1, 0, "left"], left: [-1, 0, "right"], above: [0, -1, "center"], below: [0, 1, "center"],
    "above-right": [0.71, -0.71, "left"], "above-left": [-0.71, -0.71, "right"],
    "below-right": [0.71, 0.71, "left"], "below-left": [-0.71, 0.71, "right"],
  };

  function labelFont(m) { return (m.size || 12) + "px system-ui, sans-serif"; }

  /* A label mark: text at a data position, centred on y; align says which end sits at x. */
  ex.marks.label = function (ctx, m, view) {
    ctx.save();
    ctx.font = labelFont(m);
    ctx.fillStyle = view.color(m.role || "text");
    ctx.textAlign = m.align || "left";
    ctx.textBaseline = "middle";
    ctx.direction = ex.textDirection(m.text);  // Hebrew words read right to left; the align stays
    ctx.fillText(m.text, view.sx(m.x), view.sy(m.y));
    ctx.restore();
  };

  /* The box (px) a label mark takes. */
  ex.marks.label.box = function (ctx, m, view) {
    ctx.save();
    ctx.font = labelFont(m);
    const w = ctx.measureText(m.text).width, h = (m.size || 12) * 1.2;
    ctx.restore();
    const x = view.sx(m.x), y = view.sy(m.y);
    const x0 = m.align === "right" ? x - w : m.align === "center" ? x - w / 2 : x;
    return { x0: x0, y0: y - h / 2, x1: x0 + w, y1: y + h / 2 };
  };

  // --- geometry ------------------------------------------------------------------------

  function overlapArea(a, b) {
    const w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
    const h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
  }

  function boxHitsDisc(b, x, y, r) {
    const dx = x - Math.max(b.x0, Math.min(b.x1, x)), dy = y - Math.max(b.y0, Math.min(b.y1, y));
    return dx * dx + dy * dy < r * r;
  }

  /* How long a piece of the segment p-q lies inside box b (Liang-Barsky clipping). Every
     name tries sixteen spots against every segment of the plane's lines: a segment
     wholly beside the box is passed over first, and nothing is allocated. (A segment
     with a coordinate that is not finite covers nothing: one of a domain of no width.) */
  let lo = 0, hi = 1;  // the part of the segment inside the box, narrowed side by side
  function clippedLength(b, px, py, qx, qy) {
    if ((px < b.x0 && qx < b.x0) || (px > b.x1 && qx > b.x1) || (py < b.y0 && qy < b.y0) || (py > b.y1 && qy > b.y1)) return 0;
    const dx = qx - px, dy = qy - py;
    lo = 0; hi = 1;
    if (!clip(-dx, px - b.x0) || !clip(dx, b.x1 - px) || !clip(-dy, py - b.y0) || !clip(dy, b.y1 - py)) return 0;
    return (hi - lo) * Math.hypot(dx, dy);
  }
  function clip(step, room) {
    if (step === 0) return room >= 0;
    const t = room / step;
    if (step < 0) lo = Math.max(lo, t); else hi = Math.min(hi, t);
    return lo <= hi;
  }

  /* The text metrics of a name: width in the widest font it is drawn in, and height.
     Remembered by font and text: a drag redraws the same names every frame. */
  const measured = new Map();
  function measure(ctx, text, font) {
    const key = font + "\n" + text;
    if (!measured.has(key)) {
      if (measured.size > 2000) measured.clear();
      measured.set(key, measureNow(ctx, text, font));
    }
    return measured.get(key);
  }
  function measureNow(ctx, text, font) {
    ctx.save();
    ctx.font = font;
    const metrics = ctx.measureText(text);
    ctx.restore();
    const ascent = metrics.fontBoundingBoxAscent, descent = metrics.fontBoundingBoxDescent;
    const h = ascent !== undefined && descent !== undefined ? ascent + descent : 16;
    return { w: Math.ceil(metrics.width), h: Math.ceil(h) };
  }

  /* The box of a name of size (w, h) on `side` of a mark at (x, y) of reach r. */
  function spot(side, x, y, r, w, h, far) {
    const d = DIRECTIONS[side];
    const reach = r + GAP + (far ? LEADER_PX : 0);
    // the held end of the text sits reach px out along the direction; text centred on y
    // for left and right, above or below the reach for the others
    const ax = x + d[0] * reach, ay = y + d[1] * reach;
    const x0 = d[2] === "left" ? ax : d[2] === "right" ? ax - w : ax - w / 2;
    const cy = d[1] < 0 ? ay - h / 2 : d[1] > 0 ? ay + h / 2 : ay;
    // a diagonal spot: the text's near corner, not its middle, sits on the diagonal
    const y0 = d[0] !== 0 && d[1] !== 0 ? (d[1] < 0 ? ay - h : ay) : cy - h / 2;
    return { x0: x0, y0: y0, x1: x0 + w, y1: y0 + h, align: d[2] };
  }

  // --- what a plane holds ----------------------------------------------------------------

  /* The drawn radius of a point, and how far other names keep off it. */
  function pointGeometry(m, view) {
    const r = ex.marks.point.radius(m);
    let reach = r * 1.3 * (m.shape === "diamond" ? 1.4 : 1) + 1;  // hovered, a diamond's corners
    if (view.selected === m.id) reach = Math.max(reach, r + 7);   // the selection ring
    return { x: view.sx(m.x), y: view.sy(m.y), r: r * (m.shape === "diamond" ? 1.4 : 1), reach: reach };
  }

  /* Soft obstacles: segments (with a weight a px covered) and boxes (a weight a px²). */
  function obstacles(ctx, marks, view, extra) {
    const segments = [], boxes = extra.slice();
    function add(points, weight) {
      for (let i = 1; i < points.length; i++) segments.push([points[i - 1][0], points[i - 1][1], points[i][0], points[i][1], weight]);
    }
    // the axes: a name may cross one, at a small cost
    if (view.ys[0] <= 0 && view.ys[1] >= 0) add([[view.sx(view.xs[0]), view.sy(0)], [view.sx(view.xs[1]), view.sy(0)]], 0.5);
    if (view.xs[0] <= 0 && view.xs[1] >= 0) add([[view.sx(0), view.sy(view.ys[0])], [view.sx(0), view.sy(view.ys[1])]], 0.5);
    for (const m of marks) {
      if (m.kind === "arrow") {
        add([[view.sx(m.x1), view.sy(m.y1)], [view.sx(m.x2), view.sy(m.y2)]], 3);
        const head = ex.marks.arrow.head(m, view), r = head.r + 1;  // wider than the line
        if (head.r) boxes.push({ box: { x0: head.x - r, y0: head.y - r, x1: head.x + r, y1: head.y + r }, weight: 3 });
      }
      else if (m.kind === "line" && m.points) add(m.points.map(function (p) { return [view.sx(p[0]), view.sy(p[1])]; }), m.dotted || m.dashed ? 1 : 1.5);
      else if (m.kind === "polygon" && m.points && m.points.length > 1) {  // its edge, closed
        add(m.points.concat([m.points[0]]).map(function (p) { return [view.sx(p[0]), view.sy(p[1])]; }), 1);
      }
      else if (m.kind === "circle") {
        const ring = [];
        for (let i = 0; i <= 32; i++) {
          const a = (i / 32) * 2 * Math.PI;
          ring.push([view.sx(m.x + m.r * Math.cos(a)), view.sy(m.y + m.r * Math.sin(a))]);
        }
        add(ring, 1);
      } else if (m.kind === "label") boxes.push({ box: ex.marks.label.box(ctx, m, view), weight: 1 });
    }
    return { segments: segments, boxes: boxes };
  }

  /* Coincident labelled points share one name on the first of them (by priority). */
  function group(ctx, items, maxWidth) {
    const groups = [];
    for (const item of items) {
      const home = groups.find(function (g) { return Math.hypot(g[0].x - item.x, g[0].y - item.y) < SAME_PX; });
      if (home) home.push(item); else groups.push([item]);
    }
    return groups.map(function (g) {
      if (g.length === 1) return g[0];
      const texts = [];  // in scene order, whichever point leads
      const byOrder = g.slice().sort(function (a, b) { return a.order - b.order; });
      for (const item of byOrder) if (texts.indexOf(item.text) < 0) texts.push(item.text);
      let text = texts.join("/");
      if (texts.length > 1 && measure(ctx, text, HOT_FONT).w > maxWidth) text = ex.t("runtime.points_n", { n: g.length });
      return Object.assign({}, g[0], {
        text: text, members: g.map(function (item) { return item.mark.id || null; }),
        reach: Math.max.apply(null, g.map(function (item) { return item.reach; })),
      });
    });
  }

  /* Place every point's and arrow's name on a plane. Returns the names to draw, in the
     order placed: {key, mark, text, side, align, box: {x0, y0, x1, y1} in canvas px,
     members: ids of the points sharing the name (or undefined), leader: null or where
     the leader line starts}. options: dragged (a point id), boxes (soft obstacles
     {box, weight}), previous (a name's key -> its spot last time; updated in place). */
  function place(ctx, view, marks, options) {
    const W = view.width, H = view.height;
    const points = [], names = [];
    marks.forEach(function (m, order) {
      if (m.kind !== "point") return;
      const g = pointGeometry(m, view);
      points.push(g);
      if (m.label) names.push({ key: "point:" + (m.id || order), mark: m, order: order, text: m.label, font: HOT_FONT,
        x: g.x, y: g.y, reach: g.reach, sides: SIDES });
    });
    marks.forEach(function (m, order) {
      if (m.kind !== "arrow" || !m.label) return;
      const x1 = view.sx(m.x1), x = view.sx(m.x2), y = view.sy(m.y2);
      // beyond the tip first, on the side the arrow points to
      const ahead = x >= x1 ? ["above-right", "right", "below-right"] : ["above-left", "left", "below-left"];
      const sides = ahead.concat(SIDES.filter(function (s) { return ahead.indexOf(s) < 0; }));
      names.push({ key: "arrow:" + (m.id || order), mark: m, order: order, text: m.label, font: ARROW_FONT,
        x: x, y: y, reach: 4, sides: sides });
    });
    // priority: the dragged and the selected point first, then scene order
    const first = function (n) { return n.mark.id && n.mark.id === options.dragged ? 0 : n.mark.id && n.mark.id === view.selected ? 1 : 2; };
    names.sort(function (a, b) { return first(a) - first(b) || a.order - b.order; });
    const pointNames = group(ctx, names.filter(function (n) { return n.mark.kind === "point"; }), Math.max(80, Math.min(200, W / 2)));
    const ordered = pointNames.concat(names.filter(function (n) { return n.mark.kind !== "point"; }));
    ordered.sort(function (a, b) { return first(a) - first(b) || a.order - b.order; });

    const soft = obstacles(ctx, marks, view, options.boxes || []);
    const placed = [];
    const previous = options.previous || Object.create(null);
    const next = Object.create(null);  // a name's key (the author's text) -> its spot

    function allowed(b) {
      if (b.x0 < EDGE || b.y0 < EDGE || b.x1 > W - EDGE || b.y1 > H - EDGE) return false;
      for (const p of points) if (boxHitsDisc(b, p.x, p.y, p.reach)) return false;
      const near = { x0: b.x0 - APART, y0: b.y0 - APART, x1: b.x1 + APART, y1: b.y1 + APART };
      for (const other of placed) if (overlapArea(near, other.box) > 0) return false;
      return true;
    }
    function cost(b) {
      let c = 0;
      const grown = { x0: b.x0 - 2, y0: b.y0 - 2, x1: b.x1 + 2, y1: b.y1 + 2 };
      for (const s of soft.segments) c += s[4] * clippedLength(grown, s[0], s[1], s[2], s[3]);
      for (const o of soft.boxes) c += o.weight * overlapArea(b, o.box);
      return c;
    }

    for (const n of ordered) {
      const size = measure(ctx, n.text, n.font);
      const sides = n.mark.anchor && DIRECTIONS[n.mark.anchor]
        ? [n.mark.anchor].concat(n.sides.filter(function (s) { return s !== n.mark.anchor; })) : n.sides;
      let best = null;
      for (const far of [false, true]) {
        sides.forEach(function (side, rank) {
          const b = spot(side, n.x, n.y, n.reach, size.w, size.h, far);
          if (!allowed(b)) return;
          const where = far ? side + " leader" : side;
          const c = cost(b) + rank * 0.5 + (far ? LEADER_COST : 0) - (previous[n.key] === where ? KEEP : 0);
          if (!best || c < best.cost) best = { side: side, where: where, far: far, box: b, cost: c };
        });
      }
      if (!best) continue;  // no room: the name is not drawn
      next[n.key] = best.where;
      const b = best.box;
      placed.push({
        key: n.key, mark: n.mark, text: n.text, side: best.side, align: b.align, members: n.members,
        box: { x0: b.x0, y0: b.y0, x1: b.x1, y1: b.y1 },
        leader: best.far ? { x: n.x, y: n.y, reach: n.reach } : null,
      });
    }
    if (options.previous) {
      for (const key of Object.keys(options.previous)) delete options.previous[key];
      Object.assign(options.previous, next);
    }
    return placed;
  }

  /* Draw placed names on top of every mark, each on a thin halo of the background. */
  function draw(ctx, placed, view) {
    for (const p of placed) {
      const m = p.mark, hot = view.isHot(m.link);
      const b = p.box, cy = (b.y0 + b.y1) / 2;
      ctx.save();
      if (p.leader) {
        const tx = Math.max(b.x0, Math.min(b.x1, p.leader.x)), ty = Math.max(b.y0, Math.min(b.y1, p.leader.y));
        const d = Math.hypot(tx - p.leader.x, ty - p.leader.y) || 1;
        ctx.strokeStyle = view.color("muted"); ctx.lineWidth = 1;
        ctx.beginPath();
        ctx.moveTo(p.leader.x + (tx - p.leader.x) * p.leader.reach / d, p.leader.y + (ty - p.leader.y) * p.leader.reach / d);
        ctx.lineTo(tx, ty); ctx.stroke();
      }
      ctx.font = m.kind === "arrow" ? ARROW_FONT : hot ? HOT_FONT : POINT_FONT;
      ctx.textBaseline = "middle";
      ctx.textAlign = p.align;
      ctx.direction = ex.textDirection(p.text);
      const x = p.align === "left" ? b.x0 : p.align === "right" ? b.x1 : (b.x0 + b.x1) / 2;
      ctx.lineJoin = "round"; ctx.lineWidth = 3; ctx.strokeStyle = view.color("bg");
      ctx.strokeText(p.text, x, cy);
      ctx.fillStyle = view.color(m.kind === "arrow" ? (m.muted ? "muted" : m.role) : m.muted ? "muted" : "text");
      ctx.fillText(p.text, x, cy);
      ctx.restore();
    }
  }

  ex.labels = { place: place, draw: draw, SAME_PX: SAME_PX };
})();
