"""What every built site ships that is not the author's: each bundled component, its
licence and where its source is. The build writes these into notices.html, linked from
every page's footer, for served sites and offline bundles alike. What a component does
and what its licence asks are words of the site's language: catalogue keys
(``page.notices_*``, engine/locales/)."""

from __future__ import annotations

from dataclasses import dataclass

from ..pyodide import release as pyodide


@dataclass(frozen=True)
class Component:
    name: str  # what it is called
    version: str
    role: str  # the key of what it does in the site
    license: str  # SPDX identifier
    source: str  # where its source code is
    note: str = ""  # the key of what the licence asks of us, in a sentence
    license_file: str = ""  # the licence's text among the site's assets (its plain name)
    version_words: str = ""  # the key that words the version ("{version} (inside Pyodide)"), if any


COMPONENTS = (
    Component(
        "Pyodide",
        pyodide.VERSION,
        "page.notices_pyodide",
        "MPL-2.0",
        "https://github.com/pyodide/pyodide",
        "page.notices_pyodide_note",
    ),
    Component(
        "CPython standard library",
        "3.14",
        "page.notices_stdlib",
        "PSF-2.0",
        "https://github.com/python/cpython",
        version_words="page.notices_inside_pyodide",
    ),
    Component(
        "Noto Sans Math",
        "fontsource 5.3.0",
        "page.notices_math_font",
        "OFL-1.1",
        "https://github.com/notofonts/math",
        "page.notices_math_font_note",
        license_file="fonts/LICENSE-noto-sans-math.txt",
    ),
    Component("Explorables", "", "page.notices_explorables", "MIT", "https://pypi.org/project/explorables/"),
)
