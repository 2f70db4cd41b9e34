"""The ``explorables`` command: build, serve."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from .errors import BuildError, PyodideError


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("content", nargs="?", default="content", help="folder of Markdown lessons (default: content)")
    parser.add_argument("--pyodide", metavar="PATH", default=None,
                        help="a local Pyodide copy (unpacked npm package folder or pyodide-314.0.7.tgz), "
                             "for machines with no network; also EXPLORABLES_PYODIDE")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="explorables", description="Build explorable explanations from Markdown.")
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="build the site into a folder (default _site)")
    _common(build)
    build.add_argument("-o", "--output", default="_site", help="output folder (default: _site)")
    build.add_argument("--live-reload", action="store_true", help=argparse.SUPPRESS)  # used by serve
    serve = commands.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on every change")
    _common(serve)
    serve.add_argument("-p", "--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1; 0.0.0.0 to preview on a phone on your network)")
    bundle = commands.add_parser("bundle", help="write an offline bundle: a zip whose index.html runs from disk")
    _common(bundle)
    bundle.add_argument("-o", "--output", default=None, help="the zip to write (default: SITE-SLUG.zip)")
    bundle.add_argument("--folder", default=None, help="write an unzipped folder instead of a zip")
    figures = commands.add_parser("figures", help="list the figure directives and their options")
    figures.add_argument("name", nargs="?", help="one figure, e.g. attention-row")
    args = parser.parse_args(argv)

    if args.command == "figures":
        return _list_figures(args.name)

    if args.command == "bundle":
        from .bundle import bundle_site
        started = time.perf_counter()
        try:
            result = bundle_site(Path(args.content), Path(args.output) if args.output else None,
                                 folder=Path(args.folder) if args.folder else None, pyodide_source=args.pyodide)
        except (BuildError, PyodideError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
        took = time.perf_counter() - started
        print(f"Bundled {result.pages} pages with {result.figures} figures into {result.path} "
              f"({result.bytes / 1e6:.1f} MB) in {took:.2f} s.")
        print("Unzip it anywhere and open index.html: no server and no network needed.")
        return 0

    if args.command == "build":
        from .build import build_site
        started = time.perf_counter()
        try:
            result = build_site(Path(args.content), Path(args.output), pyodide_source=args.pyodide,
                                dev=args.live_reload)
        except (BuildError, PyodideError) as err:
            print(f"error: {err}", file=sys.stderr)
            return 1
        took = time.perf_counter() - started
        print(f"Built {result.pages} pages with {result.figures} figures into {args.output}/ in {took:.2f} s.")
        print(f"View it with: explorables serve   (or open {args.output}/index.html through any web server)")
        return 0
    from .serve import serve as run_server
    return run_server(Path(args.content), port=args.port, pyodide_source=args.pyodide, host=args.host)


def _list_figures(name: str | None) -> int:
    """Print each figure directive with its options: what a lesson may write."""
    import difflib
    import textwrap

    from ..engine.figures import FIGURES

    names = sorted(FIGURES)
    if name is not None and name not in FIGURES:
        close = difflib.get_close_matches(name, names, n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        print(f"error: no figure named '{name}'{hint} (figures: {', '.join(names)})", file=sys.stderr)
        return 1
    for figure_name in [name] if name else names:
        model = FIGURES[figure_name]
        print(f":::{{{figure_name}}} ID")
        if model.summary:
            print(textwrap.fill(model.summary, 88, initial_indent="  ", subsequent_indent="  "))
        for option in model.options:
            default = option.default
            if isinstance(default, (list, tuple)):
                default = " ".join(default)
            elif isinstance(default, bool):
                default = str(default).lower()
            shown = f" (default: {default})" if default not in ("", None) else ""
            print(f"  :{option.name}: {option.expected()}{shown}")
            if option.doc:
                print(textwrap.fill(option.doc, 88, initial_indent="      ", subsequent_indent="      "))
        _print_prose_targets(model)
        print()
    return 0


def _print_prose_targets(model) -> None:
    """What prose may bind to (docs/prose.md): values, number controls, experiments."""
    import textwrap

    from ..engine.figures.kit.params import Slider

    values = getattr(model, "values", ())
    if values:
        print("  values, for {value}`ID.NAME`:")
        for value in values:
            print(textwrap.fill(f"{value.name} ({value.format}): {value.doc}", 88,
                                initial_indent="    ", subsequent_indent="        "))
    sliders = [p.name for p in getattr(model, "params", ()) if isinstance(p, Slider) and p.control]
    if sliders:
        print(f"  number controls, for {{adjust}}`ID.NAME`: {', '.join(sliders)}")
    experiments = getattr(model, "experiments", ())
    if experiments:
        print("  experiments, for {try}`ID.NAME`:")
        for experiment in experiments:
            print(f"    {experiment.name}: {experiment.label}")


if __name__ == "__main__":
    sys.exit(main())
