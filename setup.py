"""The package list, found rather than typed: every package under engine/ and
site_builder/ installs under explorables.* (pyproject.toml maps the folders), so a new
figure package is shipped without editing a list. Everything else is in pyproject.toml."""

from setuptools import find_packages, setup

FOLDERS = {"engine": "explorables.engine", "site_builder": "explorables.site_builder"}
packages = ["explorables", "explorables.static", "explorables.docs"]
for folder, name in FOLDERS.items():
    packages += [name] + [f"{name}.{sub}" for sub in find_packages(where=folder)]

setup(packages=packages)
