"""Importing the memory package loads no heavy library and no Qt."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("lancedb", "pyarrow", "torch", "sentence_transformers", "transformers", "llama_cpp",
         "PySide6", "yaml")
MODULES = ("chat", "commands", "conversations", "consent", "core", "db", "erasure", "evaluation",
           "extraction", "history", "index", "patterns", "service", "store", "types",
           "categories")


def test_memory_modules_import_without_heavy_libraries() -> None:
    code = (
        "import sys, importlib\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module('desktop_app.memory.' + name)\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
