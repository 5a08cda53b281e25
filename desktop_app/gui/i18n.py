"""UI language: Qt translation files, chosen from the settings or the OS locale.

`resources/translations/acervo_pt_BR.qm` (compiled from the `.ts` with
pyside6-lrelease) translates our widgets; Qt's own `qtbase_pt_BR.qm` translates
standard buttons and dialogs. English is the source language; `acervo_en.qm` only
carries plural forms ("1 document" / "2 documents").
Switching installs new translators; Qt then sends `LanguageChange` to every widget,
and each panel re-runs its `retranslate()`.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from desktop_app.config.paths import resource

SUPPORTED = ("pt_BR", "en")


def resolve_language(setting: str, system_locale: str | None = None) -> str:
    """"auto" follows the OS: any Portuguese locale gets pt_BR, everything else English."""
    if setting in SUPPORTED:
        return setting
    name = system_locale or QLocale.system().name()
    return "pt_BR" if name.lower().startswith("pt") else "en"


class Translations:
    """Owns the installed translators so a language switch can remove them."""

    def __init__(self) -> None:
        self._installed: list[QTranslator] = []
        self.language = "en"

    def apply(self, setting: str, app: QCoreApplication | None = None) -> str:
        app = app or QCoreApplication.instance()
        if app is None:
            raise RuntimeError("create the QApplication before installing translations")
        language = resolve_language(setting)
        for translator in self._installed:
            app.removeTranslator(translator)
        self._installed = []
        ours = QTranslator(app)  # English has a file too: its plural forms ("1 document")
        if ours.load(f"acervo_{language}", str(resource("translations"))):
            app.installTranslator(ours)
            self._installed.append(ours)
        if language != "en":
            qt_own = QTranslator(app)
            qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
            if qt_own.load(f"qtbase_{language}", qt_dir):
                app.installTranslator(qt_own)
                self._installed.append(qt_own)
        QLocale.setDefault(QLocale(language))
        self.language = language
        return language
