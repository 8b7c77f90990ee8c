from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import User
from .signin import BoundedAdminAuthenticationForm

admin.site.register(User, UserAdmin)
# The admin's sign-in bounds the username as the site's does (issue 23: django-axes' varchar(255)).
admin.site.login_form = BoundedAdminAuthenticationForm
