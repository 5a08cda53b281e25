"""`make run` checks the system libraries of Qt's xcb plugin and prints the apt-get line."""

from __future__ import annotations

import subprocess
import sys

from desktop_app.gui import system_libs

# `ldd libqxcb.so` on a fresh Debian 12 with only libxcb1 and libx11 installed (abridged)
FRESH_DEBIAN_LDD = """\
\tlinux-vdso.so.1 (0x00007ffd6b5f2000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/lib/libQt6XcbQpa.so.6 (0x00007f3a1c519000)
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-cursor.so.0 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibxcb.so.1 => /lib/x86_64-linux-gnu/libxcb.so.1 (0x00007f3a1b14f000)
\tlibglib-2.0.so.0 => not found
\tlibEGL.so.1 => not found
"""


def test_missing_libraries_become_one_apt_get_line() -> None:
    missing = system_libs.missing_from_ldd(FRESH_DEBIAN_LDD)
    assert missing == ["libxkbcommon-x11.so.0", "libxcb-cursor.so.0", "libxcb-icccm.so.4",
                       "libxcb-keysyms.so.1", "libglib-2.0.so.0", "libEGL.so.1"]
    assert system_libs.install_command(missing) == (
        "sudo apt-get install -y libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 "
        "libxcb-keysyms1 libglib2.0-0 libegl1")
    text = system_libs.report(missing)
    assert "libxcb-icccm.so.4" in text and "sudo apt-get install -y" in text


def test_debian_names_follow_the_soname_rule() -> None:
    assert system_libs.debian_package("libxcb-render-util.so.0") == "libxcb-render-util0"
    assert system_libs.debian_package("libX11-xcb.so.1") == "libx11-xcb1"
    assert system_libs.debian_package("libdbus-1.so.3") == "libdbus-1-3"


def test_the_check_passes_on_this_machine_and_finds_the_real_plugin() -> None:
    plugin = system_libs.xcb_plugin()
    assert plugin is not None and plugin.name == "libqxcb.so"
    assert system_libs.missing_libraries(plugin) == []  # installed here (docs/install.md lists them)
    done = subprocess.run([sys.executable, "-m", "desktop_app.gui.system_libs"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == ""
