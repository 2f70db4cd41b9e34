"""Markdown lessons with figure directives -> a static site (see build.build_site)."""

__version__ = "0.1.0"
