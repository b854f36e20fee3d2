"""The import wizard: paste, open or drop author pages, review, tag and import them."""

from refman.ui.wizard.wizard import ImportWizard, PageId

__all__ = ["ImportWizard", "PageId"]
