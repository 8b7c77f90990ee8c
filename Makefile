# corr: the two commands of the README, on a fresh machine with only Python 3.11+.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# The calculator's build (corr/clock/build.py): this file says "mypyc" when its hot modules were
# compiled, "pure" when the compile failed and their Python sources are used.
BUILT := $(VENV)/.clock-build
TEST_ENV := SECRET_KEY=test-only-not-secret SECURE_SSL_REDIRECT=0

.PHONY: venv run test schemathesis bench bench-quick bench-live bench-live-quick screenshots clean messages catalogues

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The calculator's hot modules compiled by mypyc, in place (gitignored); again whenever a source
# of corr/clock changes. A failed compile is said and leaves the pure-Python modules in use.
$(BUILT): $(STAMP) $(wildcard corr/clock/*.py corr/clock/systems/*.py corr/clock/live/*.py)
	CORR_PURE_PYTHON=1 $(PY) -m corr.clock.mypyc_build --record $(BUILT)

# Only the virtualenv (.venv) and the compiled calculator: `. .venv/bin/activate` then runs every
# command of the README and of docs/.
venv: $(STAMP) $(BUILT)

# The translations (docs/operations.md, "Languages"): .po -> .mo in pure Python, only those out of date.
catalogues: $(STAMP)
	$(PY) manage.py compilecatalogues

# Extract new messages into the ru and fr catalogues (GNU gettext's xgettext: installed with apt
# when missing, like the browser of the browser tests), then compile them.
messages: $(STAMP)
	@command -v xgettext >/dev/null 2>&1 && command -v msgfmt >/dev/null 2>&1 || \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; }
	$(PY) manage.py makemessages -l ru -l fr --no-obsolete --add-location=file \
	  --ignore=.venv --ignore=bench --ignore=tests --ignore=docs --ignore=screenshots
	$(PY) manage.py compilecatalogues

# The embedded run: SQLite file, eager tasks, demo data, no other server.
# PORT chooses the port (make run PORT=8001); the links the site writes for outside readers (e-mails, the
# calendar, XFCC, PGN) follow it through SITE_URL unless SITE_URL is set.
PORT ?= 8000
run: $(STAMP) $(BUILT) catalogues
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo
	DEBUG=1 SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} $(PY) manage.py runserver 127.0.0.1:$(PORT)

# The whole suite (on the calculator's build, checked by tests/clock/test_build.py), and beside it the
# calculator's tests again on its pure-Python modules, the fallback of a failed compile. The first pass
# ends with its 15 slowest tests (the ten-minute budget of docs/tests.md is spent there).
# DATABASE_URL / REDIS_URL from the environment choose the servers.
# TEST_WORKERS: pytest-xdist's worker processes, each with its own test database and Redis
# (tests/support/parallel.py); 4 on the 2-core machine, whose tests mostly wait on browsers, servers
# and subprocesses (docs/tests.md, "Parallel workers": 4 ran the first pass in 481 s where 3 took 534 s).
# TEST_WORKERS=0: one process, as before.
TEST_WORKERS ?= 4
PARALLEL := -n $(TEST_WORKERS) --dist worksteal
# The second pass runs beside the first, its output kept and printed after it: the first pass leaves a fifth of
# the 2 cores idle while its tests wait (docs/tests.md, "Both passes at once"). Its test databases carry the suffix
# _pure (pytest-django's TOX_PARALLEL_ENV, meant for parallel runs) so that the two passes share none.
PURE_WORKERS ?= 2
test: $(STAMP) $(BUILT) catalogues
	$(VENV)/bin/ruff check corr accounts tests bench
	@pure_log=$$(mktemp); \
	echo "the calculator's tests on its pure-Python modules, beside the first pass, into $$pure_log"; \
	$(TEST_ENV) TOX_PARALLEL_ENV=pure CORR_EXPECT_BUILD=pure CORR_PURE_PYTHON=1 $(PY) -m pytest -q \
	  -n $(PURE_WORKERS) tests/clock tests/commands > $$pure_log 2>&1 & pure=$$!; \
	echo '$(TEST_ENV) CORR_EXPECT_BUILD=$$(cat $(BUILT)) $(PY) -m pytest -q $(PARALLEL) --durations=15'; \
	$(TEST_ENV) CORR_EXPECT_BUILD=$$(cat $(BUILT)) $(PY) -m pytest -q $(PARALLEL) --durations=15; first=$$?; \
	wait $$pure; second=$$?; \
	echo "--- the calculator's tests on its pure-Python modules (CORR_PURE_PYTHON=1 CORR_EXPECT_BUILD=pure):"; \
	cat $$pure_log; rm -f $$pure_log; \
	test $$first -eq 0 && test $$second -eq 0

# The API against its own schema on a live server (gunicorn, a fresh SQLite file): no 5xx, no answer
# outside the schema. SCHEMATHESIS_MAX_EXAMPLES bounds the cases per operation.
schemathesis: $(STAMP) catalogues
	$(PY) tests/contract/run_schemathesis.py

# The game and tournament pages at 1280 and 390 px, by the browser tests, into build/screenshots/
# (gitignored: each run's dates differ, so the committed screenshots/ change only when copied there).
screenshots: $(STAMP) catalogues
	CORR_SCREENSHOTS=build/screenshots SECRET_KEY=test-only-not-secret SECURE_SSL_REDIRECT=0 \
	  $(PY) -m pytest -q tests/browser -k screenshots

bench: $(STAMP) $(BUILT)
	$(PY) bench/run.py

bench-quick: $(STAMP) $(BUILT)
	$(PY) bench/run.py --quick

# Live games at scale (bench/live_load.py): 10, 100 and 500 blitz games over WebSockets on daphne, Celery,
# channels-redis and PostgreSQL, beside a bare Channels echo in alternating rounds. BENCH_LIVE_ARGS passes
# options (make bench-live BENCH_LIVE_ARGS="--games 500 --rounds 3"); bench-live-quick is CI's smoke run.
bench-live: $(STAMP) $(BUILT)
	$(PY) bench/live_load.py $(BENCH_LIVE_ARGS)

bench-live-quick: $(STAMP) $(BUILT)
	$(PY) bench/live_load.py --quick $(BENCH_LIVE_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 build corr/clock/*.so ./*__mypyc*.so corr/clock/compiled.sha256
