from django.urls import path

from . import views

urlpatterns = [
    # ICCF's service is XfccBasic.asmx; clients' settings are typed by hand: both spellings answer.
    path("xfcc/xfccbasic.asmx", views.xfcc_basic, name="xfcc"),
    path("xfcc/XfccBasic.asmx", views.xfcc_basic),
]
