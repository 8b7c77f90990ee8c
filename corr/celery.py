"""The Celery app: Redis as broker (``REDIS_URL``), settings from Django's ``CELERY_*``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")

app = Celery("corr")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
