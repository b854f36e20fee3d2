"""Data files shipped inside the refman package (icons, arXiv category names)."""
