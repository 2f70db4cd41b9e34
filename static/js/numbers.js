/* Numbers written for readers in the page's language: the twin of engine/numbers.py,
   checked against the same table of cases (tests/fixtures/number-cases.json). The
   language's rules are the page's number.* words: decimal and thousands separators,
   grouping from group_min digits, the percent pattern, a vector's separator; every
   negative number takes the typographic minus. */
(function () {
  "use strict";
  const ex = window.explorables;
  const ENGLISH = { decimal: ".", group: "", group_min: 5, percent: "{}%", list: ", " };  // numbers.Rules()
  function rule(key) { return ex.words.messages["number." + key] ?? ENGLISH[key]; }

  /* x.toFixed(d), but a tie goes to the even neighbour, as Python's format does (0.125 -> "0.12"). */
  function decimals(x, d) {
    const t = Math.abs(x) * Math.pow(10, d);
    return (t % 1 === 0.5 && Math.floor(t) % 2 === 0 ? x - Math.sign(x) * Math.pow(10, -d) / 4 : x).toFixed(d);
  }

  /* A number written the JavaScript way ("-1234.50") in the language (numbers.localized). */
  function localized(text) {
    const group = rule("group");
    let body = String(text);
    const sign = body.startsWith("-") ? "\u2212" : "";
    if (sign) body = body.slice(1);
    const dot = body.indexOf(".");
    let whole = dot < 0 ? body : body.slice(0, dot);
    if (group && /^\d+$/.test(whole) && whole.length >= Number(rule("group_min"))) {
      whole = whole.replace(/\B(?=(\d{3})+$)/g, group);
    }
    return sign + whole + (dot < 0 ? "" : rule("decimal") + body.slice(dot + 1));
  }
  /* ``digits`` decimals (2 unless given), never "−0.00"; "—" for what is not a number. */
  function fixed(x, digits) {
    if (typeof x !== "number" || !isFinite(x)) return "—";
    const s = decimals(x, digits === undefined ? 2 : digits);
    return localized(Number(s) === 0 ? s.replace("-", "") : s);
  }
  /* At most ``digits`` decimals, no trailing zeros: "0.5", "3". */
  function trimmed(x, digits) {
    let s = decimals(x, digits === undefined ? 2 : digits);
    if (s.indexOf(".") >= 0) s = s.replace(/\.?0+$/, "");
    return localized(s === "-0" ? "0" : s);
  }
  /* A weight: one decimal below 10%, whole numbers above. */
  function percent(w) {
    return rule("percent").replace("{}", w === 0 ? "0" : localized(decimals(100 * w, w < 0.1 ? 1 : 0)));
  }
  function listSeparator() { return rule("list"); }
  function vector(xs, digits) {
    return "(" + xs.map(function (x) { return fixed(x, digits); }).join(listSeparator()) + ")";
  }
  ex.number = { localized: localized, fixed: fixed, trimmed: trimmed, percent: percent, vector: vector };
  ex.localize = localized;
  ex.fmt = fixed;
  ex.listSeparator = listSeparator;
})();
