/* A copy button on every highlighted code block (site_builder/highlight.py).

   The button is a real <button>, so Tab reaches it and Enter or Space presses it. It
   copies the code's text (line numbers are drawn by CSS and never copied) and says
   "Copied" through the page's live region. Attaches on every page mount (pages.js). */
(function () {
  "use strict";
  const ex = window.explorables = window.explorables || {};

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
    return new Promise(function (resolve, reject) {
      const area = document.createElement("textarea");
      area.value = text;
      area.setAttribute("readonly", "");
      area.className = "ex-sr";
      document.body.appendChild(area);
      area.select();
      const ok = document.execCommand && document.execCommand("copy");
      area.remove();
      if (ok) resolve(); else reject(new Error("copy refused"));
    });
  }

  function say(text) { if (ex.pages && ex.pages.announce) ex.pages.announce(text); }

  function attach(root) {
    root.querySelectorAll("pre.ex-code").forEach(function (pre) {
      const holder = pre.parentElement;
      if (!holder || holder.querySelector(":scope > .ex-copy")) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "ex-copy";
      button.textContent = ex.t("runtime.copy");
      button.setAttribute("aria-label", ex.t("runtime.copy_label"));
      button.addEventListener("click", function () {
        const code = pre.querySelector("code");
        copyText(code ? code.textContent : pre.textContent).then(function () {
          button.textContent = ex.t("runtime.copied");
          say(ex.t("runtime.code_copied"));
        }, function () {
          button.textContent = ex.t("runtime.select_and_copy");
          say(ex.t("runtime.copy_refused"));
        });
        setTimeout(function () { button.textContent = ex.t("runtime.copy"); }, 2000);
      });
      holder.appendChild(button);
    });
  }

  ex.code = { attach: attach };
  if (ex.pages && ex.pages.on) ex.pages.on("mount", attach);  // a lesson swapped in
  // loaded after the first frame (js/later.js): the page may be parsed already
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", function () { attach(document.body); });
  else attach(document.body);
})();
