"""``explorables serve``: build, serve on 127.0.0.1, rebuild on change, reload the page.

The preview is built into a private folder of its own (removed when the server stops),
never into the site's build output: a preview's pages load a live-reload script that a
published site must not carry, so ``_site/`` after ``serve`` is exactly what ``build``
made. Changes are found by polling modification times of content/, the templates,
static/ and engine/ (no extra dependency). Open pages listen on ``__livereload`` beside
the site's root (server-sent events) and reload after each successful rebuild; a failed
rebuild prints its errors and keeps serving the last good site.
"""

from __future__ import annotations

import html
import http.server
import json
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from ..authors import loader as authors
from ..output.assets import STATIC, TEMPLATES
from ..output.folder import MARKER
from ..pyodide.archive import ENGINE, TOP
from ..structure.config import config_path
from .warm import Builder


def snapshot(folders: list[Path]) -> dict[str, float]:
    """The modification time of every file in ``folders`` (a file among them: itself),
    and of every link, one that leads nowhere too (the build reports it, and its removal
    must build again). Names starting with '.' are left out, as the build leaves them:
    an editor's lock and swap files come and go while the author types."""
    stamps: dict[str, float] = {}
    for folder in folders:
        if not folder.exists():
            continue
        for path in [folder] if folder.is_file() else folder.rglob("*"):
            if "__pycache__" in path.parts or any(part.startswith(".") for part in path.parts[len(folder.parts) :]):
                continue
            try:
                if path.is_symlink():
                    stamps[str(path)] = path.lstat().st_mtime
                elif path.is_file():
                    stamps[str(path)] = path.stat().st_mtime
            except OSError:  # an editor's temporary file, gone between listing and stat
                continue
    return stamps


class _Reloads:
    """What open pages are told after each rebuild: ``content`` (swap the page's content
    in, keeping Python), ``reload`` (the engine or the runtime changed: load anew) or
    ``error`` (show the build's message over the page until the next good build)."""

    def __init__(self) -> None:
        self.generation = 0
        self.message = {"kind": "reload"}
        self.changed = threading.Condition()

    def bump(self, kind: str = "reload", text: str = "") -> None:
        with self.changed:
            self.generation += 1
            self.message = {"kind": kind, "text": text}
            self.changed.notify_all()

    def wait_past(self, seen: int, timeout: float) -> None:
        """Wait (at most ``timeout`` s) for a rebuild after generation ``seen``."""
        with self.changed:
            self.changed.wait_for(lambda: self.generation != seen, timeout=timeout)


def _handler(out_dir: Path, reloads: _Reloads):
    class Handler(http.server.SimpleHTTPRequestHandler):
        extensions_map = {  # noqa: RUF012  (http.server's own attribute, a dict by its type)
            **http.server.SimpleHTTPRequestHandler.extensions_map,
            ".mjs": "text/javascript",
            ".js": "text/javascript",
            ".wasm": "application/wasm",
        }

        def __init__(self, *args, **kwargs):
            super().__init__(*args, directory=str(out_dir), **kwargs)

        def do_GET(self):
            if self.path.split("?")[0].endswith("/__livereload"):
                return self._events()
            # A rebuild within the same second keeps a file's Last-Modified second, so a
            # conditional request would get a stale 304: always send the file itself.
            del self.headers["If-Modified-Since"]
            return super().do_GET()

        def _events(self):
            with reloads.changed:  # before the page hears the stream is open: no rebuild is missed
                seen, last = reloads.generation, reloads.message
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            try:
                if last["kind"] == "error":  # a page opened since the failed build shows it too
                    self.wfile.write(b"data: " + json.dumps(last).encode() + b"\n\n")
                    self.wfile.flush()
                while True:
                    reloads.wait_past(seen, timeout=15)
                    if reloads.generation != seen:  # one message a rebuild; the stream stays open
                        with reloads.changed:
                            seen, message = reloads.generation, reloads.message
                        self.wfile.write(b"data: " + json.dumps(message).encode() + b"\n\n")
                        self.wfile.flush()
                        continue
                    self.wfile.write(b": ping\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

        def send_error(self, code, message=None, explain=None):
            """A page that is not there gets the site's own 404 page, as GitHub Pages
            serves it; while no build has succeeded, the page listing the errors."""
            page = out_dir / "404.html"
            if code != 404 or self.command != "GET":
                return super().send_error(code, message, explain)
            if not page.is_file():
                page = out_dir / "index.html"  # the errors' page (_error_page): no site was built
            try:
                body = page.read_bytes()
            except OSError:
                return super().send_error(code, message, explain)
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def end_headers(self):
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

        def log_message(self, format, *args):  # quiet: one line per rebuild is enough
            pass

    return Handler


def _rebuild(
    builder: Builder, content: Path, out_dir: Path, pyodide_source: str | None, lesson: str | None = None
) -> tuple[bool, str]:
    """Build in the kept build process (warm.py); the server starts a fresh one when
    code has changed, so that edits to engine/ or to a figure count at once. With
    ``lesson`` (the one file that changed) that lesson's page is rebuilt in place when
    nothing else depends on the edit (incremental.py), else the whole site is."""
    command = ["build", str(Path(content).resolve()), "-o", str(Path(out_dir).resolve()), "--live-reload"]
    if pyodide_source:
        command += ["--pyodide", str(Path(pyodide_source).expanduser().resolve())]
    if lesson is not None:
        command = ["__page", str(Path(content).resolve()), str(Path(out_dir).resolve()), lesson, *command]
    code, out, err = builder.run(command)
    if code != 0:
        text = err.strip() or out.strip()
        print(text, file=sys.stderr, flush=True)
        return False, text
    print(out.strip().splitlines()[0], flush=True)
    if err.strip():  # warnings (a lesson order tie, front matter without '---')
        print(err.strip(), file=sys.stderr, flush=True)
    return True, ""


def _inside(path: str, folders: tuple[Path, ...]) -> bool:
    return any(Path(path).resolve().is_relative_to(folder.resolve()) for folder in folders)


class DevServer:
    """The dev server as an object: ``start()`` builds and serves, ``check()`` rebuilds if
    anything changed, ``stop()`` shuts it down. ``serve`` drives it until Ctrl+C."""

    def __init__(
        self,
        content: Path,
        out_dir: Path | None = None,
        *,
        port: int = 8000,
        pyodide_source: str | None = None,
        host: str = "127.0.0.1",
    ):
        self.host = host  # 0.0.0.0 (--host) lets a phone on the same network preview the site
        self.private = out_dir is None  # the usual case: a folder of the server's own
        if out_dir is None:
            out_dir = Path(tempfile.mkdtemp(prefix="explorables-serve-")) / "site"
        self.content, self.out_dir, self.port, self.pyodide_source = Path(content), Path(out_dir), port, pyodide_source
        self.reloads = _Reloads()
        self.watched = self._watched()
        self.server: http.server.ThreadingHTTPServer | None = None
        self.before: dict[str, float] = {}
        self.builder = Builder()

    def _watched(self) -> list[Path]:
        """What a rebuild follows: the lessons, the tool's own files, and the site's
        figures folder (named in site.yml), words and site.yml itself."""
        config = config_path(self.content)
        return [
            self.content,
            TEMPLATES,
            STATIC,
            ENGINE,
            TOP,
            *authors.watched(self.content),
            config.parent / "locales",
            config,
        ]

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        if self.server is None:
            raise RuntimeError("the server has not started")
        return f"http://{host}:{self.server.server_address[1]}/"

    def start(self) -> bool:
        try:  # the port first: a busy one is said at once, not after a build
            self.server = http.server.ThreadingHTTPServer(
                (self.host, self.port), _handler(self.out_dir.resolve(), self.reloads)
            )
        except OSError as err:
            print(
                f"error: cannot serve on {self.host}:{self.port} ({err.strerror}); pick another port with --port",
                file=sys.stderr,
            )
            return False
        ok, text = _rebuild(self.builder, self.content, self.out_dir, self.pyodide_source)
        if not ok:  # served all the same: a page that says what is wrong, until a build succeeds
            self.reloads.bump("error", text)
            if not self.out_dir.exists():
                _error_page(self.out_dir, text)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.before = snapshot(self.watched)
        return True

    def check(self) -> bool:
        """Rebuild if a watched file changed; True when a rebuild succeeded and pages
        update: in place when only lessons or templates changed, anew otherwise."""
        now = snapshot(self.watched)
        if now == self.before:
            return False
        changed = {path for path in set(now) | set(self.before) if now.get(path) != self.before.get(path)}
        (edited,) = changed if len(changed) == 1 else ("",)
        lesson = edited if edited.endswith(".md") and edited in now and edited in self.before else None
        config = str(config_path(self.content)) in changed
        if config:  # it may name another figures folder, another language
            self.watched = self._watched()
            now = snapshot(self.watched)
        self.before = now
        if config or not all(
            _inside(path, (self.content, TEMPLATES, STATIC)) and not path.endswith(".py") for path in changed
        ):
            self.builder.restart()  # code, the site's words or its settings changed: imported anew
        lesson = lesson if lesson and _inside(lesson, (self.content,)) else None
        ok, text = _rebuild(self.builder, self.content, self.out_dir, self.pyodide_source, lesson)
        if not ok:
            self.reloads.bump("error", text)
            return False
        kind = (
            "content" if not config and all(_inside(path, (self.content, TEMPLATES)) for path in changed) else "reload"
        )
        self.reloads.bump(kind)
        return True

    def stop(self) -> None:
        self.builder.stop()
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        if self.private:
            shutil.rmtree(self.out_dir.parent, ignore_errors=True)


def _error_page(out_dir: Path, text: str) -> None:
    """The page served while no build has succeeded yet: the errors, and a script that
    loads the site once a build succeeds (the event stream of ``_Reloads``)."""
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / MARKER).write_text("")  # the next build may replace this folder
    (out_dir / "index.html").write_text(
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Build failed</title>\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n'
        '<body class="ex-build-failed"><h1>The site could not be built</h1>\n'
        "<p>Fix what is listed below and save: this page loads the site once it builds.</p>\n"
        f"<pre>{html.escape(text)}</pre>\n"
        "<script>new EventSource('__livereload').onmessage = function (event) {\n"
        "  const msg = JSON.parse(event.data);\n"
        "  if (msg.kind === 'error') document.querySelector('pre').textContent = msg.text;\n"
        "  else location.reload();\n"
        "};</script>\n</body></html>\n",
        encoding="utf-8",
    )


def serve(
    content: Path, *, port: int = 8000, pyodide_source: str | None = None, poll: float = 0.5, host: str = "127.0.0.1"
) -> int:
    def stopped(signum, frame):  # `kill` as Ctrl+C: the private build folder is removed either way
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stopped)  # before anything is built
    dev = DevServer(content, port=port, pyodide_source=pyodide_source, host=host)
    try:
        if not dev.start():
            return 1
        print(
            f"Serving {content}/ at {dev.url} (Ctrl+C to stop); `explorables build` writes the site to publish",
            flush=True,
        )
        while True:
            time.sleep(poll)
            dev.check()
    except KeyboardInterrupt:
        print("Stopped.")
    finally:
        dev.stop()
    return 0
