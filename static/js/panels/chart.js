/* A line chart: a plane that is wider than tall, with series drawn as lines. */
(function () {
  "use strict";
  const ex = window.explorables;
  function asPlane(spec) {
    const marks = (spec.series || []).map(function (s) {
      return { kind: "line", points: s.points, role: s.role || "accent", width: s.width || 2, dashed: s.dashed, link: s.link };
    });
    return Object.assign({}, spec, {
      kind: "plane", square: false, grid: spec.grid === undefined ? 0 : spec.grid,
      axes: spec.axes || [spec.x_label || "", spec.y_label || ""],
      marks: marks.concat(spec.marks || []),
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
