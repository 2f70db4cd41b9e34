// A site's sw.js run with no browser, to follow its take-over of a new deploy step by
// step, on a clock of its own:
//
//   node serviceworker_takeover.mjs SW_JS PAGE_URL
//
// The worker runs in a context of its own whose `self` has a registration with a waiting
// worker (a new deploy), one page open (PAGE_URL, a page of the site), a cache that holds
// every file ("kept: URL") and no network. The reader reloads that page again and again,
// the clock moving between reloads; the output is one line of JSON: for each reload, the
// clock, what the worker answered (`wait`: the page that waits for the take-over, `kept`:
// the page of its own version) and the take-over messages sent so far, by worker.
import { readFileSync } from "node:fs";
import { createContext, runInContext } from "node:vm";

const [swPath, pageUrl] = process.argv.slice(2);
if (!swPath || !pageUrl) {
  console.error("usage: node serviceworker_takeover.mjs SW_JS PAGE_URL");
  process.exit(2);
}

let now = 1_000_000;
const asked = [];
const waitingWorker = (name) => ({ postMessage: (message) => asked.push(`${name} ${message.type}`) });
const scope = new URL(pageUrl).origin + "/";  // the site at the root of its origin
const registration = { scope, waiting: waitingWorker("first") };
const listeners = {};
const cache = {
  match: (url) => Promise.resolve(new Response("kept: " + url)),
  put: () => Promise.resolve(),
};
const context = {
  registration,
  location: { origin: new URL(pageUrl).origin },
  clients: { matchAll: () => Promise.resolve([{ url: pageUrl }]) },
  addEventListener: (type, fn) => { listeners[type] = fn; },
  skipWaiting: () => {},
  caches: { open: () => Promise.resolve(cache), keys: () => Promise.resolve([]) },
  fetch: () => Promise.reject(new TypeError("no network here")),
  Date: { now: () => now },
  Response, URL, TextDecoder, Promise, Map, Uint8Array, Array, Object, crypto, console,
};
context.self = context;
createContext(context);
runInContext(readFileSync(swPath, "utf8"), context);

async function reload() {
  let answered = null;
  listeners.fetch({
    request: { method: "GET", url: pageUrl, mode: "navigate", headers: new Map() },
    respondWith: (promise) => { answered = promise; },
    waitUntil: () => {},
  });
  if (!answered) return "not answered";
  const text = await (await answered).text();
  return text.startsWith("kept: ") ? "kept" : text.includes("controllerchange") ? "wait" : text;
}

const steps = [];
async function step(advance, change) {
  now += advance;
  if (change) change();
  steps.push({ at: now - 1_000_000, answer: await reload(), asked: [...asked] });
}
await step(0);  // the reload that asks for the take-over
await step(4_000);  // a page loaded while it is under way waits too
await step(7_000);  // the take-over never came: this version answers, and does not ask again
await step(60_000);
await step(1_000, () => { registration.waiting = waitingWorker("second"); });  // another deploy waits
console.log(JSON.stringify(steps));
