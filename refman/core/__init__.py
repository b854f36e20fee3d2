"""The Qt-free heart of refman: the library service, its values and text helpers."""
