from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User


@admin.register(User)
class CorrUserAdmin(UserAdmin):
    """Django's user admin, with corr's preferences: the language and the zone instants are shown in."""

    fieldsets = (*UserAdmin.fieldsets, ("Preferences", {"fields": ("language", "time_zone")}))
