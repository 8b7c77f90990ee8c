from django.apps import AppConfig


class CorrConfig(AppConfig):
    name = "corr"
    label = "corr"
    verbose_name = "Correspondence games"
    default_auto_field = "django.db.models.BigAutoField"
