"""What every built site ships that is not the author's: each bundled component, its
licence and where its source is. The build writes these into notices.html, linked from
every page's footer, for served sites and offline bundles alike."""
from __future__ import annotations

from dataclasses import dataclass

from . import pyodide


@dataclass(frozen=True)
class Component:
    name: str  # what it is called
    version: str
    role: str  # what it does in the site
    license: str  # SPDX identifier
    source: str  # where its source code is
    note: str = ""  # what the licence asks of us, in a sentence
    license_file: str = ""  # the licence's text among the site's assets (its plain name)


COMPONENTS = (
    Component("Pyodide", pyodide.VERSION, "Python in the browser, which runs the figures' engine", "MPL-2.0",
              "https://github.com/pyodide/pyodide",
              "The files are shipped unmodified; the Mozilla Public License 2.0 is at https://mozilla.org/MPL/2.0/."),
    Component("CPython standard library", "3.14 (inside Pyodide)", "Python's standard library, in python_stdlib.zip",
              "PSF-2.0", "https://github.com/python/cpython"),
    Component("Noto Sans Math", "fontsource 5.3.0", "the font that draws formulas", "OFL-1.1",
              "https://github.com/notofonts/math",
              "Subset to the glyphs this site's formulas use",
              license_file="fonts/LICENSE-noto-sans-math.txt"),
    Component("Explorables", "", "the site generator, its browser runtime and the attention engine", "MIT",
              "https://pypi.org/project/explorables/"),
)
