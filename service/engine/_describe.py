"""The board described in words, for players who cannot see it, in exactly the documents' format:

«Mazo: 23 cartas; descarte: 7 de diamantes. Fila 1: jota de diamantes; fila 2: 6 de tréboles,
7 de corazones; […]» (000), «Mazzo di pesca: 23 carte; scarti: 7 di quadri. Fila 1: fante di
quadri; […]» (002). Only the waste's top card is named; removed cards are left out of their row; a
row with no card left is said to be empty («fila 7: vacía»), as is an empty waste («descarte: vacío»).
"""

from __future__ import annotations

from ..locales import translate, translate_plural

from ._cards import Card
from ._play import waste_piles
from ._state import GameState


def card_name(card: Card, language: str = "en") -> str:
    """«7 de diamantes», «jota de diamantes», «as de picas»; «fante di quadri»; «queen of spades».
    The Spanish deck's cards: «sota de oros», «7 de copas», «rey de bastos». Both copies of a card
    (Pharaoh's two decks) have the same name."""
    names = card.deck.names  # the catalogue keys of the deck's names
    rank = translate(language, f"{names}.rank.{card.rank}") if card.rank in card.deck.named else str(card.rank)
    return translate(language, f"{names}.name", rank=rank, suit=translate(language, f"{names}.suit.{card.suit}"))


def describe(state: GameState, language: str = "en") -> str:
    t = translate
    stock = translate_plural(language, "describe.stock", len(state.stock))
    if state.piles:  # Apophis: «Tres pilas de descarte en fila», each by its top card
        waste = t(language, "describe.row_separator").join(
            t(language, "describe.waste_pile", n=number, card=card_name(pile[-1], language))
            if pile
            else t(language, "describe.waste_pile_empty", n=number)
            for number, pile in enumerate(waste_piles(state), 1)
        )
    else:
        waste = (
            t(language, "describe.waste", card=card_name(state.waste[-1], language))
            if state.waste
            else t(language, "describe.waste_empty")
        )
    rows = []
    for number, row in enumerate(state.rows, 1):
        names = [card_name(card, language) for card in row if card is not None]
        if names:
            rows.append(t(language, "describe.row", n=number, cards=t(language, "describe.card_separator").join(names)))
        else:
            rows.append(t(language, "describe.row_empty", n=number))
    text = t(language, "describe.row_separator").join(rows)
    return t(language, "describe.board", stock=stock, waste=waste, rows=text[:1].upper() + text[1:])
