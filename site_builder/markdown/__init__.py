"""Markdown to HTML: the parser (parser.py), the everyday Markdown plugins (authoring.py),
math, code highlighting, the table of contents, and the directives and roles (directives/)."""
