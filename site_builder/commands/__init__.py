"""The ``explorables`` commands: the command line (cli), ``new``, ``build`` and its
pipeline, ``serve`` with its kept build process (warm), ``bundle`` and ``figures``."""
