"""File ▸ Open Library…: a library file, or a shared library on a PostgreSQL server.

The "Shared library (PostgreSQL)" tab asks for the server, the database and the user, and
whether to insist on TLS; a password typed here is used for this session and, when asked,
kept in the system keyring once the library opened with it — never in refman's settings
(libpq's ``~/.pgpass`` works too).
The dialog shows again what was typed last this session (never the password): a library that
could not be opened is mended, not typed again.
"""

from __future__ import annotations

from PySide6.QtCore import Slot
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from refman.core.sharing import address_parts, remember_password, shared_address

#: What was typed when a library was last asked for this session (never a password): shown
#: again, so that an address the library refused is mended rather than typed anew.
_LAST: dict[str, str | int | bool] = {}


class OpenLibraryDialog(QDialog):
    """Asks which library to open: a file (new or existing) or a shared library."""

    def __init__(self, parent: QWidget | None = None, tried: str | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("openLibraryDialog")
        self.setWindowTitle("Open Library")
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._file_tab(), "Library file")
        self.tabs.addTab(self._shared_tab(), "Shared library (PostgreSQL)")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.problem = QLabel(self)
        self.problem.setObjectName("openLibraryProblem")
        self.problem.setStyleSheet("color: palette(highlight);")
        self.problem.hide()
        #: The library named when the dialog was accepted.
        self.chosen: str | None = None
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self._show_last()
        if tried is not None and "://" in tried:
            self._show_tried(tried)

    def _show_last(self) -> None:
        """Fill in what was typed last time (this session)."""
        if not _LAST:
            return
        self.file_edit.setText(str(_LAST["file"]))
        self.host_edit.setText(str(_LAST["host"]))
        self.port_box.setValue(int(_LAST["port"]))
        self.database_edit.setText(str(_LAST["database"]))
        self.user_edit.setText(str(_LAST["user"]))
        self.tls_box.setChecked(bool(_LAST["tls"]))
        self.tabs.setCurrentIndex(int(_LAST["tab"]))

    def _show_tried(self, address: str) -> None:
        """Show the shared library that could not be opened, its password to type again
        (a password refused, or asked for)."""
        host, port, database, user, tls = address_parts(address)
        self.tabs.setCurrentIndex(1)
        self.host_edit.setText(host)
        self.port_box.setValue(port)
        self.database_edit.setText(database)
        self.user_edit.setText(user)
        self.tls_box.setChecked(tls)
        self.password_edit.setFocus()

    def _keep_typed(self) -> None:
        _LAST.update(
            file=self.file_edit.text(),
            host=self.host_edit.text(),
            port=self.port_box.value(),
            database=self.database_edit.text(),
            user=self.user_edit.text(),
            tls=self.tls_box.isChecked(),
            tab=self.tabs.currentIndex(),
        )

    def _file_tab(self) -> QWidget:
        tab = QWidget(self)
        self.file_edit = QLineEdit(tab)
        self.file_edit.setObjectName("libraryFileEdit")
        self.file_edit.setPlaceholderText("~/papers/library.sqlite (a new name creates a library)")
        browse = QPushButton("Browse…", tab)
        browse.clicked.connect(self.on_browse_clicked)
        row = QHBoxLayout(tab)
        row.addWidget(self.file_edit, 1)
        row.addWidget(browse)
        return tab

    def _shared_tab(self) -> QWidget:
        tab = QWidget(self)
        form = QFormLayout(tab)
        self.host_edit = QLineEdit(tab)
        self.host_edit.setObjectName("sharedHostEdit")
        self.host_edit.setPlaceholderText("db.example.org")
        self.port_box = QSpinBox(tab)
        self.port_box.setObjectName("sharedPortBox")
        self.port_box.setRange(1, 65535)
        self.port_box.setValue(5432)
        self.database_edit = QLineEdit(tab)
        self.database_edit.setObjectName("sharedDatabaseEdit")
        self.user_edit = QLineEdit(tab)
        self.user_edit.setObjectName("sharedUserEdit")
        self.tls_box = QCheckBox("Use TLS (refuse an unencrypted connection)", tab)
        self.tls_box.setObjectName("sharedTlsBox")
        self.tls_box.setChecked(True)
        self.password_edit = QLineEdit(tab)
        self.password_edit.setObjectName("sharedPasswordEdit")
        self.password_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_edit.setPlaceholderText("leave empty to use ~/.pgpass")
        self.keyring_box = QCheckBox("Remember it in the system keyring", tab)
        self.keyring_box.setObjectName("sharedKeyringBox")
        form.addRow("Server:", self.host_edit)
        form.addRow("Port:", self.port_box)
        form.addRow("Database:", self.database_edit)
        form.addRow("User:", self.user_edit)
        form.addRow("", self.tls_box)
        form.addRow("Password:", self.password_edit)
        form.addRow("", self.keyring_box)
        return tab

    @Slot()
    def on_browse_clicked(self) -> None:
        """Pick a library file (an existing one, or a new name)."""
        path, _ = QFileDialog.getSaveFileName(
            self,
            "Open or create a library",
            self.file_edit.text(),
            "refman libraries (*.sqlite);;All files (*)",
            options=QFileDialog.Option.DontConfirmOverwrite,
        )
        if path:
            self.file_edit.setText(path)

    def location(self) -> str | None:
        """The library asked for (a path or an address), or None with the problem shown."""
        if self.tabs.currentIndex() == 0:
            path = self.file_edit.text().strip()
            if not path:
                self._problem("Name a library file.")
            return path or None
        host, database = self.host_edit.text().strip(), self.database_edit.text().strip()
        user = self.user_edit.text().strip()
        if not (host and database and user):
            self._problem("Give the server, the database and the user.")
            return None
        return shared_address(
            host, self.port_box.value(), database, user, tls=self.tls_box.isChecked()
        )

    def _problem(self, text: str) -> None:
        self.problem.setText(text)
        self.problem.show()

    def accept(self) -> None:
        """Close once a library is named (a password typed is then used, and kept in the
        keyring when asked once the library opened with it)."""
        self.chosen = self.location()
        if self.chosen is None:
            return
        self._keep_typed()
        password = self.password_edit.text()
        if self.tabs.currentIndex() == 1 and password:
            remember_password(self.chosen, password, keep=self.keyring_box.isChecked())
        super().accept()


def ask_library(parent: QWidget | None, tried: str | None = None) -> str | None:
    """Ask which library to open (``tried``: a shared library that could not be opened,
    shown to mend); None when cancelled."""
    dialog = OpenLibraryDialog(parent, tried)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.chosen
