/* Text at a data position. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.marks.label = function (ctx, m, view) {
    ctx.save();
    ctx.font = (m.bold ? "600 " : "") + (m.size || 12) + "px system-ui, sans-serif";
    ctx.fillStyle = view.color(m.role || "text");
    ctx.textAlign = m.align || "left";
    ctx.textBaseline = "middle";
    ctx.fillText(m.text, view.sx(m.x), view.sy(m.y));
    ctx.restore();
  };
})();
