"""corr: time accounting for correspondence games.

The Celery app is imported here so that ``@shared_task`` binds to it whenever
Django starts.
"""

from .celery import app as celery_app

__all__ = ["celery_app"]
