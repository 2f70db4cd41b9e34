"""What a build writes: the runtime's files under content-hashed names (assets, scripts,
minify), the math font, images, the search index, figure stills, the print page, the
notices, an offline bundle's data, and the swap of the output folder (folder.py)."""
