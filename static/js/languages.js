/* A site in several languages: moving to a page in another language keeps the engine.

   Every page's header has a language switch (site_builder/output/languages.py): each
   language in its own name, leading to the same lesson in that language. Its links are
   the site's own, so js/pages.js swaps the page in place, as it does any other lesson,
   and the engine's worker and its Python stay alive. What the new page's language
   changes is done here, before its figures are drawn: the document's lang and
   direction, the words of the runtime (ex.words, which ex.t and numbers read), the
   words of the engine (sent to the worker, which speaks them from its next answer on:
   engine/runtime.py), and the search index (each language has its own; the page's
   asset map names it).

   Each language's words are a small classic script of data (words/LANG.js), loaded
   ahead once the page is live, so that the switch finds them at hand.

   The head, which a swap keeps, then says the new page's language and translations
   (<html lang dir>, <link rel="alternate" hreflang>): those of the page fetched, or, of
   a bundle's pages (which carry no head), those its language switch names. */
(function () {
  "use strict";
  const ex = window.explorables;
  if (!ex || !ex.pages || !ex.words) return;  // the print page runs no runtime
  const loading = {};  // a words script's address -> Promise of the language's words
  // the page's own words, kept as loaded ones are: a reader who comes back to the language
  // the page opened in finds them at hand (ex.words itself changes with the language)
  ex.languageWords = ex.languageWords || {};
  if (!ex.languageWords[ex.words.language]) {
    ex.languageWords[ex.words.language] = { language: ex.words.language, dir: ex.words.dir, messages: ex.words.messages };
  }

  /* The words of ``code``, from the script at ``src`` (the switch's link names it). */
  function wordsOf(code, src) {
    const known = ex.languageWords[code];
    if (known) return Promise.resolve(known);
    src = new URL(src, location.href).href;  // one script, however the page naming it is placed
    if (!loading[src]) {
      loading[src] = new Promise(function (resolve, reject) {
        const script = document.createElement("script");
        script.src = src;
        script.onload = function () {
          const words = ex.languageWords[code];
          if (words) resolve(words); else reject(new Error("no words for " + code));
        };
        script.onerror = function () { delete loading[src]; reject(new Error("no words for " + code)); };
        document.body.appendChild(script);  // not the head: pages.js compares the heads' scripts
      });
    }
    return loading[src];
  }

  /* The language of the page shown (or of the page ``root`` holds): its switch's, with the
     address of its words. */
  function shown(root) {
    const box = (root || document).querySelector(".ex-languages");
    if (!box) return null;
    const link = box.querySelector("a[aria-current]");
    return { code: box.dataset.language, dir: box.dataset.dir, words: link && link.dataset.words };
  }

  /* The engine speaks ``words`` from its next answer on: a message of its own, in the
     queue of the figures' steps, so that every step after it is answered in them. */
  let told = ex.words.language;  // what the worker was last told (it started in the page's)
  function tell() {
    const worker = ex.client && ex.client.worker;
    if (!worker || told === ex.words.language) return;
    told = ex.words.language;
    worker.postMessage({ type: "step", id: "language", text: JSON.stringify({ words: ex.words }) });
  }

  /* Take ``words`` (the page's block of another language) as the page's own. The object
     is kept (the engine's start reads it when it starts, or starts again). */
  function adopt(words) {
    if (words.language === ex.words.language) return;
    ex.words.language = words.language;
    ex.words.dir = words.dir;
    ex.words.messages = words.messages;
    tell();
    // the index of the language the reader left, if it was loaded: the next search loads this one's
    if (ex.searchIndex) {
      ex.searchIndex = new Promise(function (resolve) {
        const script = document.createElement("script");
        script.src = ex.asset("search");
        script.onload = function () { resolve(ex.searchIndex); };
        script.onerror = function () { resolve({ version: 1, lessons: [], docs: [], terms: {} }); };
        ex.searchIndex = null;
        document.body.appendChild(script);
      });
    }
  }

  /* A page of another language is swapped in once its words have come (its figures,
     their controls and numbers, are drawn in them); they are seldom not at hand, since
     they are fetched ahead once the page is live, or as soon as the switch is opened. */
  const WORDS_WAIT_MS = 5000;  // the longest a switch waits for them (a stalled network): then drawn without
  ex.pages.on("arrive", function (page, url) {
    const coming = page.nodes ? shown(page.nodes) : null;  // (a bundle's page is text: its words come on the way)
    if (!coming || !coming.words || coming.code === ex.words.language) return null;
    const words = wordsOf(coming.code, new URL(coming.words, url).href);
    return Promise.race([words, new Promise(function (late) { setTimeout(late, WORDS_WAIT_MS); })]).catch(function () {
      return null;  // drawn in the words at hand; settle() says why
    });
  });

  /* Before a page swapped in is drawn: its language, if another. */
  function settle() {
    const page = shown();
    if (!page || page.code === ex.words.language) return Promise.resolve();
    document.documentElement.lang = page.code;
    document.documentElement.dir = page.dir;
    return wordsOf(page.code, page.words).then(adopt, function (err) {
      console.warn("Explorables: the words of " + page.code + " could not be loaded (" + err.message + ")");
    });
  }

  const boot = ex.boot;
  ex.boot = function () {
    const page = shown();
    const known = page && ex.languageWords[page.code];
    if (known) {  // at hand (as they are once loaded ahead): adopted before a figure is drawn
      document.documentElement.lang = page.code;
      document.documentElement.dir = page.dir;
      adopt(known);
      ex.wordsSettled = Promise.resolve();
    } else ex.wordsSettled = settle();
    return boot.apply(this, arguments);
  };
  // the worker is made after the first swap, or starts again after it stopped: told then
  if (ex.client && ex.client.onStatus) ex.client.onStatus(function (status) { if (status === "live") { told = null; tell(); } });
  ex.ready.then(tell, function () { /* no engine: nothing to tell */ });
  ex.pages.on("mount", function () { ex.ready.then(tell, function () {}); });

  /* The head's translations of the page shown: [[hreflang, href]], from the page's own
     <html> when it was fetched, else from its switch (as output/languages.py writes them:
     each language that has the lesson itself, not a stand-in; the default's, which the
     switch names first, again as x-default). */
  function alternatesOf(html) {
    if (html) {
      return Array.from(html.querySelectorAll("head link[rel=alternate][hreflang]")).map(function (link) {
        return [link.getAttribute("hreflang"), link.getAttribute("href")];
      });
    }
    const links = Array.from(document.querySelectorAll(".ex-languages a[hreflang]"));
    const found = links.filter(function (link) { return !link.querySelector("small"); }).map(function (link) {
      return [link.getAttribute("hreflang"), new URL(link.getAttribute("href"), ex.pages.current || location.href).href];
    });
    if (found.length < 2) return [];
    if (found[0][0] === links[0].getAttribute("hreflang")) found.push(["x-default", found[0][1]]);
    return found;
  }
  let swapped;  // the <html> of the page swapped in (null: a bundle's), until it is mounted
  ex.pages.on("head", function (html) { swapped = html; });
  function head() {
    if (swapped === undefined) return;
    const html = swapped;
    swapped = undefined;
    if (html) {
      document.documentElement.lang = html.lang;
      document.documentElement.dir = html.dir;
    }
    document.querySelectorAll("head link[rel=alternate][hreflang]").forEach(function (link) { link.remove(); });
    const words = document.getElementById("ex-words");
    alternatesOf(html).forEach(function (pair) {
      const link = ex.el("link", { rel: "alternate", hreflang: pair[0], href: pair[1] });
      document.head.insertBefore(link, words && words.parentNode === document.head ? words : null);
    });
  }
  ex.pages.on("mount", head);
  // (this script comes in js/later.js: a page swapped in before, js/languages-early.js kept its head)
  if ("languagesHead" in ex) { swapped = ex.languagesHead; delete ex.languagesHead; head(); }

  // the menu closes as others do: Escape (back to its button), or a click elsewhere
  document.addEventListener("keydown", function (event) {
    const open = event.key === "Escape" && document.querySelector(".ex-languages[open]");
    if (!open || !open.contains(document.activeElement)) return;
    open.open = false;
    open.querySelector("summary").focus();
  });
  document.addEventListener("click", function (event) {
    const open = document.querySelector(".ex-languages[open]");
    if (open && !open.contains(event.target)) open.open = false;
  });

  // every language's words, once the page is live (not in its first frame): the switch
  // then finds them at hand
  function ahead() {
    document.querySelectorAll(".ex-languages a[data-words]").forEach(function (link) {
      const code = link.getAttribute("hreflang");
      if (code !== ex.words.language) wordsOf(code, link.dataset.words).catch(function () { /* loaded on the way */ });
    });
  }
  function idle() {
    if (window.requestIdleCallback) window.requestIdleCallback(ahead, { timeout: 2000 }); else setTimeout(ahead, 500);
  }
  ex.wordsSettled = settle();  // what writes words of its own into the page waits for it
  ex.ready.then(idle, idle);
  // a reader who opens the menu before that: at once (toggle does not bubble: captured),
  // or now, when it was opened before this script came
  document.addEventListener("toggle", function (event) {
    if (event.target.matches && event.target.matches(".ex-languages[open]")) ahead();
  }, true);
  if (document.querySelector(".ex-languages[open]")) ahead();
  ex.languages = true;  // here: the switch is js/pages.js's to swap (js/languages-early.js)
})();
