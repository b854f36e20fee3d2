"""The leaf of refman: errors and text rules every layer uses. Imports nothing of refman."""
