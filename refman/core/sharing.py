"""Naming a shared library and the password to reach it, for the window's Open Library
dialog (the store keeps the rules: :mod:`refman.store.shared`)."""

from __future__ import annotations

from refman.store.shared import address_parts, remember_password, shared_address

__all__ = ["address_parts", "remember_password", "shared_address"]
