# Every target installs the kit into .venv first, so a fresh clone needs only python3 and make.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
READY  := $(VENV)/.ready
TASK   ?=

# Cached bytecode makes each pytest start (the suite starts several) about a second faster.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: test test-fast check stubs notebooks bench mutants clean

$(READY): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --editable .
	touch $@

## make test: the kit's own suite (reference, stubs, notebooks, hidden checks, zoo, nbgrader, batch)
test: $(READY)
	$(BIN)/python -m pytest --impl=solutions

## make test-fast: the suite without the tests marked slow (no zoo, nbgrader runs or batches)
test-fast: $(READY)
	$(BIN)/python -m pytest --impl=solutions -m "not slow"

## make check [TASK=evaluate|inputs_of|users_of|backward]: public tests on your code in exercises/
check: $(READY)
	$(BIN)/python -m pytest exercises/tests $(if $(TASK),-m task_$(TASK))

## make stubs: regenerate exercises/graph.py from the reference
stubs: $(READY)
	$(BIN)/python -m autograder.authoring.stubs

## make notebooks: regenerate the nbgrader source notebooks from solutions/graph.py and notebooks/lessons/
notebooks: $(READY)
	$(BIN)/python -m autograder.authoring.lessons

clean:
	rm -rf $(VENV) dist .hypothesis

## make release: build the learner bundle in dist/learner/ (stub, public tests, release notebooks; no solutions)
.PHONY: release
release: $(READY)
	$(BIN)/python -m autograder.authoring.release

## make bench: grading speed (sandbox round trip, child start, one submission, per family)
bench: $(READY)
	$(BIN)/python -m autograder.tools.bench

## make grade [SUBMISSIONS=DIR] [OUT=out]: grade the demo cohort (or DIR, laid out as nbgrader's submitted/) into OUT
OUT ?= out
.PHONY: grade collect
grade: $(READY)
	$(BIN)/python -m autograder.pipeline.batch --out $(OUT) $(if $(SUBMISSIONS),--submissions $(SUBMISSIONS))

## make collect ZIP=download.zip [ASSIGNMENT=id] [OUT=out]: grade an LMS download, via nbgrader zip_collect
collect: $(READY)
	$(if $(ZIP),,$(error pass the LMS download: make collect ZIP=path/to/download.zip))
	$(BIN)/python -m autograder.pipeline.batch --out $(OUT) --zip $(ZIP) $(if $(ASSIGNMENT),--assignment $(ASSIGNMENT))

## make mutants: grade every mutant of the reference with the hidden checks (several minutes)
mutants: $(READY)
	$(BIN)/python -m autograder.tools.mutants
