"""The few spaCy names presidio imports, without spaCy — bound while presidio is imported.

Why: Acervo runs presidio on its `no_op` NLP engine (privacy/analyzer.py): every recognizer
is a pattern or lexicon rule, no spaCy pipeline is ever loaded. But presidio_analyzer's
package `__init__` imports all its NLP engines, and those import spaCy (and spaCy imports
thinc, blis, srsly...): ~60 MB of the frozen bundle and a second or more at start-up, for
an empty `Doc` that `NoOpNlpEngine` hands its recognizers.

`install()` (called by `desktop_app.privacy`'s `__init__`) wraps the loader of the
`presidio_analyzer` package so that, while its `__init__` runs (it imports every module
that touches spaCy), `import spacy`, `spacy.tokens`... and `thinc.api` give this module's
stand-ins; afterwards `sys.modules` is put back as it was, so any other importer in the
process (bench/pii.py's spaCy NER baseline) gets the real spaCy. The source install and
the bundle alike (the tests exercise what ships); the bundle leaves spaCy out.

What works: the import-time names (classes to subclass or annotate with, the decorators
presidio applies at import) and an empty `Doc(vocab, words=[...])`, all `NoOpNlpEngine`
builds. What raises: loading or creating any spaCy pipeline (the spacy/stanza/transformers
engines), with a message that says so.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import Any

PACKAGE = "presidio_analyzer"
NOT_HERE = ("spaCy pipelines are not part of Acervo: its PII finder runs presidio on the "
            "no_op NLP engine (desktop_app/privacy/spacy_lite.py)")


def _refuse(*_args: Any, **_kwargs: Any) -> Any:
    raise ModuleNotFoundError(NOT_HERE, name="spacy")


def _decorator(*_args: Any, **_kwargs: Any) -> Callable[[Any], Any]:
    """`@Language.factory(...)`, `@registry.tokenizers(...)`: registers nothing."""
    return lambda function: function


class Vocab:
    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        self.strings: list[str] = []


class Token:
    """Annotation only (no pipeline makes tokens here)."""


class Span:
    """Annotation only."""


class SpanGroup(list[Span]):
    """Annotation only."""


class Doc:
    """The words of a text without any annotation (`NoOpNlpEngine` makes empty ones)."""

    def __init__(self, vocab: Vocab, words: Sequence[str] | None = None,
                 **_kwargs: Any) -> None:
        self.vocab = vocab
        self._words = [str(word) for word in words or ()]
        self.ents: tuple[Span, ...] = ()
        self.spans: dict[str, SpanGroup] = {}

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def __getitem__(self, index: int) -> str:
        return self._words[index]

    @property
    def text(self) -> str:
        return " ".join(self._words)

    @classmethod
    def set_extension(cls, *_args: Any, **_kwargs: Any) -> None:
        return None


class Language:
    factory = staticmethod(_decorator)
    component = staticmethod(_decorator)

    def __init__(self, *_args: Any, **_kwargs: Any) -> None:
        _refuse()


class Pipe:
    """Base class presidio's Hugging Face component subclasses (never instantiated)."""


class _Registry:
    def __getattr__(self, _name: str) -> Callable[..., Callable[[Any], Any]]:
        return _decorator


def _module(name: str, **names: Any) -> ModuleType:
    module = ModuleType(name, "Acervo's stand-in for the spaCy names presidio imports")
    module.__dict__.update(names)
    module.__spec__ = importlib.machinery.ModuleSpec(name, None)
    return module


def stand_ins() -> dict[str, ModuleType]:
    """Fresh stand-in modules by name (what `sys.modules` holds while presidio imports)."""
    registry = _Registry()
    util = _module("spacy.util", registry=registry, is_package=lambda _name: False,
                   load_model=_refuse, get_lang_class=_refuse)
    modules = {
        "spacy.tokens": _module("spacy.tokens", Doc=Doc, Span=Span, Token=Token,
                                SpanGroup=SpanGroup),
        "spacy.vocab": _module("spacy.vocab", Vocab=Vocab),
        "spacy.language": _module("spacy.language", Language=Language),
        "spacy.pipeline": _module("spacy.pipeline", Pipe=Pipe),
        "spacy.util": util,
        "spacy.cli": _module("spacy.cli", download=_refuse),
        "thinc.api": _module("thinc.api", get_torch_default_device=_refuse),
    }
    spacy = _module("spacy", __version__="acervo-spacy-lite", Language=Language, Vocab=Vocab,
                    blank=_refuse, load=_refuse, require_gpu=_refuse, prefer_gpu=_refuse,
                    registry=registry, **{n.split(".")[1]: m for n, m in modules.items()
                                          if n.startswith("spacy.")})
    spacy.__path__ = []  # a package: `import spacy.tokens` looks in sys.modules first
    thinc = _module("thinc", api=modules["thinc.api"])
    thinc.__path__ = []
    return {"spacy": spacy, "thinc": thinc, **modules}


@contextmanager
def as_spacy() -> Iterator[None]:
    """Inside the block `import spacy` (and the submodules above, `thinc.api`) give the
    stand-ins; on leaving, `sys.modules` is put back as it was."""
    modules = stand_ins()
    saved = {name: sys.modules.get(name) for name in modules}
    sys.modules.update(modules)
    try:
        yield
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


class _PresidioLoader(importlib.abc.Loader):
    """presidio_analyzer's own loader, run inside `as_spacy`."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        with as_spacy():
            self._loader.exec_module(module)


class PresidioWithoutSpacy(importlib.abc.MetaPathFinder):
    """Finds `presidio_analyzer` with the other finders and wraps its loader."""

    def find_spec(self, fullname: str, path: Any = None,
                  target: Any = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != PACKAGE:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _PresidioLoader(spec.loader)
                return spec
        return None


def install() -> None:
    """Put the finder first on `sys.meta_path` (once); presidio imported before keeps spaCy."""
    if not any(isinstance(finder, PresidioWithoutSpacy) for finder in sys.meta_path):
        sys.meta_path.insert(0, PresidioWithoutSpacy())
