"""The Celery app: Redis as broker (``REDIS_URL``), settings from Django's ``CELERY_*``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")

app = Celery("corr")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["corr.live", "corr.timeouts", "corr.notify"])


@app.on_after_finalize.connect
def schedule_nightly(sender, **kwargs):
    """Beat: the nightly job once a day at ``NIGHTLY_HOUR`` in the service's time zone."""
    from celery.schedules import crontab
    from django.conf import settings

    sender.add_periodic_task(crontab(hour=settings.NIGHTLY_HOUR, minute=0), sender.signature("corr.nightly_run"),
                             name="nightly deadline work")


@app.on_after_finalize.connect
def schedule_live_sweep(sender, **kwargs):
    """Beat: the live flag sweep every ``LIVE_SWEEP_SECONDS``; a sweep not run within that interval expires."""
    from django.conf import settings

    sender.add_periodic_task(settings.LIVE_SWEEP_SECONDS, sender.signature("corr.live_sweep"),
                             name="live flag sweep", expires=settings.LIVE_SWEEP_SECONDS)


@app.on_after_finalize.connect
def schedule_server_flag_sweep(sender, **kwargs):
    """Beat: the server games' flag sweep every ``SERVER_FLAG_SWEEP_SECONDS`` (issue 22); an unrun one expires."""
    from django.conf import settings

    sender.add_periodic_task(settings.SERVER_FLAG_SWEEP_SECONDS, sender.signature("corr.server_flag_sweep"),
                             name="server flag sweep", expires=settings.SERVER_FLAG_SWEEP_SECONDS)


@app.on_after_finalize.connect
def schedule_import_resume(sender, **kwargs):
    """Beat: the background imports not queued or whose worker died, queued again (issue 37)."""
    from django.conf import settings

    sender.add_periodic_task(settings.IMPORT_RESUME_SECONDS, sender.signature("corr.import_jobs_resume"),
                             name="import jobs resume", expires=settings.IMPORT_RESUME_SECONDS)


@app.on_after_finalize.connect
def schedule_notify_sweep(sender, **kwargs):
    """Beat: flag warnings and lost digests every ``NOTIFY_SWEEP_SECONDS`` (issue 38); an unrun sweep expires."""
    from django.conf import settings

    sender.add_periodic_task(settings.NOTIFY_SWEEP_SECONDS, sender.signature("corr.notify_sweep"),
                             name="notifications sweep", expires=settings.NOTIFY_SWEEP_SECONDS)
