"""House rules that keep the core usable without Qt and the start-up fast."""

from __future__ import annotations

import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import desktop_app

REPO = Path(__file__).resolve().parents[1]


def _core_modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(desktop_app.__path__, "desktop_app.")
        if not m.name.startswith("desktop_app.gui") and m.name != "desktop_app.__main__"
    )


@pytest.mark.slow  # over a second: the full tier only
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


# --- the import graph -------------------------------------------------------------------

PACKAGE_ROOT = REPO / "desktop_app"


def _node(module: str) -> str | None:
    """The graph node a `desktop_app` module belongs to: its package (`retrieval`, `chat`,
    …) or, for a top-level module, its name (`app`, `errors`). CLI handlers live beside the
    package they drive as `<package>/commands.py`; like `cli.py` and `__main__.py` they are
    the command-line edge (they may import anything; nothing in the core imports them — a
    test below checks that), so they count as `cli`."""
    parts = module.split(".")
    if parts[0] != "desktop_app" or len(parts) < 2:
        return None
    if parts[1] in ("cli", "__main__") or (len(parts) >= 3 and parts[2] == "commands"):
        return "cli"
    return parts[1]


def _module_name(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> list[tuple[str, int]]:
    """Every `desktop_app` module `path` imports — at the top, inside functions and under
    TYPE_CHECKING alike: a lazy or type-only import is still a dependency."""
    import ast

    found: list[tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.module, node.lineno))
            found += [(f"{node.module}.{alias.name}", node.lineno) for alias in node.names]
    return [(name, line) for name, line in found if name.startswith("desktop_app.")]


def import_graph() -> dict[tuple[str, str], list[str]]:
    """(from node, to node) → where ("desktop_app/x/y.py:12")."""
    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        source = _node(_module_name(path))
        for name, line in _imports(path):
            target = _node(name)
            if source and target and target != source:
                where = f"{path.relative_to(REPO)}:{line}"
                edges.setdefault((source, target), []).append(where)
    return edges


def package_cycles(edges: dict[tuple[str, str], list[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one node (Tarjan)."""
    nodes = sorted({n for edge in edges for n in edge})
    after = {n: sorted(t for (s, t) in edges if s == n) for n in nodes}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in after[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for node in nodes:
        if node not in index:
            visit(node)
    return cycles


def test_the_graph_sees_a_cycle_when_there_is_one() -> None:
    edges = {("a", "b"): ["a.py:1"], ("b", "c"): ["b.py:1"], ("c", "a"): ["c.py:1"],
             ("c", "d"): ["c.py:2"]}
    assert package_cycles(edges) == [["a", "b", "c"]]
    assert package_cycles({("a", "b"): ["a.py:1"]}) == []


@pytest.mark.slow  # over a second: the full tier only
def test_no_two_packages_import_each_other() -> None:
    edges = import_graph()
    assert ("ingest", "retrieval") in edges and ("chat", "memory") in edges  # the graph is real
    assert ("modelprep", "retrieval") in edges
    report = []
    for group in package_cycles(edges):
        report.append(" ↔ ".join(group))
        report += [f"    {s} → {t}: {', '.join(edges[(s, t)][:3])}"
                   for (s, t) in sorted(edges) if s in group and t in group]
    assert not report, "package import cycles:\n" + "\n".join(report)


def test_the_layers_point_one_way() -> None:
    """Data flows gui → chat → (answer | memory) → retrieval → text (docs/architecture.md);
    model preparation (modelprep) builds what retrieval reads, and retrieval never calls it."""
    edges = import_graph()
    forbidden = [("memory", "answer"), ("memory", "chat"), ("retrieval", "ingest"),
                 ("retrieval", "answer"), ("answer", "chat"), ("text", "retrieval"),
                 ("app", "gui"), ("app", "cli"), ("retrieval", "modelprep")]
    forbidden += [(package, "gui") for package in ("answer", "chat", "memory", "retrieval",
                                                  "ingest", "text", "privacy", "team")]
    forbidden += [(package, "cli") for package in ("app", "answer", "chat", "memory", "config",
                                                  "retrieval", "ingest", "text", "gui",
                                                  "privacy", "team", "evaluation")]
    found = {edge: edges[edge][:3] for edge in forbidden if edge in edges}
    assert not found, f"imports against the layering: {found}"
    assert not [t for (s, t) in edges if s == "text"], "text/ imports no other package"


def test_qt_is_imported_only_in_gui() -> None:
    import ast

    offenders = []
    for path in sorted(PACKAGE_ROOT.rglob("*.py")):
        if path.relative_to(PACKAGE_ROOT).parts[0] == "gui":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n.split(".")[0] in ("PySide6", "shiboken6", "PyQt6", "PyQt5") for n in names):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not offenders, f"Qt outside desktop_app/gui: {offenders}"


def imports_of(package: str, sources: dict[str, str]) -> list[str]:
    """Where these sources (name → text) import `package` or one of its modules — at the
    top, in a function, or by name through importlib/__import__."""
    import ast

    found = []
    for name, source in sorted(sources.items()):
        for node in ast.walk(ast.parse(source)):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level
                     else [node.args[0].value] if isinstance(node, ast.Call) and node.args
                     and isinstance(node.args[0], ast.Constant)
                     and isinstance(node.args[0].value, str)
                     and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                         "import_module", "__import__")
                     else [])
            if any(n.split(".")[0] == package for n in names):
                found.append(f"{name}:{node.lineno}")
    return found


def test_the_import_check_sees_every_way_of_importing() -> None:
    assert imports_of("lance", {"a.py": "import lance", "b.py": "def f():\n    import lance.fragment",
                                "c.py": "from lance import dataset",
                                "d.py": "import importlib\nimportlib.import_module('lance')",
                                "e.py": "__import__('lance')",
                                "f.py": "import lancedb\nfrom . import lance\nlance_x = 1"}) == [
        "a.py:1", "b.py:2", "c.py:1", "d.py:2", "e.py:1"]


def test_nothing_in_the_app_imports_lance() -> None:
    """pylance (215 MB) stays out of the installer (packaging/acervo.spec): LanceDB's own
    native module reads and writes the tables, and the damage check reads Lance's version
    file itself (retrieval/lance_manifest.py)."""
    sources = {str(path.relative_to(REPO)): path.read_text(encoding="utf-8")
               for path in sorted(PACKAGE_ROOT.rglob("*.py"))}
    assert "desktop_app/retrieval/lancedb_io.py" in sources
    assert not imports_of("lance", sources), imports_of("lance", sources)


@pytest.mark.slow  # over a second: the full tier only
def test_every_module_imports_without_the_lance_package() -> None:
    """As in the installer, where `lance` is not there (LanceDB looks it up with find_spec
    and goes without it)."""
    modules = sorted(m.name for m in pkgutil.walk_packages(desktop_app.__path__, "desktop_app.")
                     if m.name != "desktop_app.__main__")
    assert any(m.startswith("desktop_app.gui.") for m in modules)
    code = (
        "import importlib, importlib.util, sys\n"
        "class Hide:\n"
        "    def __init__(self, inner): self.inner = inner\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == 'lance' or name.startswith('lance.'):\n"
        "            return None\n"
        "        return self.inner.find_spec(name, path, target)\n"
        "    def __getattr__(self, attr): return getattr(self.inner, attr)\n"
        "sys.meta_path[:] = [Hide(f) for f in sys.meta_path]\n"
        "assert importlib.util.find_spec('lance') is None\n"
        f"for name in {modules!r}:\n"
        "    importlib.import_module(name)\n"
        "import lancedb\n"
        "assert 'lance' not in sys.modules\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True,
                            text=True, timeout=300,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.strip().endswith("ok")


def test_the_gui_seam_is_typed_and_talks_to_services_only() -> None:
    """GuiServices (gui/services/) names the services' types (no `Any`); nothing in gui/
    writes SQL or reaches into an object's `__dict__`; no test injects parts through
    `app.__dict__` (build_app takes them)."""
    import ast
    import re

    anys = [f"{path.relative_to(REPO)}:{n.lineno}"
            for path in sorted((PACKAGE_ROOT / "gui" / "services").glob("*.py"))
            for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(n, ast.Name) and n.id == "Any"]
    assert len(list((PACKAGE_ROOT / "gui" / "services").glob("*.py"))) >= 5  # the parts
    assert not anys, f"Any in gui/services/: {anys}"
    sql = re.compile(r"\b(SELECT\b.+\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM|CREATE TABLE"
                     r"|PRAGMA \w+)\b", re.IGNORECASE | re.DOTALL)
    offenders = []
    for path in sorted((PACKAGE_ROOT / "gui").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "__dict__" or (
                    isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and sql.search(node.value)):
                offenders.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert not offenders, f"SQL or __dict__ in the GUI: {offenders}"
    injected = [f"{p.relative_to(REPO)}" for p in sorted((REPO / "tests").rglob("*.py"))
                if p.name != "test_architecture.py"
                and re.search(r"app\.__dict__\[", p.read_text(encoding="utf-8"))]
    assert not injected, f"parts injected through __dict__ (use build_app): {injected}"


def gui_seam_offenders(files: dict[str, str]) -> list[str]:
    """Where a GUI module reads an answer's untyped trace (`Done` has fields for what is
    shown) or a widget reaches the composition root through `services.app` (the parts of
    `GuiServices` are the seam). `files`: path relative to desktop_app/gui → source."""
    import re

    trace = re.compile(r"\.trace(\[|\.get\()")
    root = re.compile(r"\bservices\.app\b")
    found = []
    for name, source in sorted(files.items()):
        for number, line in enumerate(source.splitlines(), start=1):
            if trace.search(line) or (not name.startswith("services/") and root.search(line)):
                found.append(f"gui/{name}:{number}: {line.strip()}")
    return found


def test_the_gui_check_catches_trace_digging_and_reaching_the_app() -> None:
    assert gui_seam_offenders({"chat.py": 'x = str(done.trace.get("searched_for") or "")',
                               "library.py": "log = self.services.app.paths.log_dir",
                               "answer_view.py": 'mode = done.trace["answer_mode"]'}) == [
        'gui/answer_view.py:1: mode = done.trace["answer_mode"]',
        'gui/chat.py:1: x = str(done.trace.get("searched_for") or "")',
        "gui/library.py:1: log = self.services.app.paths.log_dir"]
    assert gui_seam_offenders({"services/__init__.py": "self.app = app  # services.app"}) == []


def test_the_window_reads_typed_answers_and_talks_to_the_service_parts() -> None:
    gui = PACKAGE_ROOT / "gui"
    files = {path.relative_to(gui).as_posix(): path.read_text(encoding="utf-8")
             for path in sorted(gui.rglob("*.py"))}
    assert "chat.py" in files and "services/chat.py" in files
    offenders = gui_seam_offenders(files)
    assert not offenders, "the GUI digs in Done.trace or reaches services.app:\n" + "\n".join(
        offenders)
