"""Explorables: Markdown lessons with live figures, built into a static site.

The distribution installs one import name, ``explorables``:

- ``explorables.engine``: the pure-Python attention maths and the figure models;
- ``explorables.figures``: the public figure kit, what built-in and authors' figures use;
- ``explorables.site_builder``: Markdown to HTML, the dev server, bundles and the CLI;
- ``explorables/static``: the browser runtime shipped with every site (package data).
"""

__version__ = "0.2.0"
