"""The account's own signal, for the layers above that react to it (Django's ``user_logged_out`` is the other).

``password_changed`` is sent by :meth:`accounts.models.User.save` when a user's password changed (the admin,
``changepassword``, the password change and reset forms, any ``set_password`` followed by a save), with
``user``; not when sign-in re-hashes the same password. It is sent inside the save: a receiver that acts on
other processes defers with ``transaction.on_commit`` (the live sockets do: :mod:`corr.live.sessions`).
accounts imports nothing of corr, so corr connects here rather than being called from here (STYLE 15).
"""

from django.dispatch import Signal

password_changed = Signal()
