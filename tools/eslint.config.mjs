// eslint for the browser runtime (static/js): a development tool only, building a site
// needs no Node. From the repository's root, once `npm ci --prefix tools`:
//   tools/node_modules/.bin/eslint -c tools/eslint.config.mjs static/js
// (.ci/checks runs it with ruff and mypy).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    basePath: "..",  // the repository: the file patterns below are relative to it
  },
  {
    files: ["static/js/**/*.js"],
    ...js.configs.recommended,
  },
  {
    // Classic scripts (no modules: pages also run when opened from disk), each one IIFE
    // adding its part to the one namespace, window.explorables (core.js): nothing else may
    // land in the global scope the page's scripts share. ES2020, as the runtime uses it
    // (globalThis; the worker's import()); newer syntax or built-ins are flagged.
    files: ["static/js/**/*.js"],
    ignores: ["static/js/worker.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      "no-implicit-globals": "error",
    },
  },
  {
    // The engine worker: a module worker on a served site, a classic one made from a Blob
    // in an offline bundle, so a script with no import statement; it loads Pyodide by
    // import().
    files: ["static/js/worker.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: { ...globals.worker },
    },
  },
];
