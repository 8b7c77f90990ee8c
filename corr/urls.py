from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/", include("corr.api.urls")),
    path("", include("corr.web.urls")),
    path("", include("corr.exports.urls")),
    path("", include("corr.feeds.urls")),
    path("", include("corr.xfcc.urls")),
    path("", include("corr.notify.urls")),
]

handler400 = "corr.api.http_errors.handler400"
handler403 = "corr.api.http_errors.handler403"
handler404 = "corr.api.http_errors.handler404"
handler500 = "corr.api.http_errors.handler500"
