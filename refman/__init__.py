"""refman: a desktop reference manager for researchers."""

__version__ = "0.1.0"
