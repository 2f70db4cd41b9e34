"""The ``explorables`` command: new, build, serve, figures, --version."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
import time
import warnings
from pathlib import Path

from ... import __version__
from ..errors import BuildError, PyodideError
from . import github

# Each command imports what it needs when it runs, so that `explorables --version` and
# `--help` answer at once (0.1 s rather than 0.4 s). No loop hides there: of the
# builder's modules, only warm_main.py imports this one. (Hence `noqa: PLC0415` on them.)

# the author guide: docs/ beside site_builder/ in the repository, explorables/docs once installed
GUIDE = Path(__file__).resolve().parents[2] / "docs"


def _common(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """A command that reads a site: its content folder and a local Pyodide."""
    parser.add_argument("content", nargs="?", default="content", help="folder of Markdown lessons (default: content)")
    parser.add_argument(
        "--pyodide",
        metavar="PATH",
        default=None,
        help="a local Pyodide copy (unpacked npm package folder or pyodide-314.0.7.tgz), "
        "for machines with no network; also EXPLORABLES_PYODIDE",
    )
    return parser


def _percent(text: str) -> int:
    """--mastery-score's value: a whole number from 0 to 100."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 100:
        raise argparse.ArgumentTypeError(f"'{text}' is no percentage: give a whole number from 0 to 100, e.g. 80")
    return value


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings (a renamed option, say) as one plain line each, not a Python trace."""
    print(f"warning: {message}", file=file or sys.stderr)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="explorables", description="Build explorable explanations from Markdown.")
    parser.add_argument("--version", action="version", version=f"explorables {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    new = commands.add_parser("new", help="start a site: lessons, your own figure, a GitHub Pages workflow")
    new.add_argument("folder", help="the new site's folder, e.g. my-lessons")
    new.add_argument("--title", default=None, help="the site's title (default: from the folder's name)")
    new.add_argument(
        "--languages",
        default=None,
        metavar="LANG,LANG",
        help="a site in several languages, the default first, e.g. --languages en,de",
    )
    new.add_argument(
        "--force",
        action="store_true",
        help="write into a folder that is not empty (existing files are never overwritten)",
    )
    build = _common(commands.add_parser("build", help="build the site into a folder (default _site)"))
    build.add_argument("-o", "--output", default="_site", help="output folder (default: _site)")
    build.add_argument(
        "--url",
        default=None,
        metavar="URL",
        help="the address the site is published at (instead of site.yml's url), e.g. https://example.org/attention/",
    )
    build.add_argument(
        "--strict",
        action="store_true",
        help="a site in several languages: a lesson missing in one of them is an error, not a warning",
    )
    build.add_argument("--live-reload", action="store_true", help=argparse.SUPPRESS)  # used by serve
    serve = _common(commands.add_parser("serve", help="build, serve on 127.0.0.1 and rebuild on every change"))
    serve.add_argument("-p", "--port", type=int, default=8000, help="port (default: 8000)")
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; 0.0.0.0 to preview on a phone on your network)",
    )
    bundle = _common(
        commands.add_parser("bundle", help="write an offline bundle: a zip whose index.html runs from disk")
    )
    written = bundle.add_mutually_exclusive_group()  # a zip or a folder, not both
    written.add_argument("-o", "--output", default=None, help="the zip to write (default: SITE-SLUG.zip)")
    written.add_argument("--folder", default=None, help="write an unzipped folder instead of a zip")
    bundle.add_argument(
        "--scorm",
        action="store_true",
        help="write a SCORM 1.2 package for a learning management system (Moodle, Canvas, ...): "
        "it reports each learner's progress and score (default: SITE-SLUG-scorm.zip)",
    )
    bundle.add_argument(
        "--mastery-score",
        type=_percent,
        default=None,
        metavar="PERCENT",
        help="with --scorm: the share of the exercises a learner must solve to pass (0 to 100); "
        'the LMS is then told "passed" rather than "completed"',
    )
    bundle.add_argument(
        "--language",
        action="append",
        default=None,
        metavar="LANG",
        help="a site in several languages: carry this one beside the default (again, or LANG,LANG, for more; "
        "default: every one)",
    )
    figures = commands.add_parser("figures", help="list the figures, their options, values and experiments")
    figures.add_argument("name", nargs="?", help="one figure, e.g. attention-row")
    figures.add_argument(
        "--content",
        default="content",
        help="the site's content folder: its own figures are listed too (default: content)",
    )
    shape = figures.add_mutually_exclusive_group()
    shape.add_argument("--json", action="store_true", help="print the figures' manifests as JSON")
    shape.add_argument(
        "--markdown",
        action="store_true",
        help="print the figure reference of the guide (explorables figures --markdown > docs/figures.md)",
    )
    words = commands.add_parser(
        "words", help="print the tool's words and the site's own in a language, as a catalogue to translate"
    )
    words.add_argument("language", nargs="?", default="en", help="an HTML lang code, e.g. de (default: en)")
    words.add_argument(
        "--content",
        default="content",
        help="the site's content folder: its own words (keys own.*) are listed too (default: content)",
    )
    args = parser.parse_args(argv)

    with warnings.catch_warnings():
        warnings.simplefilter("default", DeprecationWarning)
        warnings.showwarning = _show_warning
        try:
            return _run(args)
        except BrokenPipeError:  # `explorables words de | head`: the reader has read enough
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
            return 1


def _run(args: argparse.Namespace) -> int:
    if args.command == "new":
        return _new(args)
    if args.command == "figures":
        return _figures(args)
    if args.command == "words":
        return _words(args)
    if args.command == "bundle":
        from .bundle import bundle_site  # noqa: PLC0415

        if args.mastery_score is not None and not args.scorm:
            print("error: --mastery-score is for a SCORM package: add --scorm", file=sys.stderr)
            return 2
        started = time.perf_counter()
        try:
            result = bundle_site(
                Path(args.content),
                Path(args.output) if args.output else None,
                folder=Path(args.folder) if args.folder else None,
                pyodide_source=args.pyodide,
                scorm=args.scorm,
                mastery_score=args.mastery_score,
                languages=_languages(args.language),
            )
        except (BuildError, PyodideError) as err:
            print(f"error: {err}", file=sys.stderr)
            github.failed(err, _site_root(args))
            return 1
        took = time.perf_counter() - started
        print(
            f"Bundled {result.pages} pages with {result.figures} figures into {result.path} "
            f"({result.bytes / 1e6:.1f} MB) in {took:.2f} s."
        )
        if args.scorm:
            print(
                "Upload it to your learning management system as a SCORM package (in Moodle: Add an activity "
                "or resource > SCORM package).\nUnzipped, its index.html also opens from disk, with no LMS."
            )
        elif args.folder:
            print("Copy the folder anywhere and open its index.html: no server and no network needed.")
        else:
            print("Unzip it anywhere and open index.html: no server and no network needed.")
        return 0

    if args.command == "build":
        from .build import build_site  # noqa: PLC0415

        started = time.perf_counter()
        try:
            built = build_site(
                Path(args.content),
                Path(args.output),
                pyodide_source=args.pyodide,
                dev=args.live_reload,
                url=args.url,
                strict=args.strict,
            )
        except (BuildError, PyodideError) as err:
            print(f"error: {err}", file=sys.stderr)
            github.failed(err, _site_root(args))
            return getattr(err, "exit_code", 1)
        for warning in built.warnings:
            print(f"warning: {warning}", file=sys.stderr)
        github.announce("warning", built.warnings, _site_root(args))
        took = time.perf_counter() - started
        print(f"Built {built.pages} pages with {built.figures} figures into {args.output}/ in {took:.2f} s.")
        print(f"View it with: explorables serve   (or open {args.output}/index.html through any web server)")
        return 0
    from .serve import serve as run_server  # noqa: PLC0415

    return run_server(Path(args.content), port=args.port, pyodide_source=args.pyodide, host=args.host)


def _site_root(args: argparse.Namespace) -> Path:
    """The site's folder, which the build's messages name their files from."""
    return Path(args.content).resolve().parent


def _languages(given: list[str | None] | None) -> tuple[str, ...] | None:
    """``--language de --language he`` or ``--languages de,he`` as ("de", "he"); None if not given."""
    codes = tuple(code.strip() for text in given or [] if text for code in text.split(",") if code.strip())
    return codes or None


def _new(args: argparse.Namespace) -> int:
    from .new import NewSiteError, new_site  # noqa: PLC0415

    try:
        made = new_site(Path(args.folder), force=args.force, title=args.title, languages=_languages([args.languages]))
    except NewSiteError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1
    for name in made.written:
        print(f"  wrote {args.folder}/{name}")
    for name in made.kept:
        print(f"  kept  {args.folder}/{name} (yours: not overwritten)")
    print(
        f"\nA new site is in {args.folder}/. See it live, rebuilt on every change:\n\n"
        f"    cd {shlex.quote(args.folder)} && explorables serve\n\n"
        f"Publish it on GitHub Pages: push it to a repository and set Settings > Pages > Source to\n"
        f'"GitHub Actions"; .github/workflows/pages.yml builds and deploys the default branch.\n\n'
        f"The author guide came with Explorables: start with\n    {GUIDE / 'your-own-site.md'}\n"
        f"then writing-a-figure.md, prose.md and figures.md beside it."
    )
    return 0


def _figures(args: argparse.Namespace) -> int:
    """Print the figures' manifests: what a lesson may write and what each figure shows,
    in the site's language."""
    from ...engine import locale  # noqa: PLC0415

    try:
        return _print_figures(args)
    finally:
        locale.own_words({})
        locale.use("en")


def _print_figures(args: argparse.Namespace) -> int:
    from ...engine import locale  # noqa: PLC0415
    from ...engine.exercises import EXERCISES  # noqa: PLC0415
    from ...engine.figures import FIGURES  # noqa: PLC0415
    from ..authors import loader as authors  # noqa: PLC0415
    from ..structure.config import config_path, load_config  # noqa: PLC0415
    from ..structure.language import site_words  # noqa: PLC0415
    from . import manifest  # noqa: PLC0415

    content = Path(args.content)
    if content.is_dir():  # a site: its own figures are listed beside the built-ins
        config, errors = load_config(config_path(content))
        words = site_words(config.language, config_path(content))
        errors += words.errors
        locale.own_words(words.own)
        locale.use(config.language, words.messages)
        own = authors.load(content.resolve().parent / config.figures, words)
        errors += own.errors
        if errors:
            listed = BuildError(
                errors,
                root=content.resolve().parent,
                last="nothing is listed until the site loads (this command writes nothing).",
            )
            print(f"error: {listed}", file=sys.stderr)
            return 1
    names = sorted(FIGURES)
    if args.name is not None and args.name in EXERCISES and not (args.json or args.markdown):
        print(
            f"'{args.name}' is an exercise type, not a figure: a lesson writes it as\n\n"
            f":::{{exercise}} {args.name}\n:seed: 1\n:::\n\n(answers: {EXERCISES[args.name].kind})"
        )
        return 0
    if args.name is not None and args.name not in FIGURES:
        from ...engine.figures.base import closest  # noqa: PLC0415

        close = closest(args.name, names)
        hint = f"; did you mean '{close}'?" if close else ""
        print(f"error: no figure named '{args.name}'{hint} (figures: {', '.join(names)})", file=sys.stderr)
        return 1
    models = [FIGURES[n] for n in ([args.name] if args.name else names)]
    if args.json:
        data = [model.manifest() for model in models]
        print(
            json.dumps(
                data[0] if args.name else {"explorables": __version__, "figures": data},
                indent=2,
                ensure_ascii=False,
                default=str,
            )
        )
    elif args.markdown:
        print(manifest.markdown(models), end="")
    else:
        print(manifest.text(models), end="")
        if args.name is None:  # what {exercise} takes, beside the figures
            print(
                "\nExercise types, for :::{exercise} TYPE: "
                + ", ".join(f"{name} ({EXERCISES[name].kind})" for name in sorted(EXERCISES))
            )
    return 0


def _words(args: argparse.Namespace) -> int:
    """Print every key of the tool's catalogue with its text in ``language`` (English
    where that language has none): the file to translate into locales/LANG.json. In a
    site, its own words (``own.*``) follow, and the list of where each one's text comes
    from goes to stderr."""
    from ...engine import locale  # noqa: PLC0415
    from ..structure.config import config_path  # noqa: PLC0415
    from ..structure.language import is_language_tag, site_words, suggest_language  # noqa: PLC0415

    if not is_language_tag(args.language):
        meant = suggest_language(args.language)
        print(
            f"error: '{args.language}' is not a language code; "
            + (f"did you mean '{meant}'? " if meant else "")
            + "give an HTML lang code, e.g. explorables words de",
            file=sys.stderr,
        )
        return 2
    messages, missing = locale.resolve(args.language)
    own, sources = {}, {}
    content = Path(args.content)
    if content.is_dir():
        site_yml = config_path(content)
        words = site_words(args.language, site_yml)
        if words.errors:
            print(f"error: {BuildError(words.errors, root=site_yml.parent)}", file=sys.stderr)
            return 1
        own = dict(words.own)
        sources = {
            key: f"{path.relative_to(site_yml.parent).as_posix()}:{line}" for key, (path, line) in words.sources.items()
        }
    print(json.dumps({**messages, **own}, indent=1, ensure_ascii=False))
    if missing:
        print(
            f"{len(missing)} of {len(messages)} keys have no '{args.language}' text yet (shown in English)",
            file=sys.stderr,
        )
    if own:
        base = locale.base_language(args.language)
        print(f"{len(own)} words of the site's own (keys {locale.OWN}*), from:", file=sys.stderr)
        width = max(map(len, own))
        for key in own:
            stays = (
                ""
                if sources[key].startswith(f"locales/{base}.json:")
                else f"  (English: no '{args.language}' text yet)"
            )
            print(f"  {key:<{width}}  {sources[key]}{stays}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
