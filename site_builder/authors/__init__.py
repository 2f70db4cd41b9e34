"""A site's own figures and exercise types: loading the modules of its figures folder
(loader.py) and checking what they declare (checks.py)."""
