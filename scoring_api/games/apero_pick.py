"""Apero advice: which table card to take (docs/rules/apero.md, Picking a card).

For every distinct card face up on the table: what taking it adds to my score, and what it
would add to each other player's (the card I take is the card they cannot have). The
rules decide nothing here; the answer shows the trade-off exactly and ranks it.
"""

from __future__ import annotations

from typing import NamedTuple

from .apero import COLORS, ColorScore, check_cards, score_color, values_by_color
from .names import check_unique_names
from .rule_error import RuleError

Card = tuple[str, int]  # (colour id, value)
Player = tuple[str, list[Card]]


class PickOption(NamedTuple):
    card: Card
    gain: int  # my score with the card minus my score now
    color: ColorScore  # my colour of the card, with the card
    gains: tuple[tuple[str, int], ...]  # (name, gain) of every other player, in request order

    @property
    def denied(self) -> int:
        """The largest gain the card would give an opponent (0 without opponents)."""
        return max((gain for _, gain in self.gains), default=0)


def pick(players: list[Player], me: str, table: list[Card], sets: int) -> tuple[PickOption, ...]:
    """One option per distinct table card, best first: by my gain, then by the largest gain
    it denies an opponent, then in deck order (docs/rules/apero.md, Picking a card).

    Refused (What is refused): a name used twice, ``me`` not among the players
    (``unknown_me`` at ``("me",)``), and a card past the deck, the table's cards counted
    with the hands (:func:`~.apero.check_cards`)."""
    check_unique_names(name for name, _ in players)
    names = [name for name, _ in players]
    if me not in names:
        raise RuleError("unknown_me", ("me",), me=me, names=names)
    check_cards(players, sets, table)
    held = {name: values_by_color(cards) for name, cards in players}
    now = {
        name: {color: score_color(color, values).score for color, values in colors.items()}
        for name, colors in held.items()
    }

    def gain(name: str, card: Card) -> tuple[int, ColorScore]:
        color, value = card
        scored = score_color(color, [*held[name][color], value])
        return scored.score - now[name][color], scored

    options = []
    for card in dict.fromkeys(table):  # distinct cards, in table order
        mine, scored = gain(me, card)
        others = tuple((name, gain(name, card)[0]) for name in names if name != me)
        options.append(PickOption(card, mine, scored, others))
    deck_order = {color: index for index, color in enumerate(COLORS)}
    options.sort(key=lambda o: (-o.gain, -o.denied, deck_order[o.card[0]], o.card[1]))
    return tuple(options)
