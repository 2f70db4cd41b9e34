"""One Pyodide under Node for a test process: the ``pyodide_node`` fixture (conftest.py).

Starting Pyodide costs seconds of CPU, and the tests that compare the engine under
Pyodide with CPython (test_engine_pyodide.py, the figures' agreement tests) each ran one
check. tests/node/serve_checks.mjs starts it once and runs check after check sent on its
stdin, each in the interpreter as Pyodide started it (what a check imported is forgotten
after it, the folders it wrote removed):

    run = pyodide_node.run(checks_py, inputs, archive=engine_zip)   # or engine=ENGINE_DIR
    assert run.ok, f"node failed:\\n{run.error[-3000:]}"
    run.result   # what main(inputs) of the checks module returned, through JSON
"""

from __future__ import annotations

import json
import selectors
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

SERVER = Path(__file__).resolve().parent / "node" / "serve_checks.mjs"
TIMEOUT = 180  # s: Pyodide's start, or one check, on a loaded machine


@dataclass
class Run:
    ok: bool
    result: object  # main(inputs)'s value, when ok
    error: str  # the traceback or why Node stopped, when not ok
    output: str  # what Python printed


class NodePyodide:
    """Pyodide in one Node process, started at the first check."""

    def __init__(self, pyodide_dir: Path):
        self.pyodide_dir = pyodide_dir
        self.process: subprocess.Popen | None = None
        self.folder = Path(tempfile.mkdtemp(prefix="node-pyodide-"))

    def run(self, checks: Path, inputs, archive: Path | None = None, engine: Path | None = None) -> Run:
        """``main(inputs)`` of the module ``checks`` under Pyodide, with the engine archive
        ``archive`` unpacked as the worker unpacks it, or the engine's sources ``engine``."""
        assert (archive is None) != (engine is None), "an engine archive or the engine's sources"
        request = {"checks": str(checks), "inputs": json.dumps(inputs)}
        request.update({"archive": str(archive)} if archive else {"engine": str(engine)})
        if self.process is None or self.process.poll() is not None:
            started = self._start()
            if not started.ok:
                return started
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        return self._answer()

    def _start(self) -> Run:
        node = shutil.which("node")
        with open(self.folder / "stderr.txt", "w") as stderr:  # Node's own errors: where it stopped
            self.process = subprocess.Popen(
                [node, str(SERVER), str(self.pyodide_dir)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=stderr,
                text=True,
                bufsize=1,
            )
        return self._answer()

    def _answer(self) -> Run:
        """The server's next line, or why none came within TIMEOUT."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.process.stdout, selectors.EVENT_READ)
            line = self.process.stdout.readline() if selector.select(TIMEOUT) else ""
        if not line:
            self.stop()
            return Run(
                False, None, f"no answer from Node within {TIMEOUT} s:\n" + (self.folder / "stderr.txt").read_text(), ""
            )
        answer = json.loads(line)
        if answer.get("ready"):
            return Run(True, None, "", "")
        result = json.loads(answer["result"]) if answer["ok"] else None
        return Run(answer["ok"], result, answer.get("error", ""), answer["output"])

    def stop(self) -> None:
        """End the Node process (the next check starts another)."""
        if self.process is not None:
            if self.process.poll() is None:
                self.process.kill()
            self.process.wait()
            self.process.stdin.close()
            self.process.stdout.close()
            self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
