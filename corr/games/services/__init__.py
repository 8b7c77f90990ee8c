"""Services: every write of the correspondence domain (STYLE 5).

Each service takes keyword-only arguments, runs in one transaction, locks the
game row (so two submissions of one move are serialised: the second finds the
turn gone and gets 409), validates the whole game with the calculator before
storing anything, and updates the stored clocks in the same transaction.
``today`` is always a parameter: the edge reads the clock once.
"""


from .arbiters import (  # noqa: F401
    CORRECTABLE, delay_assess, event_correct, event_withdraw, game_finish, game_reopen, penalty_assess,
    start_notice_record,
)
from .credits import credit_give, gift_give  # noqa: F401
from .participants import move_store, move_submit, notice_submit, receipt_record  # noqa: F401
from .setup import (  # noqa: F401
    arbiter_grant, game_create, participant_create, tournament_create, tournament_rules_apply, tournament_rules_change,
)
from .storage import (  # noqa: F401
    CLOCK_FIELDS, clock_fields, clock_store, clocks_write, game_lock, game_recompute, time_for_storage,
)
from .lock_read import Locked, game_lock_read  # noqa: F401
from .long_move import long_move_declare  # noqa: F401
from .server_time import calendar_set, pause_take, time_give, vacation_book  # noqa: F401
from .results import draw_claim, draw_offer_accept, draw_offer_decline, draw_offer_make, game_resign  # noqa: F401
from .imports import ImportRefused, import_checked, tournament_pgn_import  # noqa: F401
