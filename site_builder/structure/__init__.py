"""What a site is made of, as read from its folder: site.yml (config), the sections and
their pages, links between them, the site's language, the author's folders, metadata,
and the rules for reading an author's files (files.py)."""
