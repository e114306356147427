# Two commands: `make serve` and `make test`. Each sets up everything it needs from a clean clone.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
# make serve installs what serving needs (the runtime dependencies), make test adds the test extras
RUNTIME_STAMP := $(VENV)/.installed-runtime
STAMP  := $(VENV)/.installed
MUTATE_STAMP := $(VENV)/.installed-mutate
# make mutate MODULE=_play narrows the mutation run to one engine module; MUTATE_ARGS adds options
MODULE ?=
MUTATE_ARGS ?=
# make adversary ADVERSARY_ARGS="--jobs 1 NAME ..." runs some of the adversary's broken engines
ADVERSARY_ARGS ?=
# make fuzz FUZZ_MINUTES=30 fuzzes for longer (minutes for the engine, then as many for the API)
FUZZ_MINUTES ?= 2
# make test runs on every core and one more (pytest-xdist): a third of the suite's time is spent
# waiting on other processes (servers, browsers, the attacks' clocks), and a third worker keeps
# both cores busy meanwhile (docs/testing.md); JOBS=1 runs it in one process
JOBS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
# make flaky FLAKY_RUNS=50: the tests that wait on other processes, again and again beside a CPU hog
FLAKY_RUNS ?= 50

# The generated-client checks and the browser tests' axe-core come from npm, pinned by the lock file.
CONTRACT := tests/contract
NPM_STAMP := $(CONTRACT)/node_modules/.package-lock.json

# The solver's core compiled with mypyc (docs/solver.md, "The compiled core"), built again when one
# of its sources changes; without it (or when a source is newer) the engine runs its sources.
CORE_SOURCES := $(wildcard service/engine/_position.py service/engine/_solver/*.py) service/engine/_compiled.py
COMPILED_STAMP := build/mypyc/.compiled

# The virtual environment is made without pip when the interpreter has a pip of its own that can
# install into another environment (pip >= 22.3: --python): ensurepip would unpack and compile a
# second pip, the slowest step of a fresh `make serve`. Otherwise the venv gets its own pip.
PIP = $(shell if [ -x $(BIN)/pip ]; then echo $(BIN)/python -m pip; else echo $(PYTHON) -m pip --python $(BIN)/python; fi)
# setuptools says "Editable installation… be careful with folders of the same name" on every
# editable install: our folders are named service/ and features/, never pyramide/, so it is noise.
PIP_ENV := PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONWARNINGS="ignore:Editable installation"

.PHONY: serve test check fuzz bench clean install flaky npm-tools nginx chromium aisleriot
.PHONY: mutate coverage-kit adversary crosscheck soak peer compiled

$(BIN)/python:
	$(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python --version > /dev/null 2>&1 || $(BIN)/python -m ensurepip --quiet

$(RUNTIME_STAMP): pyproject.toml | $(BIN)/python
	@echo "make: installing Pyramide and what serving needs into $(VENV) (once, and again when pyproject.toml changes)"
	$(PIP_ENV) $(PIP) install --quiet -e .
	touch $(RUNTIME_STAMP)

# The test extras, and pip in the environment (tests/cli/test_wheel.py builds a wheel with it).
$(STAMP): $(RUNTIME_STAMP) pyproject.toml
	@echo "make: installing the test tools into $(VENV) (once, and again when pyproject.toml changes)"
	$(PIP_ENV) $(PIP) install --quiet -e '.[test]' pip
	touch $(STAMP)

install: $(STAMP)

# make compiled: the solver's core (service/engine/_compiled.py's COMPILED) compiled by mypyc for the
# installed package, pyramide.engine (the server, the CLI). About 35 s of one core; make test builds
# it and compares it with the interpreted core (tests/solver/test_compiled.py); make serve does not
# wait for it and runs whichever is there (its first line says which).
compiled: $(COMPILED_STAMP)

$(COMPILED_STAMP): $(STAMP) $(CORE_SOURCES) scripts/compile_core.py
	@echo "make: compiling the solver's core with mypyc (once, and again when one of its sources changes)"
	$(BIN)/python -m scripts.compile_core
	touch $@

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

# The browser tests play the web client in Debian's chromium (Playwright drives it; no browser is
# downloaded): installed with apt-get when missing and we are root (CI); otherwise they say SKIPPED.
chromium:
	@if command -v chromium >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing chromium (apt-get)"; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }; }; \
	else echo "make: chromium not found: the browser tests will be SKIPPED (Debian: apt-get install chromium)"; fi

# The kit judges GNOME AisleRiot's own Pyramid ("Thirteen", docs/conformance-aisleriot.md): Debian's
# aisleriot (its games compiled for Guile 3.0) and guile-3.0, installed with apt-get when missing
# and we are root (CI; no recommends: the game's GTK program is never started); otherwise a note,
# and tests/kit/test_outside_engine.py's AisleRiot tests say SKIPPED.
aisleriot:
	@if command -v guile-3.0 >/dev/null 2>&1 && ls /usr/lib/*/aisleriot/guile/3.0/thirteen.go >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "installing guile-3.0 and aisleriot (apt-get)"; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends guile-3.0 aisleriot >/dev/null 2>&1 || \
	    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends guile-3.0 aisleriot >/dev/null; }; }; \
	else echo "make: guile-3.0 or aisleriot not found: the kit's run on AisleRiot will be SKIPPED (Debian: apt-get install --no-install-recommends guile-3.0 aisleriot)"; fi

serve: $(RUNTIME_STAMP) nginx
	PORT=$(PORT) $(BIN)/pyramide serve

# The solver's answers are exact within their node budget; its wall-time bound (2 s by default,
# tested on its own in tests/server/test_server.py) would make them depend on how busy the machine is.
# It runs on every core (-n: pytest-xdist) and ends with the slowest tests (--durations).
# Python may keep its bytecode here even where the environment says not to (PYTHONDONTWRITEBYTECODE):
# the suite starts Python again and again (kits, adapters, servers), and each start would compile
# our modules again and rewrite every pytest plugin's asserts (3.9 s of CPU for the kit's
# collection alone, 1.9 s with the bytecode kept).
# The compiled core is built beside the first tests (one core's worth of compiling while they wait
# on servers and browsers): tests/solver/test_compiled.py, started last, waits for it; a process
# started meanwhile runs the sources (the same answers).
test: $(STAMP) npm-tools nginx chromium aisleriot
	@mkdir -p build; touch build/mypyc-building; \
	{ $(MAKE) --no-print-directory compiled > build/compiled.log 2>&1; echo $$? > build/compiled.status; rm -f build/mypyc-building; } & \
	PYTHONDONTWRITEBYTECODE= PYRAMIDE_SOLVE_SECONDS=600 $(BIN)/python -m pytest -q -p no:cacheprovider -n $(JOBS) --durations=15; \
	status=$$?; wait; cat build/compiled.log; [ "$$(cat build/compiled.status)" = 0 ] || status=1; exit $$status

# The edit–test loop, under a minute: the engine, the API and the kit in-process, the doctests;
# everything that starts a server, a browser or an adapter, or searches at length, is make test's
# (tests/conftest.py's SLOW).
check: $(STAMP)
	PYTHONDONTWRITEBYTECODE= PYRAMIDE_SOLVE_SECONDS=600 $(BIN)/python -m pytest -q -p no:cacheprovider -n $(JOBS) -m "not slow"

# The tests that wait on other processes (a server starting, a pipe's progress line, a signal's
# effect), FLAKY_RUNS times each beside a CPU hog on every core: none may fail (tests/flaky.py).
flaky: $(STAMP) nginx
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m tests.flaky --runs $(FLAKY_RUNS)

# npm ci when npm is there; without it the TypeScript and axe checks say plainly that they skip.
npm-tools:
	@if command -v npm > /dev/null; then $(MAKE) --no-print-directory $(NPM_STAMP); \
	else echo "make: npm not found: the TypeScript client check and the accessibility check will be SKIPPED"; fi

$(NPM_STAMP): $(CONTRACT)/package.json $(CONTRACT)/package-lock.json
	cd $(CONTRACT) && npm ci --no-audit --no-fund --loglevel=error

# make fuzz: the engine's state machine and state mutations (tests/engine/test_fuzz.py: at least 10,000
# sequences and 2,000 mutated states, and at least FUZZ_MINUTES), then schemathesis against the
# real server (FUZZ_MINUTES); both print progress as they go. docs/fuzzing.md has the figures.
fuzz: $(STAMP)
	PYRAMIDE_FUZZ=long FUZZ_MINUTES=$(FUZZ_MINUTES) $(BIN)/python -m pytest -q -p no:cacheprovider tests/engine/test_fuzz.py
	PYRAMIDE_FUZZ=long FUZZ_MINUTES=$(FUZZ_MINUTES) $(BIN)/python -m pytest -q -p no:cacheprovider tests/api/test_schemathesis.py

# make soak: the real server under a steady load for SOAK_MINUTES, past its workers' recycling
# limits, reloaded every 3 minutes; a progress line every 30 s, a summary in build/soak.json
# (docs/server.md has the figures). Fails if any answer was not right. Not part of test.
SOAK_MINUTES ?= 10
soak: $(STAMP) nginx
	$(BIN)/python -m tests.soak --minutes $(SOAK_MINUTES)

bench: $(STAMP) nginx
	$(BIN)/python -m tests.bench

# The peer of the shortest-line bench (mchung94/solitaire-player's Pyramid solver), built from a
# checkout of its source that this repository does not keep: make peer PEER_SRC=/path/to/it, then
# PYRAMIDE_PEER=build/peer python -m tests.bench shortest (docs/solver-lab-notes.md, "Beside the peer").
PEER_SRC ?=
PEER ?= build/peer
peer:
	@test -n "$(PEER_SRC)" || { echo "make peer PEER_SRC=/path/to/solitaire-player (a checkout of github.com/mchung94/solitaire-player)"; exit 2; }
	command -v javac >/dev/null && test -f /usr/share/java/trove4j.jar && test -f /usr/share/java/jackson-databind.jar || \
		{ apt-get update -q && apt-get install -y -q default-jdk-headless libtrove3-java libjackson2-databind-java; }
	sh tests/bench/peer/build.sh "$(PEER_SRC)" "$(PEER)"

# The solver's verdicts against the independent reference search (tests/reference_general.py) on
# CROSSCHECK_DEALS deals of each preset the general search answers and of the 004 app's, every
# winning line replayed by the engine (docs/solver-lab-notes.md has the counts). Long: at the lowest priority.
CROSSCHECK_DEALS ?= 200
crosscheck: $(STAMP)
	nice -n 19 $(BIN)/python -m tests.reference_general tuts-tomb apophis pharaoh spanish unlimited-undo --deals $(CROSSCHECK_DEALS)

# Mutation testing of the engine judged by the conformance kit alone (docs/mutation.md); not part of test.
$(MUTATE_STAMP): $(STAMP) pyproject.toml
	$(PIP_ENV) $(PIP) install --quiet -e '.[test,mutate]'
	touch $(MUTATE_STAMP)

mutate: $(MUTATE_STAMP)
	$(BIN)/python -m scripts.mutate $(MODULE) $(MUTATE_ARGS)

# Branch coverage of service/engine by the kit alone, per module with the missing branches.
coverage-kit: $(MUTATE_STAMP)
	$(BIN)/python -m scripts.mutate --coverage

# The adversary's 153 broken engines, each breaking one rule, judged by the kit alone
# (tests/adversary, docs/conformance-measurements.md): about 25 minutes on 2 cores, 2 at a time; it starts no
# engine after 45 minutes (--max-minutes). Not part of test. Results in build/adversary.json.
adversary: $(STAMP)
	$(BIN)/python -m tests.adversary $(ADVERSARY_ARGS)

clean:
	rm -rf $(VENV) build mutants *.egg-info dist $(CONTRACT)/node_modules service/engine/*.so service/engine/_solver/*.so
