from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User
from .signin import BoundedAdminAuthenticationForm


@admin.register(User)
class CorrUserAdmin(UserAdmin):
    """Django's user admin, with corr's preferences: the language, the zone instants are shown in, the vision
    (the warnings a live game speaks, 001 1.7.9)."""

    fieldsets = (*UserAdmin.fieldsets, ("Preferences", {"fields": ("language", "time_zone", "vision")}))


# The admin's sign-in bounds the username as the site's does (issue 23: django-axes' varchar(255)).
admin.site.login_form = BoundedAdminAuthenticationForm
