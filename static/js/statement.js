/* An exercise statement the engine made in the reader's browser ("New numbers", a seed in
   the address), cleaned to the markup js/statement-markup.js allows, as the build cleans
   the statements it writes (site_builder/authors/sanitise.py, nh3). js/exercise.js shows
   it with ex.statement.cleaned(html), a fragment of nodes.

   Two passes. Chromium checks the page's Content-Security-Policy as soon as it parses an
   event attribute, a style or a <base>, even into a document of its own where nothing
   runs (DOMParser, createHTMLDocument, a <template>): a hostile statement would fill the
   console with notices, and an <img src> parsed by DOMParser is even fetched. So:

   1. tags(html), on the text, where no policy is checked: the statement read as the HTML
      tokenizer reads it (tags, attributes, comments, raw text), and written again with
      every tag in place but only the attributes the allow-list gives that tag, without
      comments, and without the elements of drop_content and all they hold. Text stays as
      it was written, but for "<", escaped: nothing dropped can join two pieces into a tag.
   2. That text parsed into a document of its own and walked: an element not allowed goes
      and its children stay, each checked again where it then stands, but for those of
      drop_content, which go with all they hold, and an element in a namespace its parent
      cannot hold but through the element that opens it (<svg> or <math> in HTML;
      MathML's token elements and SVG's foreignObject out of theirs), which goes whole. An
      attribute not allowed goes, and a URL attribute whose scheme is not allowed. The
      nodes then move into the page, never parsed again.

   The second pass alone is the allow-list's guard; the first keeps the parse quiet. */
(function () {
  "use strict";
  const ex = window.explorables;
  const MARKUP = ex.statementMarkup;

  /* ---- 1. The text, tag by tag ---- */
  const SPACE = /[\t\n\f\r ]/;
  const RAW = ["script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title"];  // no tags inside
  const VOID = ["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"];
  // Tags that end <svg> or <math> where they stand, and the elements inside those that hold HTML again.
  const BREAKOUT = ("b big blockquote body br center code dd div dl dt em embed h1 h2 h3 h4 h5 h6 head hr i img " +
    "li listing menu meta nobr ol p pre ruby s small span strong strike sub sup table tt u ul var").split(" ");
  const HTML_INSIDE = { svg: ["foreignobject", "desc", "title"], math: ["mi", "mo", "mn", "ms", "mtext"] };
  // Attributes that change how the page's parser builds the tree: kept so that it builds what nh3 saw.
  const SHAPING = { font: ["color", "face", "size"], "annotation-xml": ["encoding"], input: ["type"] };

  function kept(tag, name) {
    return (MARKUP.attributes[tag] || []).indexOf(name) >= 0 || (MARKUP.attributes["*"] || []).indexOf(name) >= 0
      || (SHAPING[tag] || []).indexOf(name) >= 0;
  }

  /* The tag that starts at html[i] ("<" then a letter, or "</"): {end, name, attrs, closing,
     selfClosing, next}, or null when the text ends inside it (the tokenizer drops it). */
  function readTag(html, i) {
    const end = html[i + 1] === "/";
    let j = i + (end ? 2 : 1);
    let name = "";
    while (j < html.length && !SPACE.test(html[j]) && html[j] !== "/" && html[j] !== ">") name += html[j++];
    const attrs = [];
    let selfClosing = false;
    while (j < html.length) {
      const c = html[j];
      if (c === ">") return { end: end, name: name.toLowerCase(), attrs: attrs, selfClosing: selfClosing, next: j + 1 };
      if (SPACE.test(c)) { j++; continue; }
      if (c === "/") { selfClosing = html[j + 1] === ">"; j++; continue; }
      let attr = html[j++];  // a name may start with "="
      while (j < html.length && !SPACE.test(html[j]) && "/>=".indexOf(html[j]) < 0) attr += html[j++];
      while (j < html.length && SPACE.test(html[j])) j++;
      let value = "";
      if (html[j] === "=") {
        j++;
        while (j < html.length && SPACE.test(html[j])) j++;
        const quote = html[j];
        if (quote === "\"" || quote === "'") {
          const close = html.indexOf(quote, j + 1);
          if (close < 0) return null;
          value = html.slice(j + 1, close);
          j = close + 1;
        } else {
          while (j < html.length && !SPACE.test(html[j]) && html[j] !== ">") value += html[j++];
        }
      }
      attrs.push([attr.toLowerCase(), value]);
    }
    return null;
  }

  /* Where the markup declaration or comment starting at html[i] ("<!", "<?", "</" not
     before a letter) ends, and the CDATA text it holds in SVG or MathML. */
  function readOther(html, i, foreign) {
    if (html.startsWith("<!--", i)) {
      if (html.startsWith("<!-->", i)) return { next: i + 5 };
      if (html.startsWith("<!--->", i)) return { next: i + 6 };
      const a = html.indexOf("-->", i + 4), b = html.indexOf("--!>", i + 4);
      const close = a < 0 ? b : b < 0 ? a : Math.min(a, b);
      return { next: close < 0 ? html.length : close + (close === b ? 4 : 3) };
    }
    if (foreign && html.startsWith("<![CDATA[", i)) {
      const close = html.indexOf("]]>", i + 9);
      return { next: close < 0 ? html.length : close + 3, text: html.slice(i + 9, close < 0 ? html.length : close) };
    }
    const close = html.indexOf(">", i);
    return { next: close < 0 ? html.length : close + 1 };
  }

  /* Where the raw text of <name> that starts at html[i] ends: at its end tag, or the end. */
  function rawEnd(html, i, name) {
    const lower = html.toLowerCase();
    let at = lower.indexOf("</" + name, i);
    while (at >= 0 && at + 2 + name.length < html.length && !/[\t\n\f\r />]/.test(html[at + 2 + name.length])) {
      at = lower.indexOf("</" + name, at + 1);
    }
    return at < 0 ? html.length : at;
  }

  /* What an element opened in SVG or MathML (under ``parent``) holds: HTML at the
     integration points, SVG under MathML's annotation-xml, else its parent's kind. */
  function inside(parent, tag) {
    if (parent.name === "annotation-xml" && tag.name === "svg") return { name: "svg", ns: "svg" };
    const html = HTML_INSIDE[parent.ns].indexOf(tag.name) >= 0 || (parent.ns === "math" && tag.name === "annotation-xml"
      && tag.attrs.some(function (a) { return a[0] === "encoding" && /^(text\/html|application\/xhtml\+xml)$/i.test(a[1]); }));
    return { name: tag.name, ns: html ? "html" : parent.ns };
  }

  function escapeText(text) {
    return text.replace(/</g, "&lt;");
  }

  function tags(html) {
    html = String(html);
    let out = "";
    let i = 0;
    const open = [];  // SVG and MathML elements open, and the elements of theirs that hold HTML: {name, ns}
    let dropping = null;  // {name, depth}: inside a drop_content element, whose content goes too
    const foreign = function () { return open.length > 0 && open[open.length - 1].ns !== "html"; };
    while (i < html.length) {
      const lt = html.indexOf("<", i);
      if (lt < 0) { if (!dropping) out += escapeText(html.slice(i)); break; }
      if (!dropping) out += escapeText(html.slice(i, lt));
      const c = html[lt + 1] || "";
      if (/[a-z]/i.test(c) || (c === "/" && /[a-z]/i.test(html[lt + 2] || ""))) {
        const tag = readTag(html, lt);
        if (!tag) break;  // the text ends inside a tag: the parser drops it
        i = tag.next;
        if (tag.end) {
          const at = open.map(function (o) { return o.name; }).lastIndexOf(tag.name);
          if (at >= 0) open.length = at;
          if (dropping && tag.name === dropping.name && --dropping.depth === 0) dropping = null;
          else if (!dropping) out += "</" + tag.name + ">";
          continue;
        }
        if (foreign() && (BREAKOUT.indexOf(tag.name) >= 0 || (tag.name === "font" && tag.attrs.some(function (a) {
          return SHAPING.font.indexOf(a[0]) >= 0;
        })))) {
          while (foreign()) open.pop();
          if (dropping && dropping.foreign) dropping = null;  // the dropped element of SVG or MathML ended too
        }
        const inForeign = foreign();
        // whether it holds what follows: HTML ignores "/>" but on a void element; SVG and MathML do not
        const opens = inForeign ? !tag.selfClosing : VOID.indexOf(tag.name) < 0;
        if (dropping) {
          if (!inForeign && tag.name === "plaintext") break;  // the rest is its text, dropped with it
          if (tag.name === dropping.name && opens) dropping.depth++;
          else if (!inForeign && RAW.indexOf(tag.name) >= 0) i = html.indexOf(">", rawEnd(html, i, tag.name)) + 1 || html.length;
          continue;
        }
        if (MARKUP.drop_content.indexOf(tag.name) >= 0) {
          if (!inForeign && RAW.indexOf(tag.name) >= 0) i = html.indexOf(">", rawEnd(html, i, tag.name)) + 1 || html.length;
          else if (opens) dropping = { name: tag.name, depth: 1, foreign: inForeign };
          continue;
        }
        const seen = {};
        out += "<" + tag.name + tag.attrs.filter(function (a) {
          const first = !seen[a[0]];
          seen[a[0]] = true;
          return first && kept(tag.name, a[0]);
        }).map(function (a) { return " " + a[0] + "=\"" + a[1].replace(/"/g, "&quot;") + "\""; }).join("")
          + (tag.selfClosing ? "/>" : ">");
        if (!inForeign && RAW.indexOf(tag.name) >= 0) {  // its text up to its end tag, as it is
          const end = rawEnd(html, i, tag.name);
          out += html.slice(i, end);
          i = end;
        } else if (!inForeign && tag.name === "plaintext") {
          out += html.slice(i);
          break;
        } else if (!tag.selfClosing && inForeign) {
          open.push(inside(open[open.length - 1], tag));
        } else if (!tag.selfClosing && (tag.name === "svg" || tag.name === "math")) {
          open.push({ name: tag.name, ns: tag.name });
        }
      } else if (c === "/" && lt + 2 >= html.length) {  // "</" at the very end: text
        if (!dropping) out += "&lt;/";
        break;
      } else if (c === "!" || c === "?" || c === "/") {
        const other = readOther(html, lt, foreign());
        if (other.text && !dropping) out += escapeText(other.text);
        i = other.next;
      } else {
        if (!dropping) out += "&lt;";
        i = lt + 1;
      }
    }
    return out;
  }

  /* ---- 2. The parsed nodes ---- */
  const HTML = "http://www.w3.org/1999/xhtml", MATHML = "http://www.w3.org/1998/Math/MathML";
  const SVG = "http://www.w3.org/2000/svg";
  const ALLOWED = {};
  ALLOWED[HTML] = MARKUP.text;
  ALLOWED[MATHML] = MARKUP.mathml;
  const OPENS = {};  // the element through which a namespace is entered from HTML
  OPENS[SVG] = "svg";
  OPENS[MATHML] = "math";
  const LEAVES = {};  // the elements whose children may be of another namespace
  LEAVES[MATHML] = ["mi", "mo", "mn", "ms", "mtext", "annotation-xml"];
  LEAVES[SVG] = ["foreignObject"];

  function expected(parent, child) {
    if (parent.namespaceURI === child.namespaceURI) return true;
    if (parent.namespaceURI === HTML) return OPENS[child.namespaceURI] === child.localName;
    return (LEAVES[parent.namespaceURI] || []).indexOf(parent.localName) >= 0;
  }

  function allowedAttribute(tag, attr) {
    const name = attr.name.toLowerCase();
    const listed = (MARKUP.attributes[tag] || []).concat(MARKUP.attributes["*"] || []);
    if (listed.indexOf(name) < 0) return false;
    if (MARKUP.url_attributes.indexOf(name) < 0) return true;
    // The controls are the point: a browser ignores them in a URL ("java\tscript:" runs).
    // eslint-disable-next-line no-control-regex
    const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(attr.value.replace(/[\u0000-\u0020]/g, ""));
    return !scheme || MARKUP.url_schemes.indexOf(scheme[1].toLowerCase()) >= 0;
  }

  function cleanChildren(parent) {
    let node = parent.firstChild;
    while (node) {
      let next = node.nextSibling;
      if (node.nodeType === Node.ELEMENT_NODE && MARKUP.drop_content.indexOf(node.localName) < 0
          && expected(parent, node)) {
        if ((ALLOWED[node.namespaceURI] || []).indexOf(node.localName) >= 0) {
          Array.from(node.attributes).forEach(function (attr) {
            if (!allowedAttribute(node.localName, attr)) node.removeAttributeNode(attr);
          });
          cleanChildren(node);
        } else {  // its children take its place, and are looked at there
          next = node.firstChild || next;
          node.replaceWith.apply(node, Array.from(node.childNodes));
        }
      } else if (node.nodeType !== Node.TEXT_NODE) {
        node.remove();
      }
      node = next;
    }
  }

  function cleaned(html) {
    const body = new DOMParser().parseFromString("<!DOCTYPE html><body>" + tags(html), "text/html").body;
    cleanChildren(body);
    const nodes = document.createDocumentFragment();
    nodes.append.apply(nodes, Array.from(body.childNodes));
    return nodes;
  }

  ex.statement = { cleaned: cleaned, tags: tags };
})();
