/* A plane's grid, its axes through 0, the axes' names and the tick numbers, drawn under
   its marks (panels/plane.js). Returns the boxes of the words it wrote, which the names
   of points and arrows keep clear of (marks/label.js). site_builder/output/svg_marks.py
   draws the same for the stills, with the sizes of static/js/geometry.js. */
(function () {
  "use strict";
  const ex = window.explorables;

  ex.planeGrid = function (ctx, v, s) {
    const step = s.grid === undefined ? 1 : s.grid;
    ctx.save();
    ctx.strokeStyle = v.color("grid"); ctx.lineWidth = 1;
    if (step > 0) {
      ctx.globalAlpha = 0.5;
      for (let x = Math.ceil(v.xs[0] / step) * step; x <= v.xs[1] + 1e-9; x += step) {
        ctx.beginPath(); ctx.moveTo(v.sx(x), v.sy(v.ys[0])); ctx.lineTo(v.sx(x), v.sy(v.ys[1])); ctx.stroke();
      }
      for (let y = Math.ceil(v.ys[0] / step) * step; y <= v.ys[1] + 1e-9; y += step) {
        ctx.beginPath(); ctx.moveTo(v.sx(v.xs[0]), v.sy(y)); ctx.lineTo(v.sx(v.xs[1]), v.sy(y)); ctx.stroke();
      }
    }
    ctx.globalAlpha = 1; ctx.strokeStyle = v.color("axis");
    if (v.ys[0] <= 0 && v.ys[1] >= 0) { ctx.beginPath(); ctx.moveTo(v.sx(v.xs[0]), v.sy(0)); ctx.lineTo(v.sx(v.xs[1]), v.sy(0)); ctx.stroke(); }
    if (v.xs[0] <= 0 && v.xs[1] >= 0) { ctx.beginPath(); ctx.moveTo(v.sx(0), v.sy(v.ys[0])); ctx.lineTo(v.sx(0), v.sy(v.ys[1])); ctx.stroke(); }
    ctx.fillStyle = v.color("muted"); ctx.font = "11px system-ui, sans-serif";
    const written = [];  // boxes of the axis names and tick numbers, for label placement
    function write(text, x, y, align) {
      ctx.textAlign = align; ctx.direction = ex.textDirection(text); ctx.fillText(text, x, y);
      const w = ctx.measureText(text).width;
      const x0 = align === "right" ? x - w : align === "center" ? x - w / 2 : x;
      written.push({ x0: x0, y0: y - 10, x1: x0 + w, y1: y + 3 });
    }
    if (s.axes) {
      write(s.axes[0], v.sx(v.xs[1]) - 2, v.sy(Math.max(v.ys[0], Math.min(0, v.ys[1]))) - 4, "right");
      write(s.axes[1], v.sx(Math.max(v.xs[0], Math.min(0, v.xs[1]))) + 4, v.sy(v.ys[1]) + 10, "left");
    }
    if (s.ticks) {
      // numbers as the page writes them: a minus sign, the language's decimal mark
      for (const t of s.ticks.x || []) write(ex.localize(String(t)), v.sx(t), v.sy(v.ys[0]) + 12, "center");
      // the lowest y number sits above its tick, clear of the x axis's first number
      for (const t of s.ticks.y || []) write(ex.localize(String(t)), v.sx(v.xs[0]) - 3, v.sy(t) + (t <= v.ys[0] ? -2 : 3), "right");
    }
    ctx.restore();
    return written;
  };
})();
