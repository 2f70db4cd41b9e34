"""Explorables as a user gets it: a wheel, installed into a fresh venv outside the
checkout, starting a site with ``explorables new`` and building it with
``explorables build``; the pages go live in Chromium.

The wheel is built from a copy of the tracked files (so nothing untracked or stale in the
checkout can slip in); pip fetches the dependencies (its cache makes that quick).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT, Guard, serve_folder
from browser.helpers import open_figure

from explorables import __version__
from explorables.site_builder.commands.new import BUILD_COMMAND

FIXTURES = ROOT / "tests" / "fixtures" / "figures"


def _run(args, cwd: Path, env: dict | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    run = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert run.returncode == 0, f"{' '.join(map(str, args))} failed:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}"
    return run


def _tracked_copy(dest: Path) -> Path:
    """The checkout's files as git knows them (committed or not), without build leftovers;
    outside a git checkout, the tree without the usual leftovers."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        skip = shutil.ignore_patterns(".git", ".venv", "build", "dist", "_site", "node_modules", "__pycache__",
                                      "*.egg-info", "tests", "benchmarks")
        shutil.copytree(ROOT, dest, ignore=skip, dirs_exist_ok=True)
        return dest
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not name.startswith(("tests/", "benchmarks/")):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    return dest


def _isolation() -> list[str]:
    """Build with the test environment's setuptools when it can make wheels by itself
    (70.1 and newer: a test extra), which saves pip's isolated build environment."""
    from importlib.metadata import PackageNotFoundError, version

    from packaging.version import Version

    try:
        return ["--no-build-isolation"] if Version(version("setuptools")) >= Version("70.1") else []
    except PackageNotFoundError:
        return []


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = _tracked_copy(tmp_path_factory.mktemp("source"))
    dist = tmp_path_factory.mktemp("dist")
    _run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(dist), *_isolation()],
         cwd=dist)
    (found,) = dist.glob("explorables-*.whl")
    return found


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A fresh venv (no pip of its own: the test's pip installs into it) holding the wheel.
    Installed without compiling every module ahead (``--no-compile``): Python compiles
    what the test imports as it imports it, and compiling all of Pygments and fontTools
    ahead was most of the install's time."""
    where = tmp_path_factory.mktemp("venv")
    _run([sys.executable, "-m", "venv", "--without-pip", str(where)], cwd=where)
    python = where / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile", str(wheel)],
         cwd=where)
    return where / "bin"


def _user_env(bin_dir: Path) -> dict:
    """The environment of a user whose PATH starts with the fresh venv."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = os.pathsep.join([str(bin_dir), env.get("PATH", "")])
    return env


def test_the_wheel_carries_the_runtime_templates_fonts_engine_kit_and_starter(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("explorables/__init__.py", "explorables/figures.py", "explorables/engine/runtime.py",
                   "explorables/engine/figures/kit/figure.py", "explorables/site_builder/templates/base.html",
                   "explorables/static/js/worker.js", "explorables/static/js/marks/point.js",
                   "explorables/static/css/page.css", "explorables/static/fonts/noto-sans-math.woff2",
                   "explorables/site_builder/starter/figures/softmax_bars.py",
                   "explorables/site_builder/starter/pages.yml", "explorables/site_builder/starter/gitignore",
                   "explorables/site_builder/engine-bytecode.zip",  # the engine compiled for Pyodide
                   "explorables/site_builder/stdlib-bytecode.zip",  # and the start-up standard library
                   "explorables/docs/your-own-site.md", "explorables/docs/writing-a-figure.md",  # the guide
                   "explorables/site_builder/runtime-minified.json"):  # the runtime minified ahead
        assert needed in names, f"the wheel lacks {needed}"
    tops = {n.split("/")[0] for n in names}
    assert tops == {"explorables", f"explorables-{__version__}.dist-info"}  # no generic top-level names
    print(f"\nwheel: {wheel.name}, {wheel.stat().st_size / 1024:.0f} KiB")


@pytest.mark.browser
def test_new_and_build_outside_the_checkout_go_live(venv, tmp_path, page):
    """`pip install` (a wheel), `explorables new`, `explorables build`: every page says
    its version, and the built-in figure, the author's figure and an author's figure
    that fails at run time all behave in Chromium."""
    env = _user_env(venv)
    where = _run([venv / "python", "-c", "import explorables, sys; print(explorables.__file__)"], cwd=tmp_path, env=env)
    assert where.stdout.strip().startswith(str(venv.parent)) and str(ROOT) not in where.stdout
    assert _run([venv / "explorables", "--version"], cwd=tmp_path, env=env).stdout.strip() == f"explorables {__version__}"

    made = _run([venv / "explorables", "new", "my-lessons"], cwd=tmp_path, env=env)
    guide = Path(made.stdout.split("start with\n", 1)[1].split("\n", 1)[0].strip())
    assert guide.name == "your-own-site.md" and str(venv.parent) in str(guide)  # installed, not the checkout's
    assert "# " in guide.read_text(encoding="utf-8")[:200]
    site = tmp_path / "my-lessons"
    shutil.copy(FIXTURES / "fragile.py", site / "figures" / "fragile.py")  # an author's figure with a bug
    with open(site / "content" / "02-softmax-of-three.md", "a") as lesson:  # one page, one Python start
        lesson.write("\n:::{fragile} f\n:::\n")
    built = _run(BUILD_COMMAND.split(), cwd=site, env=env)  # the command the Pages workflow runs
    assert "Built 3 pages with 3 figures" in built.stdout

    out = site / "_site"
    for html in out.glob("*.html"):
        assert f'<meta name="generator" content="Explorables {__version__}">' in html.read_text(), html.name

    server = serve_folder(out)
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    guard = Guard(page, base)
    try:
        open_figure(page, base + "one-query-row.html", "explorer")
        before = page.evaluate("() => window.explorables.figures.explorer.values")
        after = page.evaluate("() => window.explorables.figures.explorer.update({temperature: 0.2})")
        assert after != before

        open_figure(page, base + "softmax-of-three.html", "three")
        # the live lesson fetches its Next page ahead (instant navigation); opening that page
        # by address may cut the fetch off, a request of the page left behind
        guard.failed[:] = [f for f in guard.failed if f != base + "softmax-of-three.html (net::ERR_ABORTED)"]
        assert page.evaluate("() => window.explorables.figures.three.values.top") == pytest.approx(0.6652, abs=1e-4)
        after = page.evaluate("() => window.explorables.figures.three.update({a: -2})")
        assert after["top"] == pytest.approx(0.7054, abs=1e-4) and after["weights"][1] > after["weights"][0]

        guard.allowed.append("a above 4 has no inverse here")  # the figure's own report of its bug
        figure = page.locator("figure#f")
        failed = page.evaluate("""() => window.explorables.figures.f.update({a: 4.5}).then(
                                     () => 'resolved', err => err.message)""")
        assert failed == "internal error in fragile: ZeroDivisionError: a above 4 has no inverse here (fragile.py:15)"
        # the reader reads plain words; the promise and the console keep the author's detail
        assert figure.locator(".ex-error").inner_text() == "This figure could not compute that; it kept its last state."
        assert page.evaluate("() => window.explorables.figures.f.state.a") == 1.0  # the last good state
        values = page.evaluate("() => window.explorables.figures.f.update({a: 2})")
        assert values["inverse"] == 0.5 and figure.locator(".ex-error").is_hidden()
        guard.check()
    finally:
        server.shutdown()


def test_the_version_is_in_the_cli(capsys):
    from explorables.site_builder.commands.cli import main

    with pytest.raises(SystemExit) as info:
        main(["--version"])
    assert info.value.code == 0
    assert capsys.readouterr().out == f"explorables {__version__}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)


# Pyodide without Node: the registry tarball by urllib, npm pack only as a fallback.

def _fake_tarball(folder: Path, content: bytes = b"fake pyodide") -> tuple[Path, str]:
    """A tarball shaped like the npm package, and its npm-style integrity string."""
    import base64
    import hashlib
    import io
    import tarfile

    from explorables.site_builder.pyodide import release as pyodide

    tgz = folder / "pyodide.tgz"
    with tarfile.open(tgz, "w:gz") as archive:
        for name in pyodide.CORE_FILES:
            info = tarfile.TarInfo(f"package/{name}")
            data = content + name.encode()
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return tgz, "sha512-" + base64.b64encode(hashlib.sha512(tgz.read_bytes()).digest()).decode()


@pytest.fixture
def fake_registry(tmp_path, monkeypatch):
    """A local stand-in for the npm registry (a file: URL) and an empty cache; core-file
    hashes are those of the fake files, and npm is recorded instead of run."""
    from explorables.site_builder.pyodide import release as pyodide

    tgz, integrity = _fake_tarball(tmp_path)
    monkeypatch.delenv(pyodide.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(pyodide, "TARBALL_URL", tgz.as_uri())
    monkeypatch.setattr(pyodide, "INTEGRITY", integrity)
    import hashlib
    monkeypatch.setattr(pyodide, "CORE_SHA256", {n: hashlib.sha256(b"fake pyodide" + n.encode()).hexdigest()
                                                  for n in pyodide.CORE_FILES})
    calls = []
    monkeypatch.setattr(pyodide, "_npm_pack", lambda: calls.append("npm") or pyodide._unpack(tgz, pyodide.cache_dir()))
    return pyodide, tgz, calls


def test_pyodide_comes_from_the_registry_tarball_without_npm(fake_registry):
    pyodide, tgz, calls = fake_registry
    folder = pyodide.ensure_pyodide()
    assert folder == pyodide.cache_dir() and calls == []  # no npm involved
    assert (folder / "pyodide.mjs").read_bytes() == b"fake pyodidepyodide.mjs"
    tgz.unlink()
    assert pyodide.ensure_pyodide() == folder  # then the cache, with no download


def test_a_tampered_download_is_refused_and_npm_is_tried_next(fake_registry, tmp_path, monkeypatch):
    pyodide, tgz, calls = fake_registry
    tampered, _ = _fake_tarball(tmp_path / "..", content=b"tampered")
    monkeypatch.setattr(pyodide, "TARBALL_URL", tampered.resolve().as_uri())
    assert pyodide.ensure_pyodide() == pyodide.cache_dir()
    assert calls == ["npm"]  # the registry's file failed its hash; npm pack gave the right one


def test_when_every_source_fails_each_says_why(fake_registry, tmp_path, monkeypatch):
    pyodide, tgz, calls = fake_registry
    monkeypatch.setattr(pyodide, "TARBALL_URL", (tmp_path / "missing.tgz").as_uri())
    monkeypatch.setattr(pyodide, "_npm_pack", lambda: (_ for _ in ()).throw(
        pyodide.PyodideError("npm is not installed, so `npm pack` could not fetch it either")))
    with pytest.raises(pyodide.PyodideError) as info:
        pyodide.ensure_pyodide()
    text = str(info.value)
    assert text.startswith(f"Pyodide {pyodide.VERSION} is not in the cache ({pyodide.cache_dir()}) and could not "
                           f"be fetched:\n  - downloading {(tmp_path / 'missing.tgz').as_uri()} failed: ")
    assert "\n  - npm is not installed, so `npm pack` could not fetch it either\n" in text
    assert f"explorables build --pyodide pyodide-{pyodide.VERSION}.tgz" in text
    assert not pyodide.cache_dir().exists() or not any(pyodide.cache_dir().iterdir())


def test_the_pinned_url_is_the_registry_tarball():
    from explorables.site_builder.pyodide import release as pyodide

    assert pyodide.TARBALL_URL == "https://registry.npmjs.org/pyodide/-/pyodide-314.0.7.tgz"
