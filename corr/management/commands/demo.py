"""``manage.py demo``: a demo arbiter, two players, a postal and a server game (idempotent)."""

from django.core.management.base import BaseCommand
from django.utils import timezone

from corr.games.demo import demo_create


class Command(BaseCommand):
    help = "Create the demo tournament and sign-ins (does nothing if they exist) and print the sign-ins."

    def handle(self, *args, **options):
        demo = demo_create(now=timezone.now())
        self.stdout.write("Demo sign-ins (http://127.0.0.1:8000/login/):")
        for username, password, role in demo.logins:
            self.stdout.write(f"  {role:<28} {username} / {password}")
        self.stdout.write(f"Games: {', '.join(f'/games/{pk}/' for pk in demo.game_ids)}; API docs: /api/docs/")
