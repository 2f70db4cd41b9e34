"""The floor the lifecycle benchmarks measure a lesson against: bare ``loadPyodide`` in a
module worker, from an empty page of the site being timed (no runtime, no engine)."""

from __future__ import annotations

from pathlib import Path

PAGE = """<!doctype html><meta charset="utf-8"><title>bare loadPyodide</title>
<script>
window.__bare = new Promise(function (resolve, reject) {
  const w = new Worker("__bare_worker.js", { type: "module" });
  w.onmessage = function () { resolve(performance.now()); };
  w.onerror = function (e) { reject(new Error(e.message)); };
  w.postMessage(new URL("PYODIDE", location.href).href);
});
</script>"""
WORKER = """self.onmessage = async function (e) {
  const { loadPyodide } = await import(e.data + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: e.data });
  pyodide.runPython("1 + 1");
  self.postMessage("ready");
};"""


def write_bare(folder: Path, pyodide: str) -> None:
    """``__bare.html`` and its worker in ``folder``, loading Pyodide from ``pyodide`` (a
    folder's address relative to ``folder``, ending in /)."""
    (folder / "__bare.html").write_text(PAGE.replace("PYODIDE", pyodide), encoding="utf-8")
    (folder / "__bare_worker.js").write_text(WORKER, encoding="utf-8")
