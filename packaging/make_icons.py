"""Render resources/icons/acervo.svg into the raster icons the installers need.

    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py

Writes packaging/acervo.png (256 px, Linux hicolor theme), packaging/windows/acervo.ico
(16–256 px, PNG-compressed entries, the Windows Vista+ format) and, for macOS,
packaging/macos/acervo.iconset/ (turn it into acervo.icns with `iconutil -c icns` on a Mac).
Run it again after changing the SVG; the outputs are committed.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

PACKAGING = Path(__file__).resolve().parent
SVG = PACKAGING.parent / "resources" / "icons" / "acervo.svg"
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICONSET_SIZES = (16, 32, 128, 256, 512)


def render_png(renderer: QSvgRenderer, size: int) -> bytes:
    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.render(painter)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(data.data())


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An .ico whose entries are PNG images (ICONDIR + ICONDIRENTRY each + the PNGs)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = 6 + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        dim = 0 if size >= 256 else size  # 0 means 256 in the ICO format
        entries += struct.pack("<BBBBHHII", dim, dim, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def main() -> int:
    app = QGuiApplication(sys.argv[:1])  # noqa: F841 - QPainter needs a GUI application
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"cannot read {SVG}")
    (PACKAGING / "acervo.png").write_bytes(render_png(renderer, 256))
    (PACKAGING / "windows").mkdir(exist_ok=True)
    (PACKAGING / "windows" / "acervo.ico").write_bytes(
        ico_bytes({size: render_png(renderer, size) for size in ICO_SIZES}))
    iconset = PACKAGING / "macos" / "acervo.iconset"
    iconset.mkdir(parents=True, exist_ok=True)
    for size in ICONSET_SIZES:
        (iconset / f"icon_{size}x{size}.png").write_bytes(render_png(renderer, size))
        (iconset / f"icon_{size}x{size}@2x.png").write_bytes(render_png(renderer, size * 2))
    print("wrote acervo.png, windows/acervo.ico, macos/acervo.iconset/")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
