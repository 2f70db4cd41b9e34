/* The markup an exercise statement may hold, declared once: the MathML the exercise kit
   writes and plain text formatting, each element with only the attributes it needs. The
   build cleans the statements it writes into pages to it (site_builder/authors/sanitise.py
   reads this object as JSON and gives it to nh3), and js/statement.js cleans to it the
   statements the engine makes in the reader's browser (New numbers, a seed in the address).
   An element not listed is dropped and its text kept, but for those of "drop_content",
   which go with all they hold; a URL attribute ("url_attributes") stays only with a scheme
   of "url_schemes" (none: no link at all). Keep it JSON. */
(function () {
  "use strict";
  window.explorables.statementMarkup = {
    "mathml": [
      "math", "mi", "mn", "mo", "ms", "mrow", "msub", "msup", "msubsup", "mfrac", "msqrt", "mroot",
      "mtable", "mtr", "mtd", "mtext", "mspace", "mover", "munder", "munderover", "mpadded", "mphantom",
      "menclose", "mstyle", "semantics", "annotation"
    ],
    "text": ["p", "em", "strong", "b", "i", "code", "span", "sub", "sup", "br"],
    "attributes": {
      "*": ["class"], "math": ["xmlns", "display"], "mi": ["mathvariant"], "mn": ["mathvariant"],
      "mtext": ["mathvariant"], "mstyle": ["mathvariant", "displaystyle", "scriptlevel"],
      "mo": ["stretchy", "lspace", "rspace", "fence", "separator", "form", "largeop", "movablelimits",
             "symmetric", "minsize", "maxsize", "accent"],
      "mover": ["accent"], "munder": ["accentunder"], "munderover": ["accent", "accentunder"],
      "mfrac": ["linethickness"], "mspace": ["width", "height", "depth"],
      "mpadded": ["width", "height", "depth", "lspace", "voffset"], "menclose": ["notation"],
      "mtd": ["columnspan", "rowspan"], "annotation": ["encoding"]
    },
    "url_attributes": ["href", "src", "xlink:href", "action", "formaction", "background", "poster", "cite",
                       "data", "srcset", "ping"],
    "url_schemes": [],
    "drop_content": ["script", "style", "template", "iframe", "noscript", "object", "embed"]
  };
})();
