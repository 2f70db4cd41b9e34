/* An arrow from (x1, y1) to (x2, y2), solid or dashed, its tip ``gap`` px short of (x2, y2)
   when it has one; a draggable one picked by the keyboard is ringed at its head. Its label is placed and drawn by
   the plane with every other name (marks/label.js), beyond the tip when there is room. */
(function () {
  "use strict";
  const ex = window.explorables;
  /* Where the arrow is drawn, in canvas px: its tail, its tip and its length (the tip
     ``gap`` px short of (x2, y2)), and its head's length. */
  function drawn(m, view) {
    const x1 = view.sx(m.x1), y1 = view.sy(m.y1);
    let x2 = view.sx(m.x2), y2 = view.sy(m.y2);
    let len = Math.hypot(x2 - x1, y2 - y1);
    if (m.gap && len > m.gap + 1) {  // its tip stops short of what it points at (a point drawn there)
      x2 -= (x2 - x1) / len * m.gap; y2 -= (y2 - y1) / len * m.gap; len -= m.gap;
    }
    return { x1: x1, y1: y1, x2: x2, y2: y2, len: len, head: Math.min(ex.geometry.head, len * ex.geometry.head_share) };
  }

  ex.marks.arrow = function (ctx, m, view) {
    const d = drawn(m, view), x1 = d.x1, y1 = d.y1, x2 = d.x2, y2 = d.y2, len = d.len;
    const color = view.color(m.muted ? "muted" : m.role);
    const width = (m.width || 2.5) * (view.isHot(m.link) ? 1.5 : 1);
    ctx.save();
    ctx.strokeStyle = color; ctx.fillStyle = color; ctx.lineWidth = width;
    if (m.dashed) ctx.setLineDash([6, 5]);
    if (len > 0.5) {
      const head = d.head;
      const ux = (x2 - x1) / len, uy = (y2 - y1) / len;
      ctx.beginPath(); ctx.moveTo(x1, y1); ctx.lineTo(x2 - ux * head * 0.8, y2 - uy * head * 0.8); ctx.stroke();
      ctx.setLineDash([]);
      ctx.beginPath();
      ctx.moveTo(x2, y2);
      ctx.lineTo(x2 - ux * head - uy * head * 0.45, y2 - uy * head + ux * head * 0.45);
      ctx.lineTo(x2 - ux * head + uy * head * 0.45, y2 - uy * head - ux * head * 0.45);
      ctx.closePath(); ctx.fill();
    }
    if (m.draggable && view.selected === m.id) {  // picked by the keyboard: ringed at its head, as a point is
      ctx.beginPath(); ctx.arc(view.sx(m.x2), view.sy(m.y2), 12, 0, 2 * Math.PI);
      ctx.lineWidth = 2; ctx.strokeStyle = view.color("accent"); ctx.setLineDash([]); ctx.stroke();
    }
    ctx.restore();
  };
  /* The arrow's head as a disc, in canvas px (it is drawn wider than the line): what
     names keep off (marks/label.js), and what the labels test checks. */
  ex.marks.arrow.head = function (m, view) {
    const d = drawn(m, view);
    if (!(d.len > 0)) return { x: d.x2, y: d.y2, r: 0 };
    return { x: d.x2 - (d.x2 - d.x1) / d.len * d.head / 2, y: d.y2 - (d.y2 - d.y1) / d.len * d.head / 2, r: d.head / 2 };
  };

  ex.marks.arrow.distance = function (m, px, py, view) {
    const x1 = view.sx(m.x1), y1 = view.sy(m.y1), x2 = view.sx(m.x2), y2 = view.sy(m.y2);
    const dx = x2 - x1, dy = y2 - y1, len2 = dx * dx + dy * dy || 1;
    const t = Math.max(0, Math.min(1, ((px - x1) * dx + (py - y1) * dy) / len2));
    return Math.hypot(x1 + t * dx - px, y1 + t * dy - py);
  };
})();
