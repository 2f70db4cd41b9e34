"""The names of the teaching directives (``{question}``, ``{note}``, ...), which no figure
may take: the directives' plugin hands each to its module, and the loader of a site's own
figures refuses a figure of one of these names."""

from __future__ import annotations

from .admonition import KINDS

TEACHING = ("question", "details", "figure", "image", "exercise", *KINDS)
