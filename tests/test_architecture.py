"""House rules that keep the core usable without Qt and the start-up fast."""

from __future__ import annotations

import pkgutil
import subprocess
import sys
from pathlib import Path

import desktop_app

REPO = Path(__file__).resolve().parents[1]


def _core_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(desktop_app.__path__, "desktop_app.")
        if not m.name.startswith("desktop_app.gui") and m.name != "desktop_app.__main__"
    )


def test_every_core_module_imports_with_pyside6_blocked() -> None:
    modules = _core_modules()
    assert "desktop_app.retrieval.search" in modules and len(modules) > 20
    code = (
        "import sys\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'PySide6' or name.startswith('PySide6.'):\n"
        "            raise ImportError('PySide6 is blocked outside desktop_app/gui')\n"
        "sys.meta_path.insert(0, Block())\n"
        "import importlib\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "assert not any(m.startswith('PySide6') for m in sys.modules)\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]


def test_importing_the_cli_loads_no_heavy_library() -> None:
    code = (
        "import sys\n"
        "import desktop_app.cli, desktop_app.app\n"
        "desktop_app.cli.build_parser()\n"
        "heavy = {'torch', 'lancedb', 'llama_cpp', 'sentence_transformers', 'presidio_analyzer',"
        " 'pymupdf', 'PySide6', 'rapidocr', 'onnxruntime', 'cv2'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip() == "[]"
