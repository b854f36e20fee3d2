"""The dialog shown when refman hits a bug: what to do, and details to copy."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMessageBox

from refman import paths


def show_crash(details: str) -> None:
    """Tell the user something went wrong, where the log is, and offer the details."""
    if QApplication.instance() is None:
        return
    box = QMessageBox()
    box.setIcon(QMessageBox.Icon.Critical)
    box.setWindowTitle("refman — unexpected error")
    box.setText(
        "Something went wrong inside refman. Your library is safe: every change is saved "
        "in a single step, so an interrupted one leaves nothing half-done."
    )
    box.setInformativeText(
        f"The details are in the log file in {paths.log_dir()}. "
        "Please include them when you report the problem."
    )
    box.setDetailedText(details)
    box.setObjectName("crashDialog")
    box.exec()
