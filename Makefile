# Every target installs the kit into .venv first, so a fresh clone needs only python3 and make.
# .venv is made from the first of python3 on PATH and /usr/bin/python3 that is 3.10 or newer, has venv, and runs
# from a statically linked interpreter: a distribution's own (Debian's, Ubuntu's) is built that way, with its hot
# paths optimised from profiles, and runs the kit's Python code, the grader's and the suite's, a tenth or more faster
# than an interpreter on a shared libpython (how pyenv builds one). PYTHON=... chooses by hand.
FAST_PYTHON = import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10) or \
	any("libpython" in line for line in open("/proc/self/maps")))
PYTHON ?= $(shell for p in python3 /usr/bin/python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c '$(FAST_PYTHON)' 2>/dev/null && { echo $$p; exit; }; done; echo python3)
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.ready
TASK   ?=
# Worker processes of make grade and make collect, for the hidden checks and nbgrader's feedback
# (default: every core). Any JOBS writes the same files, but for the grading seconds it measures.
JOBS   ?= $(shell nproc 2>/dev/null || echo 2)

# Cached bytecode makes each pytest start (the suite starts several) about a second faster.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: test test-fast check stubs notebooks bench mutants clean

# uv installs the kit several times faster than pip; it comes from the registry into the venv itself, and pip does
# the work when uv cannot be installed or fails (make bench BENCH_SETUP=1 measures the whole setup on a fresh clone).
# install-overrides.txt says which dependency is left out, and why; after pip, it is uninstalled.
INSTALL = if $(BIN)/python -m pip install --quiet --disable-pip-version-check uv \
	&& $(BIN)/python -m uv pip install --quiet --python $(BIN)/python --override install-overrides.txt --editable $(1); \
	then :; else \
	echo "uv could not install $(1) into $(VENV): pip does (slower)"; \
	$(BIN)/python -m pip install --quiet --upgrade pip && $(BIN)/python -m pip install --quiet --editable $(1) \
	&& $(BIN)/python -m pip uninstall --quiet --yes rfc3987-syntax; fi

$(READY): pyproject.toml install-overrides.txt
	@echo "setting up $(VENV): the kit and its dependencies"
	$(PYTHON) -m venv $(VENV)
	@$(call INSTALL,.)
	touch $@

# The suite runs on every core, one test file per worker: a file's module fixtures (a graded cohort,
# the hostile files, the zoo) are built once, in the worker that runs its tests.
PARALLEL := -n auto --dist loadfile --no-loadscope-reorder

## make test: the kit's own suite (reference, stubs, notebooks, hidden checks, zoo, nbgrader, batch); the course's
## store first (make prepare), so that the suite's many grading processes each load it instead of working it out
test: $(READY)
	$(BIN)/python -m autograder.tools.prepare
	$(BIN)/python -m pytest --impl=solutions $(PARALLEL)

## make test-postgres: the gradebook in PostgreSQL: a server of the test's own (Debian's postgresql, installed here when
## missing and run as root) gets the demo cohort, graded as into SQLite, while two graders set grades (a few minutes)
PG_READY := $(VENV)/.postgres-ready
.PHONY: test-postgres
$(PG_READY): $(READY) pyproject.toml
	@$(call INSTALL,'.[postgres]')
	touch $@

test-postgres: $(PG_READY)
	@if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
		else \
			echo "make test-postgres: no PostgreSQL here and no root to install it: its tests skip (apt-get install postgresql)" >&2; \
		fi; \
	fi
	$(BIN)/python -m autograder.tools.prepare
	$(BIN)/python -m pytest --impl=solutions tests/test_postgres.py -m postgres -rs

## make lint: ruff's checks and its format check over the tree (settings: pyproject.toml's [tool.ruff]); `ruff format`
## rewrites what the check finds
LINT_READY := $(VENV)/.lint-ready
.PHONY: lint
$(LINT_READY): $(READY) pyproject.toml
	@$(call INSTALL,'.[lint]')
	touch $@

lint: $(LINT_READY)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

## make test-fast: the lint first, then the suite without the tests marked slow (no zoo, nbgrader runs or batches)
test-fast: lint $(READY)
	$(BIN)/python -m pytest --impl=solutions -m "not slow" $(PARALLEL)

## make check [TASK=name]: public tests on your code in exercises/: the six lessons' 13 tasks in five modules, or one task
## (exercises/tasks.py lists them in lesson order); GRAPHKIT_COURSE=path/to/course runs that course's public tests
check: $(READY)
	$(BIN)/python -m autograder.authoring.public_tests $(if $(TASK),--task $(TASK))

## make stubs: regenerate the stubs in exercises/ (one per module of solutions/) and exercises/tasks.py
stubs: $(READY)
	$(BIN)/python -m autograder.authoring.stubs

## make notebooks: regenerate the nbgrader source notebooks from notebooks/lessons/ and solutions/
notebooks: $(READY)
	$(BIN)/python -m autograder.authoring.lessons

clean:
	rm -rf $(VENV) dist .hypothesis

## make release: build the learner bundle in dist/learner/ (stub, public tests, release notebooks; no solutions)
.PHONY: release
release: $(READY)
	$(BIN)/python -m autograder.authoring.release

## make prepare: work out once what no submission changes (drawn examples, large inputs, the reference's times) into
## the course's store, graphcourse/.prepared.json, which every grader verifies and uses (written again when a source changes)
.PHONY: prepare
prepare: $(READY)
	$(BIN)/python -m autograder.tools.prepare

## make bench [BENCH_LEARNERS=40] [BENCH_SCALE="100 300"]: grading speed: the hidden checks, backward per edge,
## stock nbgrader against the kit per learner (1 and 2 workers) on a realistic class, beside an all-correct class of the
## same size, a make grade that finds nothing changed, the batch's memory at each cohort size
## (about 20 minutes; BENCH_SCALE="100 1000" for memory at 1,000 learners, about half an hour more);
## a complete run writes its figures into docs/performance.md; BENCH_SETUP=1 adds a fresh clone's setup and first make grade
## (written into the README and docs/performance.md)
bench: $(READY)
	$(if $(BENCH_LEARNERS),BENCH_LEARNERS=$(BENCH_LEARNERS)) $(if $(BENCH_SCALE),BENCH_SCALE="$(BENCH_SCALE)") \
		$(if $(BENCH_SETUP),BENCH_SETUP=$(BENCH_SETUP)) $(BIN)/python -m autograder.tools.bench

## make grade [SUBMISSIONS=DIR] [OUT=out] [JOBS=N] [DB_URL=postgresql://USER@HOST/DB]: grade the demo cohort (or DIR, laid
## out as nbgrader's submitted/) into OUT; DB_URL: the gradebook in PostgreSQL, for several graders (OUT remembers it)
OUT ?= out
DB_URL ?=
.PHONY: grade collect
grade: $(READY)
	$(BIN)/python -m autograder.pipeline.grade --out $(OUT) --workers $(JOBS) $(if $(SUBMISSIONS),--submissions $(SUBMISSIONS)) $(if $(DB_URL),--db-url '$(DB_URL)')

## make history STUDENT=id [LESSON=assignment] [OUT=out]: one learner's grades over time (OUT/history.jsonl), each with what made it
.PHONY: history regrade
history: $(READY)
	$(if $(STUDENT),,$(error name the learner: make history STUDENT=id [LESSON=assignment]))
	$(BIN)/python -m autograder.pipeline.history --out $(OUT) --student $(STUDENT) $(if $(LESSON),--lesson $(LESSON))

## make regrade [DRY=1] [SUBMISSIONS=DIR] [OUT=out] [JOBS=N]: grade again the hand-ins whose provenance changed (hand-in,
## checks, kit, Python, packages, isolation) and print the learners whose score moves, and why; DRY=1 writes nothing
regrade: $(READY)
	$(BIN)/python -m autograder.pipeline.regrade --out $(OUT) --workers $(JOBS) $(if $(SUBMISSIONS),--submissions $(SUBMISSIONS)) $(if $(DRY),--dry-run)

## make collect ZIP=download.zip [ASSIGNMENT=id] [OUT=out]: grade an LMS download (a Canvas submissions zip), read by the kit
collect: $(READY)
	$(if $(ZIP),,$(error pass the LMS download: make collect ZIP=path/to/download.zip))
	$(BIN)/python -m autograder.pipeline.grade --out $(OUT) --workers $(JOBS) --zip $(ZIP) $(if $(ASSIGNMENT),--assignment $(ASSIGNMENT)) $(if $(DB_URL),--db-url '$(DB_URL)')

## make export-canvas [OUT=out]: OUT/canvas.csv, the collected lessons' scores for Canvas's gradebook import (Grades > Import)
.PHONY: export-canvas demo-download
export-canvas: $(READY)
	$(BIN)/python -m autograder.pipeline.canvas export --out $(OUT)

## make demo-download [OUT=out]: OUT/demo_download/<assignment>.zip, the demo cohort as Canvas submissions downloads
demo-download: $(READY)
	$(BIN)/python -m autograder.pipeline.canvas demo --out $(OUT)

## make mutants: grade every mutant of the reference with the hidden checks (a minute or two); a passing run writes docs/mutation.md
mutants: $(READY)
	$(BIN)/python -m autograder.tools.mutants

## make docs: rewrite the generated tables of docs/checks.md (the hidden checks, the zoo)
.PHONY: docs
docs: $(READY)
	$(BIN)/python -m autograder.tools.docs

## make e2e: the learner bundle in JupyterLab and a feedback page, in headless Chromium (a few minutes; tests/e2e/)
# Debian's chromium, installed here when missing and run as root; Playwright drives it, with no browser of its own.
CHROMIUM  ?= /usr/bin/chromium
E2E_READY := $(VENV)/.e2e-ready
.PHONY: e2e
$(E2E_READY): $(READY) pyproject.toml
	@$(call INSTALL,'.[e2e]')
	touch $@

e2e: $(E2E_READY)
	@if [ ! -x $(CHROMIUM) ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
		else \
			echo "make e2e needs Chromium at $(CHROMIUM): install Debian's package chromium (as root: apt-get install chromium)" >&2; exit 1; \
		fi; \
	fi
	CHROMIUM=$(CHROMIUM) $(BIN)/python -m pytest tests/e2e tests/test_gradescope.py -m e2e

## make gradescope [LESSON=id]: write dist/gradescope/<lesson id>.zip, each lesson's autograder to upload to Gradescope,
## with the total to set for its assignment (the zips hold the hidden checks); LESSON builds that lesson's alone
.PHONY: gradescope
gradescope: $(READY)
	$(BIN)/python -m autograder.authoring.gradescope $(if $(LESSON),--lesson $(LESSON))

## make formgrader [OUT=out] [PORT=8888]: open OUT's gradebook in nbgrader's formgrader (JupyterLab on 127.0.0.1)
.PHONY: formgrader
formgrader: $(READY)
	$(BIN)/python -m autograder.pipeline.formgrader --out $(OUT) $(if $(PORT),--port $(PORT))

## make roster CSV=roster.csv [OUT=out]: learners' names into OUT's gradebook, for the formgrader (columns: id,first_name,last_name,email)
.PHONY: roster
roster: $(READY)
	$(if $(CSV),,$(error pass the roster: make roster CSV=path/to/roster.csv))
	$(BIN)/python -m autograder.pipeline.roster $(CSV) --out $(OUT)

## make hub-env [HUB_ENV=/opt/graphkit-hub]: the hub's environment, which every account can read and run (a checkout's
## .venv may sit under a home folder learners cannot enter): JupyterHub, JupyterLab and nbgrader (deploy/hub-requirements.txt),
## configurable-http-proxy from npm, nbgrader's course settings (deploy/nbgrader_config.py); learners see the Assignment List only
HUB_ENV   ?= /opt/graphkit-hub
# The venv's interpreter must be one every account can run: Debian's, not one under /root (pyenv's, say).
HUB_PYTHON ?= /usr/bin/python3
HUB_READY := $(HUB_ENV)/.ready
.PHONY: hub-env hub-e2e
hub-env: $(HUB_READY)
$(HUB_READY): deploy/hub-requirements.txt deploy/nbgrader_config.py deploy/lab-overrides.json
	@command -v npm >/dev/null || { echo "make hub-env needs npm for configurable-http-proxy (Debian: apt-get install npm)" >&2; exit 1; }
	@$(HUB_PYTHON) -c 'import ensurepip, venv' 2>/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null; }
	$(HUB_PYTHON) -m venv $(HUB_ENV)
	$(HUB_ENV)/bin/python -m pip install --quiet --upgrade pip
	$(HUB_ENV)/bin/python -m pip install --quiet -r deploy/hub-requirements.txt
	npm install --silent --no-fund --no-audit --prefix $(HUB_ENV)/node configurable-http-proxy@4
	$(HUB_ENV)/bin/jupyter labextension disable --level=sys_prefix @jupyter/nbgrader:formgrader \
		@jupyter/nbgrader:create-assignment @jupyter/nbgrader:course-list
	$(HUB_ENV)/bin/jupyter server extension disable --sys-prefix nbgrader.server_extensions.formgrader \
		nbgrader.server_extensions.course_list
	install -D -m 644 deploy/nbgrader_config.py $(HUB_ENV)/etc/jupyter/nbgrader_config.py
	install -D -m 644 deploy/lab-overrides.json $(HUB_ENV)/share/jupyter/lab/settings/overrides.json
	chmod -R a+rX $(HUB_ENV)
	touch $@

## make hub-e2e: nbgrader's exchange round trip through a JupyterHub on 127.0.0.1 with real accounts, in headless Chromium
## (tests/hub/, a few minutes); it needs root (accounts, the hub), useradd and npm, and says which is missing when it skips
hub-e2e: $(E2E_READY)
	@if [ "$$(id -u)" != 0 ]; then echo "make hub-e2e skipped: it creates system accounts and starts JupyterHub as root; run it as root" >&2; exit 0; fi; \
	if ! command -v useradd >/dev/null; then echo "make hub-e2e skipped: no useradd to create the course's accounts (Debian: passwd)" >&2; exit 0; fi; \
	if ! command -v npm >/dev/null && command -v apt-get >/dev/null; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null || true; fi; \
	if ! command -v npm >/dev/null; then echo "make hub-e2e skipped: no npm to install configurable-http-proxy (Debian: apt-get install npm)" >&2; exit 0; fi; \
	if [ ! -x $(CHROMIUM) ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; fi; \
	$(MAKE) --no-print-directory hub-env && \
	CHROMIUM=$(CHROMIUM) HUB_ENV=$(HUB_ENV) $(BIN)/python -m pytest tests/hub -m hub

## make hub-feedback COURSE=DIR [OUT=out]: after make grade SUBMISSIONS=DIR/submitted, put OUT's feedback pages in the course
## folder DIR (whose submitted/ nbgrader's collect filled) for `nbgrader release_feedback` (docs/jupyterhub.md)
.PHONY: hub-feedback
hub-feedback: $(READY)
	$(if $(COURSE),,$(error pass the course folder: make hub-feedback COURSE=path/to/course))
	$(BIN)/python -m autograder.pipeline.exchange_feedback --out $(OUT) --course $(COURSE)
