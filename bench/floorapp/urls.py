"""corr's routes and, beside them, the floor endpoint ``POST /api/bench/floor/``."""

from django.urls import path

from corr.urls import handler400, handler403, handler404, handler500  # noqa: F401
from corr.urls import urlpatterns as corr_urlpatterns

from .views import FloorView

urlpatterns = [path("api/bench/floor/", FloorView.as_view(), name="api-bench-floor"), *corr_urlpatterns]
