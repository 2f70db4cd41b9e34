/* A point: a dot, ring, square or diamond at (x, y). Its label is placed and drawn by the
   plane with every other name (marks/label.js). */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.marks.point = function (ctx, m, view) {
    const x = view.sx(m.x), y = view.sy(m.y);
    const hot = view.isHot(m.link);
    const selected = view.selected === m.id;
    const r = ex.marks.point.radius(m) * (hot ? 1.3 : 1);
    const color = view.color(m.muted ? "muted" : m.role);
    ctx.save();
    ctx.beginPath();
    if (m.shape === "diamond") {
      ctx.moveTo(x, y - r * 1.4); ctx.lineTo(x + r * 1.4, y); ctx.lineTo(x, y + r * 1.4); ctx.lineTo(x - r * 1.4, y);
      ctx.closePath();
    } else if (m.shape === "square") {
      ctx.rect(x - r, y - r, 2 * r, 2 * r);
    } else {
      ctx.arc(x, y, r, 0, 2 * Math.PI);
    }
    if (m.shape === "ring") {
      ctx.lineWidth = 3; ctx.strokeStyle = color; ctx.stroke();
      ctx.fillStyle = view.color("bg"); ctx.fill(); ctx.stroke();
    } else {
      ctx.fillStyle = color; ctx.fill();
      ctx.lineWidth = 1.5; ctx.strokeStyle = view.color("bg"); ctx.stroke();
    }
    if (selected || hot) {
      ctx.beginPath(); ctx.arc(x, y, r + 5, 0, 2 * Math.PI);
      ctx.lineWidth = 2; ctx.strokeStyle = view.color(selected ? "accent" : "text");
      ctx.setLineDash(selected ? [] : [3, 3]); ctx.stroke();
    }
    ctx.restore();
  };
  /* The radius (px) a point is drawn with, not hovered. */
  ex.marks.point.radius = function (m) { return m.size || (m.draggable ? ex.geometry.point_drag : ex.geometry.point); };
  /* Hit test shared by the plane: how far (px) the pointer is from the mark. */
  ex.marks.point.distance = function (m, px, py, view) {
    return Math.hypot(view.sx(m.x) - px, view.sy(m.y) - py);
  };
})();
