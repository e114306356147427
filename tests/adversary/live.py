"""Liveness: for each mutant, a short game whose observation differs between the reference engine
and the mutant. A mutant that no check tells apart from the reference changes nothing a client
can see, and is a defect of the mutant, not a survivor of the kit.

Every game here is one a client can play: dealt from a code or an explicit layout (the documents'
deal, the kit's named deals in ``features/deals.json``, or a layout placing a few cards), then
moves, each sent as the API sends them (the state through ``to_json`` and ``GameState.from_json``,
which replays its log, then ``play``). Nothing is built by hand.

    python -m tests.adversary.live NAME      # the reference's observation, then the mutant's
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any, Callable

from service import engine as E
from service.engine import DECK, DOCUMENTS_LAYOUT, Card, GameState, Layout, Move, PyramideError, Rules
from service.locales import translate

C = Card.parse
DEALS = Path(__file__).resolve().parents[2] / "features" / "deals.json"


# -- Deals ---------------------------------------------------------------------------------------


def deal_at(placed: dict[int, str], rules: Rules = Rules()) -> Layout:
    """The canonical deck with the cards ``placed`` at those places of the deal (0…27 the pyramid,
    row by row; then the waste card, if any, then the stock from its top)."""
    fixed = {place: C(code) for place, code in placed.items()}
    rest = iter(card for card in DECK if card not in fixed.values())
    return Layout.from_deck(tuple(fixed[i] if i in fixed else next(rest) for i in range(52)), rules)


@cache
def named(name: str, traditional: bool = False) -> Layout:
    """A named deal of the kit; ``traditional``: its waste card put on top of its stock."""
    data = json.loads(DEALS.read_text(encoding="utf-8"))[name]
    layout = Layout.from_json(
        {"pyramid": [row.split() for row in data["pyramid"]], "waste": data["waste"].split(), "stock": data["stock"].split()}
    )
    return Layout(layout.pyramid, (), layout.waste + layout.stock) if traditional else layout


def new(layout: Layout = DOCUMENTS_LAYOUT, rules: Rules | None = None, error_help: bool = True) -> GameState:
    return GameState.new(layout=layout, rules=rules, error_help=error_help)


def docs(**rules: Any) -> GameState:
    """The documents' deal, under the app's rules with these options changed."""
    return new(rules=Rules(**rules) if rules else None)


def deal(name: str, traditional: bool = False, error_help: bool = True, **rules: Any) -> GameState:
    rules_ = Rules(initial_waste=not traditional, **rules)
    return new(named(name, traditional), rules_, error_help)


# -- Playing, as the API does ---------------------------------------------------------------------


def summary(turn) -> dict:
    return {
        "state": {k: v for k, v in turn.state.to_json().items() if k not in ("code", "rules")},
        "events": [e.to_json() for e in turn.events],
        "feedback": turn.feedback,
    }


def sent(state: GameState) -> GameState:
    """The state as a request brings it back: its JSON, read by ``from_json`` (which replays its log)."""
    return GameState.from_json(json.loads(json.dumps(state.to_json())))


def run(state: GameState, moves: list[str]) -> list:
    """Each move's answer: the state, events and feedback, or the refusal's code."""
    out = []
    for text in moves:
        try:
            turn = E.play(sent(state), Move.from_text(text))
            state = turn.state
            out.append([text, summary(turn)])
        except PyramideError as error:
            out.append([text, {"error": error.code, "detail": error.detail}])
    return out


def final(state: GameState, moves: list[str]):
    return run(state, moves)[-1]


def play_to(state: GameState, moves: list[str]) -> GameState:
    for text in moves:
        state = E.play(sent(state), Move.from_text(text)).state
    return state


def legal(state: GameState) -> list[str]:
    try:
        return [str(m) for m in E.legal_moves(sent(state))]
    except PyramideError as error:
        return [error.code, error.detail]


def describe(state: GameState, language: str) -> str | list:
    try:
        return E.describe(sent(state), language)
    except PyramideError as error:
        return [error.code, error.detail]


def _try(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except PyramideError as error:
        return [error.code, error.detail]


def _code(code: str) -> Any:
    return _try(lambda: (lambda state: [state.code, [c.code for c in state.pyramid[:3]]])(GameState.new(code)))


# -- Lines of play (found with the reference engine) ---------------------------------------------

DRAW_ALL = ["draw"] * 23
CYCLE1 = DRAW_ALL + ["recycle"]
CYCLE = ["draw"] * 24 + ["recycle"]
#: The bottom row of A-2 cards (nothing pairs before the stock runs out) and 3♣ last in the stock.
STUCK = {21: "AC", 22: "AD", 23: "AH", 24: "AS", 25: "2C", 26: "2D", 27: "2H", 51: "3C"}
#: 7♦ dealt onto the waste, 6♣ the first card drawn (they sum 13), A♣ next, Q♦ free in the pyramid.
DRAWN = {28: "7D", 29: "6C", 30: "AC", 21: "QD"}
DRAWN_RULES = Rules(drawn_pairs_with_waste=True)

#: The kit's «easy» deal: the pyramid cleared in 16 moves without touching the stock.
EASY = "KC AC+QC 4C+9C KD 2C+JC 5C+8C AD+QD 3D+TD 3C+TC 6C+7C 2D+JD 4D+9D KH 5D+8D 6D+7D KS".split()
_PAIRING = (
    "AC+QC draw AD+QD draw AH+QH draw AS+QS draw JC+2S draw 2C+JD draw 2D+JH draw 2H+JS draw 3C+TC draw "
    "3D+TD draw 3H+TH draw 3S+TS draw 9C+4D draw 9D+4H draw 9H+4S draw 4C+9S draw 8C+5H draw 8D+5S"
).split()
#: «clearing»: all 52 cards go; the last move pairs the top card 6♣ with the waste top 7♥.
CLEARING = _PAIRING + "KC draw 5C+8H draw 5D+8S 6S+7S KD draw KH draw KS draw 7D+6H 7C+6D draw 6C+7H".split()
#: «clearing_king»: the pyramid cleared (by 6C+7H) with K♠ still in the stock; then drawn and removed.
CLEARING_KING = _PAIRING + "KC draw 5C+8H draw 5D+8S 6S+7S KD draw KH draw 7D+6H 7C+6D draw 6C+7H".split()
#: «draining»: the last move, a King of the waste, empties stock and waste and blocks the game.
DRAINING = _PAIRING + "draw 5C+8H draw 5D+8S 6C+7S draw KC draw KD draw KH draw KS".split()
#: «apex»: then the top card 2♥ is covered by 6♥ alone, J♠ on the waste.
APEX = "AC+QC 2C+JC 3C+TC 4C+9C 5C+8C KC 6C+7C AD+QD 2D+JD KD 3D+TD KH".split()


def _undo_count() -> list:
    """How many undos in a row are accepted after 101 actions."""
    state = play_to(docs(), CYCLE1 + CYCLE * 3 + ["draw"] * 2)
    ok = 0
    for _ in range(110):
        try:
            state = E.play(sent(state), Move.undo()).state
            ok += 1
        except PyramideError as error:
            return [ok, error.code]
    return [ok, None]


def _blocked_events() -> list:
    turn = E.play(sent(play_to(deal("draining"), DRAINING[:-1])), Move.from_text(DRAINING[-1]))
    return [turn.state.status, turn.feedback, [e.to_json() for e in turn.events]]


# -- Variants of another shape (003): Pharaoh and the Spanish pyramid ----------------------------

PHARAOH = {"rows": 10}
SPANISH = {"deck": "spanish"}
#: «pharaoh_easy»: row 10 cleared but for 3♠'s partner 10♣ (then free with the waste's 3♠).
PHARAOH_ROW10 = "7D+6C2 7D2+6S AC+QC2 AC2+QD2 2C2+JC2".split()


def arranged(rules: Rules, placed: dict[int, str]) -> Layout:
    """The rules' cards in canonical order with the cards ``placed`` at those places of the deal."""
    fixed = {place: C(code) for place, code in placed.items()}
    rest = iter(card for card in rules.cards if card not in fixed.values())
    return Layout.from_deck(tuple(fixed[i] if i in fixed else next(rest) for i in range(len(rules.cards))), rules)


def _layout_json(name: str, change: Callable[[str], str]) -> dict:
    data = json.loads(DEALS.read_text(encoding="utf-8"))[name]
    return {
        "pyramid": [[change(c) for c in row.split()] for row in data["pyramid"]],
        "waste": [change(c) for c in data["waste"].split()],
        "stock": [change(c) for c in data["stock"].split()],
    }


def _from_json_layout(data: dict, rules: Rules) -> Any:
    """A layout sent as JSON (``POST /v1/games``): the stock's top cards of the game, or the refusal."""
    return _try(lambda: [c.code for c in new(Layout.from_json(data), rules).stock[:3]])


def _refusal_message(state: GameState, text: str, language: str) -> Any:
    try:
        E.play(sent(state), Move.from_text(text))
        return "accepted"
    except PyramideError as error:
        return [error.code, error.message(language)]


#: A Spanish deal whose row 7 pairs only 6 + 6; the stock's last card 3 de oros pairs with nothing free.
SPANISH_SIX_SIX = {21: "6OR", 22: "6CO", 23: "1OR", 24: "1CO", 25: "1ES", 26: "1BA", 27: "2OR", 47: "3OR"}


# -- One check per mutant -------------------------------------------------------------------------

CHECKS: dict[str, Callable[[], Any]] = {
    # La preparación
    "random_deal_no_waste_card": lambda: [(len(s.waste), len(s.stock)) for s in [GameState.new(rules=Rules())]],
    "traditional_random_deal_turns_waste": lambda: [
        (len(s.waste), len(s.stock)) for s in [GameState.new(rules=Rules(initial_waste=False))]
    ],
    # Las cartas libres
    "free_when_either_cover_gone": lambda: run(docs(), ["KD", "tap:JS", "tap:TS"]),
    "rightmost_card_half_covered": lambda: run(docs(), ["KD", "tap:JS", "tap:TS"]),
    "waste_second_pairs_with_pyramid": lambda: run(docs(), ["draw", "draw", "draw", "TC+3C", "undo"]),
    "deep_waste_tap_says_blocked": lambda: final(docs(), ["draw", "tap:7D"]),
    "blocked_tap_drops_selection": lambda: final(docs(), ["tap:7C", "tap:QC"]),
    "blocked_feedback_ignores_error_help": lambda: final(new(error_help=False), ["tap:2C"]),
    "blocked_message_it_paraphrased": lambda: translate("it", "card_blocked"),
    "error_help_reset_by_draw": lambda: final(new(error_help=False), ["draw", "tap:2C"]),
    "error_help_off_mutes_sum_message": lambda: final(new(error_help=False), ["tap:7C", "tap:7S"]),
    # Las parejas
    "sum_modulo_13": lambda: final(new(deal_at({21: "KC", 22: "KD"})), ["KC+KD"]),
    "ace_high": lambda: final(new(deal_at({21: "AC", 22: "QD"})), ["AC+QD"]),
    "same_suit_tap_deselects": lambda: final(new(deal_at({21: "6C", 22: "7C"})), ["tap:6C", "tap:7C"]),
    "sum_not_13_keeps_first": lambda: final(docs(), ["tap:7C", "tap:7S"]),
    "sum_not_13_message_fr": lambda: translate("fr", "sum_not_13"),
    "sum_not_13_no_selected_event": lambda: final(docs(), ["tap:7C", "tap:7S"]),
    "king_tap_with_selection_sum_not_13": lambda: final(docs(), ["tap:7C", "tap:KD"]),
    "waste_king_move_refused": lambda: final(new(deal_at({28: "KC"})), ["KC"]),
    "waste_king_tap_selects": lambda: run(new(deal_at({28: "KC"})), ["tap:KC", "draw"]),
    "waste_top_second_tap_no_pair": lambda: final(docs(), ["draw", "draw", "tap:TC", "tap:3C"]),
    "waste_top_pairs_with_covered_card": lambda: [
        final(docs(), ["draw", "AC+QC"]),
        final(docs(), ["draw", "tap:AC", "tap:QC"]),
    ],
    # El mazo y el descarte
    "draw_keeps_covered_waste_selected": lambda: final(docs(), ["tap:7D", "draw"]),
    "draw_clears_selection": lambda: final(docs(), ["tap:7C", "draw"]),
    "tap_stock_with_selection_only_deselects": lambda: final(docs(), ["tap:7C", "tap:stock"]),
    "tap_stock_never_recycles": lambda: final(docs(), DRAW_ALL + ["tap:stock"]),
    "tap_stock_last_card_says_empty": lambda: final(docs(), ["draw"] * 22 + ["tap:stock"]),
    "tap_stock_checks_waste_first": lambda: final(
        new(Layout.from_deck(DECK, Rules(initial_waste=False)), Rules(initial_waste=False)), ["tap:stock"]
    ),
    "second_recycle_reversed": lambda: final(docs(), CYCLE1 + CYCLE),
    "recycle_allowed_with_stock": lambda: final(docs(), ["draw", "recycle"]),
    "recycle_not_counted_as_move": lambda: final(docs(), DRAW_ALL + ["recycle"]),
    "undo_counts_as_move": lambda: final(docs(), ["draw", "undo"]),
    "select_tap_counts_as_move": lambda: final(docs(), ["tap:7C"]),
    "refused_tap_counts_as_move": lambda: final(docs(), ["tap:7C", "tap:7S"]),
    "king_tap_not_counted": lambda: final(docs(), ["tap:KD"]),
    "recycle_limit_off_by_one": lambda: final(docs(max_recycles=1), CYCLE1 + CYCLE),
    "zero_recycles_means_unlimited": lambda: final(docs(max_recycles=0), DRAW_ALL + ["recycle"]),
    "unlimited_recycles_capped_at_two": lambda: final(docs(), CYCLE1 + CYCLE * 2),
    "no_recycles_left_says_stock_empty": lambda: final(docs(max_recycles=0), DRAW_ALL + ["tap:stock"]),
    "limited_passes_never_blocked": lambda: final(new(deal_at(STUCK), Rules(max_recycles=0)), DRAW_ALL),
    "blocked_though_waste_can_recycle": lambda: final(new(deal_at(STUCK)), DRAW_ALL),
    # with no recycle left, the stock drawn out: the waste counts as nothing left to recycle
    "blocked_checks_kings_only": lambda: final(deal("easy", max_recycles=0), ["KC"] + DRAW_ALL),
    "blocked_feedback_missing_on_tap": lambda: final(deal("draining"), DRAINING[:-1] + ["tap:KS"]),
    "blocked_message_es_paraphrased": lambda: translate("es", "blocked"),
    "legal_moves_omit_waste_top": lambda: legal(play_to(docs(), ["draw", "draw"])),
    "legal_moves_recycle_past_limit": lambda: legal(play_to(docs(max_recycles=0), DRAW_ALL)),
    # El final de la partida
    "app_win_needs_empty_stock": lambda: final(deal("clearing_king"), CLEARING_KING),
    "strict_win_ignores_waste": lambda: final(deal("easy", strict_win=True), DRAW_ALL + EASY),
    "strict_win_ignored": lambda: final(deal("easy", strict_win=True), EASY),
    "strict_win_not_on_waste_removal": lambda: final(deal("clearing_king", strict_win=True), CLEARING_KING + ["draw", "KS"]),
    "win_missed_on_waste_pair": lambda: final(deal("clearing"), CLEARING),
    "won_event_missing_on_tap": lambda: final(deal("clearing"), CLEARING[:-1] + ["tap:6C", "tap:7H"]),
    "won_game_accepts_draw": lambda: final(deal("easy"), EASY + ["draw"]),
    "undo_after_win_allowed": lambda: final(deal("easy"), EASY + ["undo"]),
    "blocked_game_undo_refused": lambda: final(deal("draining"), DRAINING + ["undo"]),
    # La puntuación
    "waste_pair_worth_20": lambda: final(docs(), ["draw", "draw", "TC+3C"]),
    "waste_king_worth_10": lambda: final(new(deal_at({28: "KC"})), ["KC"]),
    "recycle_costs_100": lambda: final(docs(), ["KD"] + DRAW_ALL + ["recycle"]),
    "removed_event_points_pair_constant": lambda: final(docs(), ["draw", "draw", "TC+3C"]),
    # Deshacer y código de partida
    "undone_event_points_positive": lambda: final(docs(), ["KD", "undo"]),
    "undo_limit_99": _undo_count,
    "undo_limit_101": _undo_count,
    "undo_king_keeps_points": lambda: final(docs(), ["KD", "undo"]),
    "undo_recycle_keeps_count": lambda: final(docs(), DRAW_ALL + ["recycle", "undo"]),
    "undo_waste_pair_card_to_stock": lambda: final(docs(), ["draw", "draw", "TC+3C", "undo"]),
    "undo_draw_to_stock_bottom": lambda: final(docs(), ["draw", "draw", "undo"]),
    "undo_keeps_selection": lambda: final(docs(), ["tap:7C", "draw", "undo"]),
    "undo_drawn_pair_swaps_waste": lambda: final(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "6C+7D", "undo"]),
    "pasted_code_not_uppercased": lambda: _code("py1-n-aaaaaas"),
    "pasted_code_not_trimmed": lambda: _code(" PY1-N-AAAAAAS "),
    "describe_names_bottom_waste": lambda: describe(play_to(docs(), ["draw"]), "es"),
    # the bottom row emptied
    "describe_emptied_row_blank": lambda: describe(play_to(deal("easy"), ["KC", "AC+QC", "2C+JC", "3C+TC"]), "es"),
    "pair_move_keeps_removed_selection": lambda: run(docs(), ["tap:TC", "TC+3S", "draw"]),
    "recycled_event_cards_reversed": lambda: final(docs(), DRAW_ALL + ["recycle"]),
    "no_deselected_event": lambda: final(docs(), ["tap:7C", "tap:7C"]),
    # Variantes
    "drawn_pairs_variant_ignored": lambda: final(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "6C+7D"]),
    "drawn_pairs_any_time": lambda: final(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "draw", "AC+QD", "6C+7D"]),
    "drawn_pairs_tap_refused": lambda: final(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "tap:6C", "tap:7D"]),
    "covering_variant_ignored": lambda: final(docs(pair_with_covering=True), ["KD", "TS+3S"]),
    "covering_pair_with_either_cover": lambda: final(docs(pair_with_covering=True), ["TS+3S"]),
    "covering_variant_tap_refused": lambda: final(docs(pair_with_covering=True), ["KD", "tap:3S", "tap:TS"]),
    "app_pairs_with_single_cover": lambda: final(docs(), ["KD", "TS+3S"]),
    # second batch
    "jack_worth_10": lambda: [
        final(new(deal_at({21: "JC", 22: "3D"})), ["JC+3D"]),
        final(new(deal_at({21: "JC", 22: "2D"})), ["2D+JC"]),
    ],
    # «draining» up to the draw of its last card, K♠, alone on the waste
    "recycle_single_card_refused": lambda: [
        final(deal("draining"), DRAINING[:-1] + ["recycle"]),
        final(deal("draining"), DRAINING[:-1] + ["tap:stock"]),
    ],
    "tap_stock_recycle_not_counted": lambda: run(docs(), DRAW_ALL + ["tap:stock", "draw"]),
    "undo_pair_swaps_slots": lambda: final(docs(), ["TC+3S", "undo"]),
    "code_rewritten_as_layout_after_move": lambda: play_to(GameState.new("PY1-N-AAAAAAS"), ["draw"]).code,
    "limit_above_one_ignored": lambda: final(docs(max_recycles=2), CYCLE1 + CYCLE * 2),
    "drawn_pairs_lost_after_pyramid_removal": lambda: final(
        new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "KD", "6C+7D"]
    ),
    "traditional_layout_needs_waste": lambda: _try(
        lambda: len(new(Layout.from_deck(DECK, Rules(initial_waste=False)), Rules(initial_waste=False)).stock)
    ),
    "error_help_false_ignored_at_new_game": lambda: GameState.new(layout=DOCUMENTS_LAYOUT, error_help=False).error_help,
    "legal_moves_no_undo": lambda: legal(play_to(docs(), ["draw"])),
    "tap_removed_card_ignored": lambda: final(docs(), ["KD", "tap:KD"]),
    "blocked_tap_stock_feedback": lambda: final(deal("draining"), DRAINING + ["tap:stock"]),
    "tap_pair_scores_10": lambda: run(docs(), ["tap:TC", "tap:3S", "draw"]),
    "pair_move_non13_wrong_code": lambda: final(docs(), ["7C+7S"]),
    "describe_stock_plural_always": lambda: describe(play_to(docs(), ["draw"] * 22), "es")[:40],
    "traditional_stock_starts_with_points": lambda: GameState.new(rules=Rules(initial_waste=False)).score,
    # third batch
    "history_slots_zero_based": lambda: play_to(docs(), ["KD", "TC+3S"]).to_json()["history"],
    "history_waste_written_W1": lambda: play_to(docs(), ["draw", "draw", "TC+3C"]).to_json()["history"],
    "strict_win_ignores_stock": lambda: final(deal("easy", traditional=True, strict_win=True), EASY),
    "undo_waste_pair_subtracts_20": lambda: final(docs(), ["KD", "draw", "draw", "TC+3C", "undo"]),
    "undo_keeps_blocked_status": lambda: final(deal("draining"), DRAINING + ["undo"]),
    "last_draw_not_counted": lambda: final(docs(), DRAW_ALL),
    "waste_top_reselect_not_deselected": lambda: final(docs(), ["tap:7D", "tap:7D"]),
    "pair_move_clears_other_selection": lambda: final(docs(), ["tap:7C", "TC+3S"]),
    "describe_empty_waste_it_wrong": lambda: describe(
        new(Layout.from_deck(DECK, Rules(initial_waste=False)), Rules(initial_waste=False)), "it"
    )[:40],
    "describe_removed_leaves_gap": lambda: describe(play_to(docs(), ["KD"]), "es")[-80:],
    "legal_moves_draw_instead_of_recycle": lambda: legal(play_to(docs(), DRAW_ALL)),
    "legal_moves_list_waste_second_pair": lambda: legal(play_to(new(deal_at(DRAWN)), ["draw"])),
    "conflicting_deal_accepted": lambda: _try(lambda: GameState.new("PY1-N-AAAAAAS", rules=Rules(strict_win=True)).code),
    "random_deal_ignores_rules": lambda: GameState.new(rules=Rules(max_recycles=0)).rules.max_recycles,
    "waste_king_tap_with_selection_refused": lambda: final(new(deal_at({28: "KC"})), ["tap:3H", "tap:KC"]),
    "drawn_pairs_not_with_dealt_card": lambda: final(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "6C+7D"]),
    "covering_half_free_pairs_anything": lambda: final(docs(pair_with_covering=True), ["KD", "TS+3H"]),
    "preset_traditional_without_strict": lambda: (E.PRESETS["traditional"].strict_win, E.Rules.preset("traditional").strict_win),
    "won_event_missing_on_pair_move": lambda: final(deal("clearing"), CLEARING),
    "blocked_event_missing": _blocked_events,
    "pair_move_non13_as_feedback": lambda: final(docs(), ["7C+7S"]),
    "covered_tap_is_422": lambda: final(docs(), ["tap:QC"]),
    "empty_stock_tap_counts_move": lambda: run(docs(max_recycles=0), DRAW_ALL + ["tap:stock", "KD"])[-2:],
    "undo_event_action_text_wrong": lambda: final(docs(), ["TC+3S", "undo"]),
    "drawn_event_reports_next_card": lambda: final(docs(), ["draw"]),
    # fourth batch
    "apex_half_covered": lambda: [final(deal("apex"), APEX + ["tap:2H"]), final(deal("apex"), APEX + ["2H+JS"])],
    "leftmost_card_half_covered": lambda: final(docs(), ["TC+3S", "tap:QC"]),
    "drawn_pairs_off_after_recycle": lambda: final(
        new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), DRAW_ALL + ["recycle", "draw", "draw", "6C+7D"]
    ),
    # «covered_cover»: after 3C+TC and KC, A♦ is covered by Q♦ alone, itself covered by 9♥
    "covering_pair_cover_not_free": lambda: final(deal("covered_cover", pair_with_covering=True), ["3C+TC", "KC", "AD+QD"]),
    "covering_pair_scores_10": lambda: final(docs(pair_with_covering=True), ["KD", "TS+3S"]),
    "drawn_pair_scores_10": lambda: final(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw", "6C+7D"]),
    "status_ignores_drawn_pair": lambda: final(
        new(deal_at({**STUCK, 50: "6C", 51: "7D"}, Rules(max_recycles=0, drawn_pairs_with_waste=True)),
            Rules(max_recycles=0, drawn_pairs_with_waste=True)),
        DRAW_ALL,
    ),  # fmt: skip
    "legal_moves_omit_covering_pairs": lambda: legal(play_to(docs(pair_with_covering=True), ["KD"])),
    "legal_moves_omit_drawn_pair": lambda: legal(play_to(new(deal_at(DRAWN, DRAWN_RULES), DRAWN_RULES), ["draw"])),
    "status_ignores_waste_top": lambda: final(new(deal_at({**STUCK, 51: "KC"}), Rules(max_recycles=0)), DRAW_ALL),
    # Variants of another shape (003): Pharaoh and the Spanish pyramid
    "pharaoh_row7_free": lambda: final(deal("pharaoh_easy", **PHARAOH), ["TD+3S"]),
    "pharaoh_row7_free_by_tap": lambda: run(deal("pharaoh_easy", **PHARAOH), ["tap:3S", "tap:TD"]),
    "pharaoh_move_names_face_not_copy": lambda: final(deal("pharaoh_easy", **PHARAOH), PHARAOH_ROW10 + ["3S2+TC"]),
    "pharaoh_undo_restores_first_copy": lambda: final(deal("pharaoh_easy", **PHARAOH), ["7D2+6C2", "undo"]),
    "pharaoh_won_at_28_removed": lambda: final(
        deal("pharaoh_easy", **PHARAOH), PHARAOH_ROW10 + "KC2 AD2+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C2 AD+QD 2D+JD KD".split()
    ),
    "pharaoh_score_capped_280": lambda: final(
        deal("pharaoh_easy", **PHARAOH), PHARAOH_ROW10 + "KC2 AD2+QC 2C+JC 3C+TC 4C+9C 5C+8C 6C+7C2 AD+QD 2D+JD KD 3D+TD 4D+9D 5D+8D".split()
    ),
    "pharaoh_blocked_check_7_rows": lambda: final(
        deal("pharaoh_easy", max_recycles=0, **PHARAOH), ["draw"] * 48 + ["KS2", "KH2", "KD2"]
    ),
    "pharaoh_copy_order_pyramid_only": lambda: _from_json_layout(
        _layout_json("pharaoh_easy", lambda c: {"TS": "TS2", "TS2": "TS"}.get(c, c)), Rules(rows=10)
    ),
    "pharaoh_layout_repeated_code_as_second_copy": lambda: _from_json_layout(
        _layout_json("pharaoh_easy", lambda c: "TS" if c == "TS2" else c), Rules(rows=10)
    ),
    "pharaoh_seed_deals_one_shuffle_twice": lambda: [c.code for c in GameState.new("PYR1-P-AAAAAAA").pyramid[:10]],
    # JD2 the 11th card drawn: 2C2+JD2 leaves 9C (row 9's last) covered by JC2 alone
    "pharaoh_rightmost_half_covered_rows_8_9": lambda: final(
        deal("pharaoh_easy", **PHARAOH), ["draw"] * 11 + ["2C2+JD2", "tap:9C"]
    ),
    "spanish_tap_sums_13": lambda: [
        final(deal("spanish_easy", **SPANISH), ["tap:2BA", "tap:CBA"]),
        final(deal("spanish_easy", **SPANISH), ["tap:1BA", "tap:CBA"]),
    ],
    "spanish_blocked_check_skips_six_six": lambda: final(
        new(arranged(Rules(deck="spanish", max_recycles=0), SPANISH_SIX_SIX), Rules(deck="spanish", max_recycles=0)),
        ["draw"] * 19,
    ),
    "spanish_waste_rey_not_alone": lambda: [
        final(new(arranged(Rules(deck="spanish"), {28: "RBA"}), Rules(deck="spanish")), ["RBA"]),
        final(new(arranged(Rules(deck="spanish"), {28: "RBA"}), Rules(deck="spanish")), ["tap:RBA"]),
    ],
    "spanish_caballo_goes_alone": lambda: final(deal("spanish_easy", **SPANISH), ["CBA"]),
    "spanish_six_six_refused": lambda: final(deal("spanish_easy", **SPANISH), ["6BA+6CO"]),
    "spanish_describe_en_sota_jack": lambda: describe(deal("spanish_easy", **SPANISH), "en"),
    "spanish_refused_pair_detail_says_13": lambda: _refusal_message(deal("spanish_easy", **SPANISH), "2BA+CBA", "es"),
    "spanish_seed_rank_major_order": lambda: [c.code for c in GameState.new("PYR1-E-AAAAAAA").pyramid[21:]],
    "spanish_pharaoh_copies_never_pair": lambda: final(
        new(arranged(Rules(deck="spanish", rows=10), {45: "6OR", 46: "6OR2"}), Rules(deck="spanish", rows=10)),
        ["6OR+6OR2"],
    ),
}


def observe(name: str) -> Any:
    """What the check of mutant ``name`` observes with the engine as it is now (JSON-able); a
    crash is an observation too."""
    try:
        return json.loads(json.dumps(CHECKS[name](), default=str))
    except Exception as exc:  # noqa: BLE001
        return ["CRASH", type(exc).__name__, str(exc)[:200]]


def main(argv: list[str]) -> int:
    from . import mutants

    for name in argv or list(CHECKS):
        reference = observe(name)
        with mutants.applied(name):
            broken = observe(name)
        print(json.dumps({"mutant": name, "live": reference != broken, "reference": reference, "mutant_observes": broken}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
