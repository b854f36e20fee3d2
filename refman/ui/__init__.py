"""The Qt front end: it presents the library and edits it through the library service."""
