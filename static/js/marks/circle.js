/* A circle of radius r in data units (a clock face, a unit circle). */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.marks.circle = function (ctx, m, view) {
    ctx.save();
    ctx.beginPath();
    ctx.ellipse(view.sx(m.x), view.sy(m.y), Math.abs(view.sx(m.r) - view.sx(0)), Math.abs(view.sy(m.r) - view.sy(0)), 0, 0, 2 * Math.PI);
    ctx.strokeStyle = view.color(m.role || "grid");
    ctx.lineWidth = m.width || 1.2;
    if (m.dashed) ctx.setLineDash([4, 4]);
    ctx.stroke();
    ctx.restore();
  };
})();
