// eslint for the browser runtime (static/js): a development tool only, building a site
// needs no Node. From the repository: npm ci --prefix tools && tools/node_modules/.bin/eslint -c tools/eslint.config.mjs
// (or .ci/checks, which runs it with ruff and mypy).
import js from "@eslint/js";
import globals from "globals";

export default [
  {
    basePath: "..",  // the repository: file patterns below are relative to it
  },
  {
    files: ["static/js/**/*.js"],
    ...js.configs.recommended,
  },
  {
    // Classic scripts (no modules: pages also run when opened from disk), each adding its
    // part to the one namespace, window.explorables (core.js).
    files: ["static/js/**/*.js"],
    ignores: ["static/js/worker.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser },
    },
  },
  {
    // The engine worker: a module worker on a served site, a classic one made from a Blob
    // in an offline bundle, so a script with no import statement (Pyodide by import()).
    files: ["static/js/worker.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.worker },
    },
  },
];
