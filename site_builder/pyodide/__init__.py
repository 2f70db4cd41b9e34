"""Python in the reader's browser: the Pyodide release (obtained, verified, cached and
vendored), the engine archive, the modules compiled ahead for it (engine and standard
library) and the optional memory snapshot."""
