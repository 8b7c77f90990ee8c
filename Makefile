# corr: the two commands of the README, on a fresh machine with only Python 3.11+.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv run test schemathesis bench bench-quick screenshots clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# Only the virtualenv (.venv): `. .venv/bin/activate` then runs every command of the README.
venv: $(STAMP)

# The embedded run: SQLite file, eager tasks, demo data, no other server.
run: $(STAMP)
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

# The whole suite. DATABASE_URL / REDIS_URL from the environment choose the servers.
test: $(STAMP)
	$(VENV)/bin/ruff check corr accounts tests bench
	SECRET_KEY=test-only-not-secret SECURE_SSL_REDIRECT=0 $(PY) -m pytest -q

# The API against its own schema on a live server (gunicorn, a fresh SQLite file): no 5xx, no answer
# outside the schema. SCHEMATHESIS_MAX_EXAMPLES bounds the cases per operation.
schemathesis: $(STAMP)
	$(PY) tests/contract/run_schemathesis.py

# The game and tournament pages at 1280 and 390 px, by the browser tests, into screenshots/ (README).
screenshots: $(STAMP)
	CORR_SCREENSHOTS=screenshots SECRET_KEY=test-only-not-secret SECURE_SSL_REDIRECT=0 \
	  $(PY) -m pytest -q tests/browser -k screenshots

bench: $(STAMP)
	$(PY) bench/run.py

bench-quick: $(STAMP)
	$(PY) bench/run.py --quick

clean:
	rm -rf $(VENV) db.sqlite3
