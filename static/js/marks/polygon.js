/* A shaded area (a convex hull, a region) with a thin outline. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.marks.polygon = function (ctx, m, view) {
    if (!m.points || m.points.length < 2) return;
    ctx.save();
    ctx.beginPath();
    m.points.forEach(function (p, i) {
      const x = view.sx(p[0]), y = view.sy(p[1]);
      i ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
    });
    ctx.closePath();
    ctx.fillStyle = view.color(m.role || "hull");
    ctx.globalAlpha = 0.18; ctx.fill();
    // the outline at full strength, so it stands 3:1 off the canvas
    ctx.globalAlpha = 1; ctx.lineWidth = 1; ctx.strokeStyle = view.color(m.role || "hull"); ctx.stroke();
    ctx.restore();
  };
})();
