# corr: the two commands of the README, on a fresh machine with only Python 3.11+.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: venv run test schemathesis bench bench-quick screenshots clean messages catalogues

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# Only the virtualenv (.venv): `. .venv/bin/activate` then runs every command of the README.
venv: $(STAMP)

# The translations (README "Languages"): .po -> .mo in pure Python, only those out of date.
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
run: $(STAMP) catalogues
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py demo
	DEBUG=1 $(PY) manage.py runserver 127.0.0.1:8000

# The whole suite. DATABASE_URL / REDIS_URL from the environment choose the servers.
test: $(STAMP) catalogues
	$(VENV)/bin/ruff check corr accounts tests bench
	SECRET_KEY=test-only-not-secret SECURE_SSL_REDIRECT=0 $(PY) -m pytest -q

# The API against its own schema on a live server (gunicorn, a fresh SQLite file): no 5xx, no answer
# outside the schema. SCHEMATHESIS_MAX_EXAMPLES bounds the cases per operation.
schemathesis: $(STAMP) catalogues
	$(PY) tests/contract/run_schemathesis.py

# The game and tournament pages at 1280 and 390 px, by the browser tests, into screenshots/ (README).
screenshots: $(STAMP) catalogues
	CORR_SCREENSHOTS=screenshots SECRET_KEY=test-only-not-secret SECURE_SSL_REDIRECT=0 \
	  $(PY) -m pytest -q tests/browser -k screenshots

bench: $(STAMP)
	$(PY) bench/run.py

bench-quick: $(STAMP)
	$(PY) bench/run.py --quick

clean:
	rm -rf $(VENV) db.sqlite3
