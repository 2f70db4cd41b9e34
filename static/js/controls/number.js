/* One typed number beside its visible label (controls.js). */
(function () {
  "use strict";
  const ex = window.explorables;
  const kit = ex.controlKit;
  ex.controls.number = function (figure, spec) {
    const id = kit.uid("number");
    const label = ex.el("label", { for: id });
    const fields = Object.create(null);  // a field's name (the author's) -> field
    const f = kit.frame(spec, ex.el("div", { class: "ex-select" }, label, kit.numberField(figure, spec, spec.label, fields, id)));
    function update(next) { ex.setText(label, next.label); fields[spec.name].set(next.value); f.help(next); }
    update(spec);
    return { el: f.el, update: update, fields: fields };
  };
})();
