/* A line chart: a plane that is wider than tall, with series drawn as lines. */
(function () {
  "use strict";
  const ex = window.explorables;
  /* y on the polyline ``points`` at x (points sorted by x), or null outside it. */
  function at(points, x) {
    for (let i = 1; i < points.length; i++) {
      const a = points[i - 1], b = points[i];
      if (x >= a[0] && x <= b[0]) return b[0] === a[0] ? a[1] : a[1] + (b[1] - a[1]) * (x - a[0]) / (b[0] - a[0]);
    }
    return null;
  }

  /* An x as short as it is exact to two decimals: 8, 17.25 (in German 8, 17,25: the
     decimal separator is the last one, whichever the language writes). */
  function short(x) { return ex.number.trimmed(x, 2); }

  /* The curves in words, the chart's text equivalent: each series read at the x ticks,
     and where it is highest and lowest. */
  function describe(spec) {
    const xName = spec.x_label || "x", yName = spec.y_label || "y";
    const ticks = (spec.ticks && spec.ticks.x) || [];
    const n = (spec.series || []).length;
    return (spec.series || []).map(function (s, k) {
      const points = s.points || [];
      if (!points.length) return "";
      let hi = points[0], lo = points[0];
      points.forEach(function (p) { if (p[1] > hi[1]) hi = p; if (p[1] < lo[1]) lo = p; });
      const read = ticks.map(function (x) { const y = at(points, x); return y === null ? null : short(x) + ": " + ex.fmt(y); })
        .filter(Boolean);
      return ex.t("runtime.chart_text", {
        curve: n > 1 ? ex.t("runtime.chart_curve_n", { n: k + 1 }) : ex.t("runtime.chart_curve"),
        y: yName, x: xName, at: read.length ? ex.t("runtime.chart_at", { points: read.join("; ") }) : "",
        high: ex.fmt(hi[1]), high_at: short(hi[0]), low: ex.fmt(lo[1]), low_at: short(lo[0]),
      });
    }).filter(Boolean).join(" ");
  }

  function asPlane(spec) {
    const marks = (spec.series || []).map(function (s) {
      return { kind: "line", points: s.points, role: s.role || "accent", width: s.width || 2, dashed: s.dashed, link: s.link };
    });
    return Object.assign({}, spec, {
      kind: "plane", square: false, grid: spec.grid === undefined ? 0 : spec.grid,
      axes: spec.axes || [spec.x_label || "", spec.y_label || ""],
      marks: marks.concat(spec.marks || []),
      description: [spec.description, describe(spec)].filter(Boolean).join(" "),
    });
  }
  ex.panels.chart = function (figure, spec) {
    const plane = ex.panels.plane(figure, asPlane(spec));
    plane.el.classList.add("ex-chart");
    const update = plane.update;
    plane.update = function (next) { update(asPlane(next)); };
    return plane;
  };
})();
