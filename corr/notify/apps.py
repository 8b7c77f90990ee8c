from django.apps import AppConfig


class NotifyConfig(AppConfig):
    name = "corr.notify"
    label = "notify"
    verbose_name = "Notifications"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # The tasks are queued by name from the games layer and, when tasks run eagerly, looked up by name.
        from . import tasks  # noqa: F401
