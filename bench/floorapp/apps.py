from django.apps import AppConfig


class FloorAppConfig(AppConfig):
    name = "bench.floorapp"
    label = "benchfloor"
    default_auto_field = "django.db.models.BigAutoField"
