"""Services: every write of the correspondence domain (STYLE 5).

Each service takes keyword-only arguments, runs in one transaction, locks the
game row (so two submissions of one move are serialised: the second finds the
turn gone and gets 409), validates the whole game with the calculator before
storing anything, and updates the stored clocks in the same transaction.
``today`` is always a parameter: the edge reads the clock once.
"""


from .arbiters import (  # noqa: F401
    CORRECTABLE, delay_assess, event_correct, event_withdraw, game_finish, penalty_assess, start_notice_record,
)
from .participants import move_submit, notice_submit, receipt_record  # noqa: F401
from .setup import arbiter_grant, game_create, participant_create, tournament_create  # noqa: F401
from .storage import CLOCK_FIELDS, clock_fields, clock_store, clocks_write, time_for_storage  # noqa: F401
