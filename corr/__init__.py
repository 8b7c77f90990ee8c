"""corr: time accounting for correspondence games.

``corr.clock`` is the pure calculator and imports nothing of Django or Celery;
so this package's ``__init__`` stays empty. The Celery app lives in
``corr.celery`` (found by ``celery -A corr``) and is loaded by the app config.
"""
