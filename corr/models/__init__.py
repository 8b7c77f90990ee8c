"""corr's models: the games and their events (``games``), and the nightly work (``nightly``)."""

from .games import (  # noqa: F401
    PlayerCalendar, PlayerCalendars,
    NOTATION_EXAMPLES, RECORD_KINDS, Colour, EventKind, Game, GameEvent, GameKind, GameResult, GameStatus,
    IdempotencyRecord, Mail, Mode,
    PlayerClock, Timeouts, Tournament,
)
from .nightly import (  # noqa: F401
    CaseKind, DeadlineReminder, EmailStatus, NightlyReport, NightlyRun, OutboundEmail, OverstepCase, OverstepStatus,
    TimeTroubleNotice,
)
from .feeds import CalendarFeed  # noqa: F401
from .leave import AllowancePer, Leave, MoveOnLeave  # noqa: F401
from .conditional import ConditionalTree  # noqa: F401
from .live import (  # noqa: F401
    LIVE_CLOCK_KINDS, LIVE_TEXT_MAX, LiveEvent, LiveEventKind, LiveGame, LiveHeartbeat, ServiceOutage,
)
from .imports import ImportJob, ImportStatus  # noqa: F401
from .invitations import Invitation  # noqa: F401
