# Two commands: `make serve` and `make test`. Each sets up everything it needs from a clean clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
STAMP  := $(VENV)/.installed
MUTATE_STAMP := $(VENV)/.installed-mutate
# make mutate MODULE=_play narrows the mutation run to one engine module; MUTATE_ARGS adds options
MODULE ?=
MUTATE_ARGS ?=
# make adversary ADVERSARY_ARGS="--jobs 1 NAME ..." runs some of the adversary's broken engines
ADVERSARY_ARGS ?=
# make fuzz FUZZ_MINUTES=30 fuzzes for longer (minutes for the engine, then as many for the API)
FUZZ_MINUTES ?= 2

.PHONY: serve test fuzz bench clean install nginx
.PHONY: mutate coverage-kit adversary

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# nginx reads every request whole in front of gunicorn (docs/server.md): Debian's nginx-light,
# installed with apt-get when missing and we are root (CI); otherwise a note, and the server runs
# without it (saying so). A no-op when nginx is there. Its service is never started (policy-rc.d).
nginx:
	@if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing nginx-light (apt-get)"; \
	  policy=/usr/sbin/policy-rc.d; made=; \
	  if [ ! -e $$policy ]; then printf '#!/bin/sh\nexit 101\n' > $$policy && chmod +x $$policy && made=1; fi; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends nginx-light >/dev/null; }; }; \
	  status=$$?; [ -z "$$made" ] || rm -f $$policy; exit $$status; \
	else echo "nginx not found: install it (Debian: sudo apt-get install nginx-light); the server runs without it meanwhile, less safely"; fi

serve: $(STAMP) nginx
	PORT=$(PORT) $(BIN)/python -m service.api.serve

# The solver's answers are exact within their node budget; its wall-time bound (2 s by default,
# tested on its own in tests/test_server.py) would make them depend on how busy the machine is.
test: $(STAMP) nginx
	PYRAMIDE_SOLVE_SECONDS=600 $(BIN)/python -m pytest -q -p no:cacheprovider

# make fuzz: the engine's state machine and state mutations (tests/test_fuzz.py: at least 10,000
# sequences and 2,000 mutated states, and at least FUZZ_MINUTES), then schemathesis against the
# real server (FUZZ_MINUTES); both print progress as they go. docs/fuzzing.md has the figures.
fuzz: $(STAMP)
	PYRAMIDE_FUZZ=long FUZZ_MINUTES=$(FUZZ_MINUTES) $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_fuzz.py
	PYRAMIDE_FUZZ=long FUZZ_MINUTES=$(FUZZ_MINUTES) $(BIN)/python -m pytest -q -p no:cacheprovider tests/test_schemathesis.py

bench: $(STAMP) nginx
	$(BIN)/python -m tests.bench

# Mutation testing of the engine judged by the conformance kit alone (docs/mutation.md); not part of test.
$(MUTATE_STAMP): $(STAMP) pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test,mutate]'
	touch $(MUTATE_STAMP)

mutate: $(MUTATE_STAMP)
	$(BIN)/python -m scripts.mutate $(MODULE) $(MUTATE_ARGS)

# Branch coverage of service/engine by the kit alone, per module with the missing branches.
coverage-kit: $(MUTATE_STAMP)
	$(BIN)/python -m scripts.mutate --coverage

# The adversary's 153 broken engines, each breaking one rule, judged by the kit alone
# (tests/adversary, docs/conformance.md): about 25 minutes on 2 cores, 2 at a time; it starts no
# engine after 45 minutes (--max-minutes). Not part of test. Results in build/adversary.json.
adversary: $(STAMP)
	$(BIN)/python -m tests.adversary $(ADVERSARY_ARGS)

clean:
	rm -rf $(VENV) build mutants *.egg-info
