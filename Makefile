# Two commands: `make serve` and `make test`. Each sets up everything it needs from a clean clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
STAMP  := $(VENV)/.installed

.PHONY: serve test fuzz bench clean install

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	PORT=$(PORT) $(BIN)/python -m service.api.serve

test: $(STAMP)
	$(BIN)/python -m pytest -q -p no:cacheprovider

fuzz: $(STAMP)
	PYRAMIDE_FUZZ=long $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_schemathesis.py

bench: $(STAMP)
	$(BIN)/python -m tests.bench

clean:
	rm -rf $(VENV) build *.egg-info
