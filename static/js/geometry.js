/* The drawings' geometry, declared once (px): the runtime reads it here, and the build's
   stills read the same object (site_builder/output/geometry.py parses it as JSON), so a
   page printed or without JavaScript draws what the canvas draws. Keep it JSON. */
(function () {
  "use strict";
  window.explorables.geometry = {
    "pad": 18, "point": 5, "point_drag": 7, "name_gap": 4, "head": 12, "head_share": 0.45, "ratio": 0.6, "tall": 420
  };
})();
