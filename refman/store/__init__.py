"""The SQLite store: SQLAlchemy models, opening and migrating a library, full-text search."""
