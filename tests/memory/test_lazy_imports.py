"""Importing the memory and chat packages loads no heavy library and no Qt."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("lancedb", "pyarrow", "torch", "sentence_transformers", "transformers", "llama_cpp",
         "PySide6", "yaml")
MODULES = ("memory.commands", "memory.consent", "memory.core", "state_db", "memory.erasure",
           "memory.extraction", "memory.index", "memory.patterns", "memory.service",
           "memory.store", "memory.types", "memory.categories", "chat.conversations",
           "chat.history", "chat.turn", "evaluation.memory")


def test_memory_modules_import_without_heavy_libraries() -> None:
    code = (
        "import sys, importlib\n"
        f"for name in {MODULES!r}:\n"
        "    importlib.import_module('desktop_app.' + name)\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
