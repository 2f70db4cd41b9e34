/* A polyline through data points: solid, dashed or dotted. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.marks.line = function (ctx, m, view) {
    if (!m.points || m.points.length < 2) return;
    ctx.save();
    ctx.strokeStyle = view.color(m.muted ? "muted" : m.role);
    ctx.lineWidth = (m.width || 1.5) * (view.isHot(m.link) ? 1.8 : 1);
    if (m.dotted) ctx.setLineDash([2, 4]); else if (m.dashed) ctx.setLineDash([6, 5]);
    ctx.beginPath();
    m.points.forEach(function (p, i) {
      const x = view.sx(p[0]), y = view.sy(p[1]);
      i ? ctx.lineTo(x, y) : ctx.moveTo(x, y);
    });
    ctx.stroke();
    ctx.restore();
  };
})();
