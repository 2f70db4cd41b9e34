/* Play/Pause: sends `event` every `interval` ms while playing and on screen; with
   reduced motion a press steps once instead of animating. */
(function () {
  "use strict";
  const ex = window.explorables;
  const kit = ex.controlKit;
  ex.controls.play = function (figure, spec) {
    const button = ex.el("button", { type: "button", class: "ex-button ex-play" });
    const about = ex.el("span", { class: "ex-sr", id: kit.uid("play") });
    const f = kit.frame(spec, button);
    f.el.append(about);
    let current = spec, timer = null, visible = true;
    function stop() { if (timer) { clearInterval(timer); timer = null; } }
    // A tick is skipped while the previous one is still being computed, so a slow
    // machine drops frames instead of piling them up.
    // Ticks are not announced (one every interval would drown everything else); the
    // figure says where it is when the reader pauses or steps.
    function tick() {
      if (visible && current.playing && !figure.busy && !figure.queue.length) {
        figure.send(current.event, { quiet: true }).catch(function () {});
      }
    }
    function sync() {
      stop();
      if (current.playing && !ex.reducedMotion()) timer = setInterval(tick, current.interval || 400);
    }
    button.addEventListener("click", function () {
      if (ex.reducedMotion()) { kit.send(figure, current.event); return; }
      kit.send(figure, { type: "set", name: current.name, value: !current.playing });
    });
    if (window.IntersectionObserver) {  // the whole figure, not the button: on a phone the
      // controls sit below the panels, and the animation should run while its panels show
      new IntersectionObserver(function (entries) { visible = entries[entries.length - 1].isIntersecting; })
        .observe(figure.root || f.el);
    }
    function update(next) {
      current = next;
      const still = ex.reducedMotion();  // no animation: each press steps once
      button.textContent = ex.t(still ? "runtime.step" : next.playing ? "runtime.pause" : "runtime.play");
      button.setAttribute("aria-pressed", String(!!next.playing && !still));
      // the name is the visible word; what it plays is the button's description
      about.textContent = next.label || "";
      if (next.label) button.setAttribute("aria-describedby", about.id); else button.removeAttribute("aria-describedby");
      f.help(next);
      sync();
    }
    update(spec);
    return { el: f.el, update: update, stop: stop };
  };
})();
