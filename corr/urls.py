from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

urlpatterns = [
    # Browsers ask for /favicon.ico whatever the page links (a JSON answer, the API docs): the site's icon.
    path("favicon.ico", RedirectView.as_view(url=static("corr/favicon.svg"), permanent=True)),
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
