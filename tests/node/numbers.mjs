// Run the shared table of number cases against static/js/numbers.js, the browser's
// formatter, as a page runs it: a classic script given the page's number.* words.
//
//   node numbers.mjs NUMBERS_JS CASES_JSON LOCALES_DIR
//
// Prints, as JSON on stdout, the text the script writes for each case, in order.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import vm from "node:vm";

const [script, casesPath, locales] = process.argv.slice(2);
const ENGLISH = { decimal: ".", group: "", group_min: "5", percent: "{}%", list: ", " };

function messagesFor(rules) {
  const out = {};
  if (typeof rules === "string") {
    const catalogue = JSON.parse(readFileSync(join(locales, rules + ".json"), "utf8"));
    const messages = catalogue.messages || catalogue;
    for (const key of Object.keys(messages)) if (key.startsWith("number.")) out[key] = messages[key];
    return out;
  }
  for (const key of Object.keys(ENGLISH)) out["number." + key] = String(key in rules ? rules[key] : ENGLISH[key]);
  return out;
}

const window = { explorables: { words: { messages: {} } } };
vm.runInNewContext(readFileSync(script, "utf8"), { window });
const number = window.explorables.number;
const written = JSON.parse(readFileSync(casesPath, "utf8")).cases.map(function (c) {
  window.explorables.words.messages = messagesFor(c.rules);
  if (c.format === "percent" || c.format === "localized") return number[c.format](c.x);
  return number[c.format](c.x, c.digits);
});
process.stdout.write(JSON.stringify(written));
