"""Directives (``:::{name}`` colon fences) and roles (``{name}`text```): plugin.py finds
them and hands each to its module."""
