"""Conditional moves (issue 28): the line of play a player sent with their move, pending until it fires."""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from corr import limits as lim

from .games import Colour, Game


class ConditionalTree(models.Model):
    """A player's pending conditional moves in a server game: one tree per player and game.

    ``tree``: the branches at the current level, ``[{"if": SAN, "then": SAN, "next": [...]}, ...]``
    (``if`` the partner's move, ``then`` the owner's reply, SAN as python-chess writes it; in draughts
    ``c3-d4`` and ``c3:e5`` as ``corr.live.position.draughts_move`` writes them). When the
    partner's move matches an ``if``, the reply is played and ``tree`` becomes that branch's ``next``
    (the row is deleted when it is empty); any other move deletes the row. ``sent_with_move``: the
    owner's move the line was sent with (the history says "from the line sent with move N").
    ``awaiting``: the partner's move that matched while the owner could not move (on leave where the
    tournament refuses moves on leave): the reply waits for the owner; blank otherwise.
    ``position``: the position ``tree`` is read from (the partner to move; before ``awaiting``): its FEN in chess,
    pydraughts' FEN and the number of the move to come in draughts (``corr.games.boards``, ``Board.key``), and
    ``reopens``: the game's reopenings when the tree was written. A tree fires only while the game's position
    is that one (after ``awaiting``) and the game has not been reopened since (``corr.games.conditional.
    tree_changed``); blank ``position``: a tree written before positions were kept, not checked.
    Read by the owner only: never by the partner, an export or a feed.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="conditional_trees")
    player = models.CharField(max_length=5, choices=Colour.choices)
    tree = models.JSONField()
    sent_with_move = models.PositiveIntegerField()
    awaiting = models.CharField(max_length=lim.NOTATION_MAX, blank=True, default="")  # a draughts multi-jump
    # The board's key the tree was written on: 400 as LiveGame.position's, a Go position being 19 rows of 19 points,
    # the side and the ko (issue 40: Go's conditional moves; a chess FEN fitted 200).
    position = models.CharField(max_length=400, blank=True, default="")
    reopens = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="one_conditional_tree_per_player"),
        ]

    def __str__(self) -> str:
        return f"game {self.game_id} {self.player}'s conditional moves (sent with move {self.sent_with_move})"
