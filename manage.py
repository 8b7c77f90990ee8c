#!/usr/bin/env python
"""Django's command-line utility for corr."""
import os
import sys

if __name__ == "__main__":
    if sys.argv[1:2] == ["clock"]:
        # The calculator's command needs no Django: its start-up would cost more than a small batch.
        from corr.management.clock_runner import main

        status = main(sys.argv[2:])
        if status is not None:
            sys.exit(status)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "corr.settings")
    if sys.argv[1:2] == ["runserver"]:
        # daphne's runserver (the first installed app) serves corr.asgi, but loads the settings before it.
        from corr import serving

        serving.ASGI = True
        serving.WEB = True
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
