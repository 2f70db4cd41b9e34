/* Numbers written for readers in the page's language: the twin of engine/numbers.py,
   checked against the same table of cases (tests/fixtures/number-cases.json). The
   language's rules are the page's number.* words: decimal and thousands separators,
   grouping from group_min digits, the percent pattern, a vector's separator; every
   negative number takes the typographic minus. */
(function () {
  "use strict";
  const ex = window.explorables;
  const ENGLISH = { decimal: ".", group: "", group_min: 5, percent: "{}%", list: ", " };  // numbers.Rules()
  const rule = (key) => ex.words.messages["number." + key] ?? ENGLISH[key];

  /* x.toFixed(d), but a tie goes to the even neighbour, as Python's format does (0.125 -> "0.12").
     Both round the number's exact binary value, so a tie is only a number whose x·10^d is
     exactly half an integer: x·2^(d+1) an odd integer (a product by 2^k is exact). 1.145 is
     1.14500000000000001776…, no tie, and goes up, though 1.145 * 100 gives 114.5. */
  function decimals(x, d) {
    const halves = Math.abs(x) * 2 ** (d + 1);
    const tie = Number.isInteger(halves) && halves % 2 === 1;
    return (tie && Math.floor(Math.abs(x) * 10 ** d) % 2 === 0 ? x - Math.sign(x) * 10 ** -d / 4 : x).toFixed(d);
  }

  /* A number written the JavaScript way ("-1234.50") in the language (numbers.localized). */
  function localized(text) {
    const [, sign, whole, fraction] = /^(-?)([^.]*)(?:\.(.*))?$/.exec(text);
    const group = rule("group");
    const grouped = group && /^\d+$/.test(whole) && whole.length >= Number(rule("group_min"))
      ? whole.replace(/\B(?=(\d{3})+$)/g, group) : whole;
    return (sign ? "\u2212" : "") + grouped + (fraction === undefined ? "" : rule("decimal") + fraction);
  }
  /* ``digits`` decimals (2 unless given), never "−0.00"; "—" for what is not a number. */
  function fixed(x, digits = 2) {
    if (typeof x !== "number" || !isFinite(x)) return "—";
    const s = decimals(x, digits);
    return localized(Number(s) === 0 ? s.replace("-", "") : s);
  }
  const listSeparator = () => rule("list");
  ex.number = {
    localized: localized,
    fixed: fixed,
    /* at most ``digits`` decimals, no trailing zeros: "0.5", "3" */
    trimmed: (x, digits = 2) => localized(decimals(x, digits).replace(/\.0*$|(\.\d*?)0+$/, "$1").replace(/^-0$/, "0")),
    /* a weight: one decimal below 10%, whole numbers above */
    percent: (w) => rule("percent").replace("{}", w === 0 ? "0" : localized(decimals(100 * w, w < 0.1 ? 1 : 0))),
    vector: (xs, digits) => "(" + xs.map((x) => fixed(x, digits)).join(listSeparator()) + ")",
  };
  ex.localize = localized;
  ex.fmt = fixed;
  ex.listSeparator = listSeparator;
})();
