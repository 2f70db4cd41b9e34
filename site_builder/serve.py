"""``explorables serve``: build, serve on 127.0.0.1, rebuild on change, reload the page.

Changes are found by polling modification times of content/, the templates, static/ and
engine/ (no extra dependency). Open pages listen on ``/__livereload`` (server-sent
events) and reload after each successful rebuild; a failed rebuild prints its errors and
keeps serving the last good site.
"""
from __future__ import annotations

import http.server
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from .build import ENGINE, STATIC, TEMPLATES, TOP


def snapshot(folders: list[Path]) -> dict[str, float]:
    stamps: dict[str, float] = {}
    for folder in folders:
        if not folder.exists():
            continue
        for path in folder.rglob("*"):
            if "__pycache__" in path.parts:
                continue
            try:
                if path.is_file():
                    stamps[str(path)] = path.stat().st_mtime
            except OSError:  # an editor's temporary file, gone between listing and stat
                continue
    return stamps


class _Reloads:
    def __init__(self) -> None:
        self.generation = 0
        self.changed = threading.Condition()

    def bump(self) -> None:
        with self.changed:
            self.generation += 1
            self.changed.notify_all()


def _handler(out_dir: Path, reloads: _Reloads):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                          ".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm"}

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(out_dir), **kwargs)

        def do_GET(self):  # noqa: N802
            if self.path == "/__livereload":
                return self._events()
            # A rebuild within the same second keeps a file's Last-Modified second, so a
            # conditional request would get a stale 304: always send the file itself.
            del self.headers["If-Modified-Since"]
            return super().do_GET()

        def _events(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            with reloads.changed:
                seen = reloads.generation
            try:
                while True:
                    with reloads.changed:
                        reloads.changed.wait_for(lambda: reloads.generation != seen, timeout=15)
                    if reloads.generation != seen:
                        self.wfile.write(b"data: reload\n\n")
                        self.wfile.flush()
                        return
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

        def end_headers(self):
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, format, *args):  # quiet: one line per rebuild is enough
            pass

    return Handler


def _rebuild(content: Path, out_dir: Path, pyodide_source: str | None) -> bool:
    """Build in a fresh Python process, so edits to engine/ count at once (the figures
    that check options and draw first frames are imported anew each time)."""
    command = [sys.executable, "-m", "explorables.site_builder.cli", "build", str(Path(content).resolve()),
               "-o", str(Path(out_dir).resolve()), "--live-reload"]
    if pyodide_source:
        command += ["--pyodide", str(Path(pyodide_source).expanduser().resolve())]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        print(result.stderr.strip() or result.stdout.strip(), file=sys.stderr, flush=True)
        return False
    print(result.stdout.strip().splitlines()[0], flush=True)
    if result.stderr.strip():  # warnings (a lesson order tie, front matter without '---')
        print(result.stderr.strip(), file=sys.stderr, flush=True)
    return True


class DevServer:
    """The dev server as an object: ``start()`` builds and serves, ``check()`` rebuilds if
    anything changed, ``stop()`` shuts it down. ``serve`` drives it until Ctrl+C."""

    def __init__(self, content: Path, out_dir: Path, *, port: int = 8000, pyodide_source: str | None = None):
        self.content, self.out_dir, self.port, self.pyodide_source = Path(content), Path(out_dir), port, pyodide_source
        self.reloads = _Reloads()
        self.watched = [self.content, TEMPLATES, STATIC, ENGINE, TOP]
        self.server: http.server.ThreadingHTTPServer | None = None
        self.before: dict[str, float] = {}

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/"

    def start(self) -> bool:
        if not _rebuild(self.content, self.out_dir, self.pyodide_source) and not self.out_dir.exists():
            return False
        try:
            self.server = http.server.ThreadingHTTPServer(("127.0.0.1", self.port),
                                                          _handler(self.out_dir.resolve(), self.reloads))
        except OSError as err:
            print(f"error: cannot serve on 127.0.0.1:{self.port} ({err.strerror}); "
                  f"pick another port with --port", file=sys.stderr)
            return False
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.before = snapshot(self.watched)
        return True

    def check(self) -> bool:
        """Rebuild if a watched file changed; True when a rebuild succeeded and pages reload."""
        now = snapshot(self.watched)
        if now == self.before:
            return False
        self.before = now
        if _rebuild(self.content, self.out_dir, self.pyodide_source):
            self.reloads.bump()
            return True
        return False

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def serve(content: Path, out_dir: Path, *, port: int = 8000, pyodide_source: str | None = None,
          poll: float = 0.5) -> int:
    dev = DevServer(content, out_dir, port=port, pyodide_source=pyodide_source)
    if not dev.start():
        return 1
    print(f"Serving {out_dir}/ at {dev.url} (Ctrl+C to stop)", flush=True)
    try:
        while True:
            time.sleep(poll)
            dev.check()
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        dev.stop()
    return 0
