"""The players of an imported PGN matched to accounts (issue 37): a username, or a mapping the arbiter confirms.

corr's own exports name players by username, so their ``White``/``Black`` tags are accounts. An ICCF or
SchemingMind export names them as people (``Mäkinen, Eero``), which no username can be: such a name is matched
to an account through a mapping the arbiter confirms (the import page, or the API's ``players``). This module
proposes the candidates: the account whose full name is the name, in either order (``Mäkinen, Eero`` is
``Eero Mäkinen``), whose e-mail is the name, or whose ICCF id the PGN gives (``WhiteIccfId``/``BlackIccfId``, as
ICCF's own exports write it) — and it never chooses for the arbiter, even when one candidate alone fits.
"""

from __future__ import annotations

import io
import re
import unicodedata
from functools import lru_cache

import chess.pgn
from django.db.models import Q
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from accounts.models import User

from ..errors import InvalidInput

FIELD = "players"


TAGS = ("White", "Black", "WhiteIccfId", "BlackIccfId")


@lru_cache(maxsize=1)
def pgn_tags(pgn: str) -> tuple[dict[str, str], ...]:
    """Each game's player tags (``TAGS``), read by the tags alone (python-chess skips the moves).

    An upload is read so three times in its request (the games counted, the names matched, the background
    decided): kept for the last text read, so the 2 MB of an event's PGN is parsed once, not thrice.
    """
    stream, games = io.StringIO(pgn), []
    while (headers := chess.pgn.read_headers(stream)) is not None:
        games.append({tag: headers.get(tag, "") for tag in TAGS})
    return tuple(games)


def pgn_players(pgn: str) -> dict[str, str]:
    """Every player named in ``pgn`` (``White``, ``Black``), with the ICCF id its tags give (blank: none)."""
    found: dict[str, str] = {}
    for headers in pgn_tags(pgn):
        for side in ("White", "Black"):
            name = headers.get(side, "").strip()
            if name:
                found[name] = found.get(name) or headers.get(f"{side}IccfId", "").strip()
    return found


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).casefold().split())


def _name_orders(name: str) -> set[str]:
    """``Mäkinen, Eero`` as a full name may be written: ``mäkinen eero`` and ``eero mäkinen``."""
    parts = [part.strip() for part in name.split(",") if part.strip()]
    return {_folded(" ".join(parts)), _folded(" ".join(reversed(parts)))}


def candidates(name: str, iccf_id: str = "") -> list[User]:
    """The accounts ``name`` may be: by full name in either order, by e-mail, by ICCF id; sorted by username."""
    query = Q(email__iexact=name) if "@" in name else Q(pk__in=[])
    if iccf_id:
        query |= Q(iccf_id=iccf_id)
    words = [word for word in re.split(r"[\s,]+", name) if word]
    if words:
        named = User.objects.filter(is_active=True).filter(
            *[Q(first_name__icontains=w) | Q(last_name__icontains=w) for w in words[:3]])
        orders = _name_orders(name)
        query |= Q(pk__in=[u.pk for u in named[:50] if _folded(u.get_full_name()) in orders])
    return list(User.objects.filter(query, is_active=True).order_by("username"))


def unmatched(pgn: str, players: dict[str, str]) -> list[dict]:
    """The names of ``pgn`` that are no username and that ``players`` (name to username) does not map, each with
    its candidates' usernames and the ICCF id the PGN gives: what the arbiter still has to match."""
    names = pgn_players(pgn)
    usernames = set(User.objects.filter(username__in=list(names)).values_list("username", flat=True))
    return [{"name": name, "iccf_id": iccf, "candidates": [u.username for u in candidates(name, iccf)]}
            for name, iccf in names.items() if name not in usernames and name not in players]


def mapping_checked(players) -> dict[str, str]:
    """``players`` as the API or the page sent it: {name in the PGN: an existing account's username}.

    :raises InvalidInput: (``field: "players"``) not such a mapping, or a username with no account.
    """
    if players in (None, ""):
        return {}
    if not isinstance(players, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                for k, v in players.items()):
        raise InvalidInput(_("players must map each name of the PGN to an account's username:"
                             " {\"Mäkinen, Eero\": \"eero\"}"), field=FIELD)
    known = set(User.objects.filter(username__in=list(players.values())).values_list("username", flat=True))
    missing = sorted({v for v in players.values() if v not in known})
    if missing:
        raise InvalidInput(_("players: no account %(names)s"), field=FIELD, names=", ".join(map(repr, missing)))
    return dict(players)


def account_for(name: str, iccf_id: str = "") -> User:
    """A new account for the player ``name`` (the arbiter chose to create it): a free username made of the name,
    the name as first and last name, the ICCF id; no password (the player sets one through a reset) and no
    e-mail until the player or an arbiter adds one."""
    parts = [part.strip() for part in name.split(",") if part.strip()]
    last, first = (parts[0], " ".join(parts[1:])) if len(parts) > 1 else ("", name.strip())
    base = slugify(f"{first} {last}".strip()) or "player"
    username, n = base[:140], 1
    while User.objects.filter(username=username).exists():
        n += 1
        username = f"{base[:140]}-{n}"
    user = User(username=username, first_name=first[:150], last_name=last[:150], iccf_id=iccf_id[:12])
    user.set_unusable_password()
    user.save()
    return user
