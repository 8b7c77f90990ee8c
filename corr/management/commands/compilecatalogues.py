"""Compile the translation catalogues (.po -> .mo) in pure Python: no GNU gettext needed."""

from django.conf import settings
from django.core.management.base import BaseCommand

from corr.catalogues import catalogues_compile


class Command(BaseCommand):
    help = "Compile locale/*/LC_MESSAGES/django.po to .mo files (those missing or older than their .po)."

    def handle(self, *args, **options):
        for path in catalogues_compile(settings.LOCALE_PATHS[0]):
            self.stdout.write(f"compiled {path}")
