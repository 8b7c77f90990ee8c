from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("corr.api.urls")),
    path("", include("corr.web.urls")),
]
