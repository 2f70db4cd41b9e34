/* A point: a dot, ring, square or diamond at (x, y), optionally labelled. */
(function () {
  "use strict";
  const ex = window.explorables;
  ex.marks.point = function (ctx, m, view) {
    const x = view.sx(m.x), y = view.sy(m.y);
    const hot = view.isHot(m.link);
    const selected = view.selected === m.id;
    const r = (m.size || (m.draggable ? 7 : 5)) * (hot ? 1.3 : 1);
    const color = view.color(m.muted ? "muted" : m.role);
    ctx.save();
    ctx.globalAlpha = m.muted ? 0.55 : 1;
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
    if (m.label) {
      ctx.save();
      ctx.font = (hot ? "600 " : "") + "13px system-ui, sans-serif";
      ctx.fillStyle = view.color(m.muted ? "muted" : "text");
      const width = ctx.measureText(m.label).width;
      let anchor = m.anchor || "right";
      if (anchor === "right" && x + r + 4 + width > view.width - 2) anchor = "left";
      if (anchor === "left" && x - r - 4 - width < 2) anchor = "right";
      ctx.textBaseline = anchor === "above" ? "bottom" : anchor === "below" ? "top" : "bottom";
      if (anchor === "left") { ctx.textAlign = "right"; ctx.fillText(m.label, x - r - 4, y - 3); }
      else if (anchor === "above") { ctx.textAlign = "center"; ctx.fillText(m.label, x, y - r - 4); }
      else if (anchor === "below") { ctx.textAlign = "center"; ctx.fillText(m.label, x, y + r + 4); }
      else ctx.fillText(m.label, x + r + 4, y - 3);
      ctx.restore();
    }
  };
  /* Hit test shared by the plane: how far (px) the pointer is from the mark. */
  ex.marks.point.distance = function (m, px, py, view) {
    return Math.hypot(view.sx(m.x) - px, view.sy(m.y) - py);
  };
})();
