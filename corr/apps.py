from django.apps import AppConfig


class CorrConfig(AppConfig):
    name = "corr"
    label = "corr"
    verbose_name = "Correspondence games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Bind @shared_task to corr's Celery app in every Django process.
        from . import celery, checks  # noqa: F401
