from django.apps import AppConfig


class CorrConfig(AppConfig):
    name = "corr"
    label = "corr"
    verbose_name = "Correspondence games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.conf import settings

        # Bind @shared_task to corr's Celery app in every Django process.
        from . import celery, checks  # noqa: F401
        # The server flags' tasks are queued by name from the games layer (corr.games.flagclock) and, when
        # tasks run eagerly, looked up by name in this process: registered here, not on first import.
        from .timeouts import tasks  # noqa: F401
        # The live timers connect to the writes' announcements (corr.live.timers), the live sockets to the
        # ends of sessions (corr.live.sessions), and the live tasks are looked up by name when tasks run eagerly.
        from .live import schedule, sessions, tasks as live_tasks  # noqa: F401

        if any(db["ENGINE"] == "django.db.backends.postgresql" for db in settings.DATABASES.values()):
            # A forked child opens its own database pool rather than using the parent's sessions.
            from . import dbpools  # noqa: F401
