"""The system libraries Qt's X11 (xcb) platform plugin needs, and the apt-get line for them.

PySide6's wheels bring Qt itself but not the X11/xcb libraries its `libqxcb.so` plugin
links against. On a fresh Debian/Ubuntu some are missing (typically libxcb-icccm4,
libxcb-keysyms1, libxcb-cursor0) and Qt aborts with "Could not load the Qt platform
plugin xcb". `ldd` on the plugin lists every library it needs, transitively; the ones
"not found" are mapped to their Debian package names.

    python -m desktop_app.gui.system_libs     # `make run` calls this; exit 1 when missing

No Qt is imported here (the plugin file is found through the package spec), so this runs
before any Qt library is loaded.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

# sonames whose Debian package name does not follow the usual rule
_PACKAGE_OVERRIDES = {
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libfreetype.so.6": "libfreetype6",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libxcb-util.so.1": "libxcb-util1",
    "libz.so.1": "zlib1g",
    "libstdc++.so.6": "libstdc++6",
    "libgcc_s.so.1": "libgcc-s1",
}
_NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found", re.MULTILINE)


def debian_package(soname: str) -> str:
    """Debian's naming rule for a shared library package: `libfoo-bar.so.4` → `libfoo-bar4`,
    with a hyphen when the name already ends in a digit (`libxkbcommon-x11.so.0` →
    `libxkbcommon-x11-0`); lower case."""
    if soname in _PACKAGE_OVERRIDES:
        return _PACKAGE_OVERRIDES[soname]
    base, _, version = soname.partition(".so.")
    version = version.split(".")[0]
    name = base.lower()
    if version:
        name += ("-" if name[-1:].isdigit() else "") + version
    return name


def missing_from_ldd(ldd_output: str) -> list[str]:
    """The sonames `ldd` reports as "not found", in order, without repeats."""
    return list(dict.fromkeys(_NOT_FOUND.findall(ldd_output)))


def xcb_plugin() -> Path | None:
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    root = Path(next(iter(spec.submodule_search_locations)))
    plugin = root / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    return plugin if plugin.is_file() else None


def missing_libraries(plugin: Path | None = None) -> list[str]:
    """Sonames the xcb plugin cannot load here ([] when complete, not Linux, or no ldd)."""
    plugin = plugin or xcb_plugin()
    ldd = shutil.which("ldd")
    if plugin is None or ldd is None or not sys.platform.startswith("linux"):
        return []
    result = subprocess.run([ldd, str(plugin)], capture_output=True, text=True, check=False)
    return missing_from_ldd(result.stdout + result.stderr)


def install_command(sonames: list[str]) -> str:
    packages = list(dict.fromkeys(debian_package(s) for s in sonames))
    return "sudo apt-get install -y " + " ".join(packages)


def needs_xcb() -> bool:
    """True when Qt will pick the xcb plugin: an X display and no other platform asked for."""
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform:
        return platform.startswith("xcb")
    return bool(os.environ.get("DISPLAY")) and not os.environ.get("WAYLAND_DISPLAY")


def report(sonames: list[str]) -> str:
    return ("Acervo's window needs system libraries that Qt's X11 plugin (xcb) links "
            f"against and that are not installed: {', '.join(sonames)}.\n"
            f"Install them with:\n    {install_command(sonames)}\n")


def main() -> int:
    if not sys.platform.startswith("linux"):
        return 0
    missing = missing_libraries()
    if not missing:
        return 0
    sys.stderr.write(report(missing))
    # without an X display the window is not opened (`make run` runs the headless demo)
    return 1 if needs_xcb() else 0


if __name__ == "__main__":
    raise SystemExit(main())
