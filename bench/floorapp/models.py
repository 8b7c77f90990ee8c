"""The benchmarks' floor: the cheapest useful write, one authenticated insert."""

from django.conf import settings
from django.db import models
from django.utils import timezone


class FloorRow(models.Model):
    """A row inserted by ``POST /api/bench/floor/`` (routed by ``bench/settings.py`` only)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
