"""What a scenario needs of an implementation, derived from the operations its steps stand for.

A scenario is never tagged by hand with what it needs: :func:`needs` reads its operations
(``features/ops.py``) and its tags, so that a new scenario cannot forget a capability. A tap move
anywhere needs ``taps``; a score or the points of a removal need ``scoring``; ``undo`` needs
``undo``, a hundred of them ``undo-limit``; a message to the letter needs ``messages``; a deal code
needs ``codes``; the reason of a refusal needs ``refusal-reasons``; a rules option needs
``option-…`` (or the variant of another shape it makes);
``tests/kit/test_kit_portable.py`` checks these derivations against every vector.
"""

from __future__ import annotations

import json
from typing import Any, Iterable

from .driver import CAPABILITIES

#: A rules key → the capability of an implementation that takes it.
OPTION_CAPABILITIES = {
    "strict_win": "option-strict-win",
    "max_recycles": "option-max-recycles",
    "drawn_pairs_with_waste": "option-drawn-pairs-with-waste",
    "pair_with_covering": "option-pair-with-covering",
    "initial_waste": "option-initial-waste",
    "unlimited_undo": "option-unlimited-undo",
    "notify_unwinnable": "option-notify-unwinnable",
    "draw_count": "variant-tuts-tomb",
    "waste_piles": "variant-apophis",
    "rows": "variant-pharaoh",
    "deck": "variant-spanish",
}
#: Undoing this many actions in a row reaches the documents' limit (000 #48: the last 100).
UNDO_LIMIT = 100
#: Fields of the game whose check needs a capability.
FIELD_CAPABILITIES = {"score": "scoring", "moves": "move-counter", "selected": "taps", "code": "codes"}
#: Operations that need a capability whatever their fields.
OP_CAPABILITIES = {
    "free_cards": "taps",  # a card is free when a tap on it is not card_blocked
    "points": "scoring",
    "score_change": "scoring",
    "undone_as_scored": "scoring",
    "undone": "scoring",
    "message": "messages",
    "code": "codes",
    "code_prefix": "codes",
    "deal_own_code": "codes",
    "reason": "refusal-reasons",  # why a request is refused, beyond its code
}


def _moves(op: dict[str, Any]) -> list[str]:
    if op["op"] == "play":
        return list(op["moves"])
    if op["op"] in ("try", "playable", "forge", "forge_without", "send_replayed"):
        return [op["move"]]
    if op["op"] == "replay":  # a replay of these moves needs the implementation to play them
        return list(op.get("moves") or [])
    return []


def dealt_rules(op: dict[str, Any]) -> dict[str, Any]:
    """The options a deal's ``rules`` set: the object, or the preset it names (the kit's table of
    presets, ``steps.PRESET_RULES``; a name that is no preset sets none)."""
    rules = op.get("rules") or {}
    if isinstance(rules, str):
        from .steps import PRESET_RULES  # (here, not at the top: steps imports the ops, not this module)

        return PRESET_RULES.get(rules, {})
    return rules


#: Operations that only look at the game (checks): one that needs a capability the implementation
#: lacks is left out on its own and the rest of its scenario is judged (:func:`check_plan`), so
#: that a pairing scenario is judged on its pair by an engine without a score.
CHECK_OPS = frozenset(
    {
        "expect", "points", "undone", "undone_as_scored", "undone_action", "message", "code", "code_prefix", "reason", "free_cards",
        "events", "event", "removed", "score_change", "feedback", "content_language", "refused", "refused_as_it_was",
        "unchanged", "as_noted", "same_deal", "recycled_in_order", "free_cards_by_moves", "foundation", "history_last",
        "game_rules", "dealt_sequence", "legal_moves", "describe", "playable",
    }
)  # fmt: skip
#: The sentences a kind of check is about (000 #43… for the score): a scenario citing only these is
#: about that capability, and is skipped whole where it is lacking, never judged on its other checks.
#: (The move counter is no subject of its own: 000 #46 is the score of a won game, #49 the undo;
#: a scenario whose every check is of the move counter is skipped as having none left.)
SUBJECTS = {"scoring": {42, 43, 44, 45, 46, 49}}


def op_needs(op: dict[str, Any]) -> set[str]:
    """The capabilities one operation needs (its moves, its deal, or what it checks)."""
    found = set()
    name = op["op"]
    if name in OP_CAPABILITIES:
        found.add(OP_CAPABILITIES[name])
    if name == "expect" and op["field"] in FIELD_CAPABILITIES:
        found.add(FIELD_CAPABILITIES[op["field"]])
    if name in ("deal", "deal_try"):
        if op.get("code") is not None:
            found.add("codes")
        if isinstance(op.get("rules"), str):  # a preset by its name: Pyramide's API (``"rules": "traditional"``)
            found.add("api")
        found.update(OPTION_CAPABILITIES[key] for key in dealt_rules(op) if key in OPTION_CAPABILITIES)
    if name == "removed" and op.get("points") is not None:
        found.add("scoring")
    if name == "events" and any(event.split()[0] in ("selected", "deselected") for event in op["events"]):
        found.add("taps")
    if name == "event" and op["type"] in ("selected", "deselected"):
        found.add("taps")
    for move in _moves(op):
        if move.startswith("tap:"):
            found.add("taps")
        if move == "undo":
            found.add("undo")
    return found


def needs(ops: Iterable[dict[str, Any]], tags: Iterable[str] = ()) -> set[str]:
    """The capabilities a scenario of these operations and tags needs, its checks' included."""
    ops = list(ops)
    found = {tag for tag in tags if tag in CAPABILITIES}
    for op in ops:
        found |= op_needs(op)
    if sum(move == "undo" for op in ops for move in _moves(op)) >= UNDO_LIMIT:
        found.add("undo-limit")
    return found


def check_plan(ops: list[dict[str, Any]], tags: Iterable[str], missing: Any) -> tuple[set[str], set[str]]:
    """How a scenario is judged on an implementation, given ``missing(capabilities) -> lacking``:
    (what makes it skipped whole, the capabilities whose checks are left out). Skipped whole when
    an action (a move, a deal) needs what is lacking, when every check would be left out, or when
    the scenario is about what its checks lack (it cites only sentences of :data:`SUBJECTS`)."""
    tags = set(tags)
    actions = [op for op in ops if op["op"] not in CHECK_OPS]
    checks = [op for op in ops if op["op"] in CHECK_OPS]
    whole = set(missing(needs(actions, tags)))
    left_out: set[str] = set()
    judged = 0
    for op in checks:
        lacking_here = set(missing(op_needs(op)))
        if op["op"] == "removed" and lacking_here == {"scoring"}:
            left_out.add("scoring")  # its cards are still checked, without the points
            judged += 1
        elif lacking_here:
            left_out |= lacking_here
        else:
            judged += 1
    if whole:
        return whole, set()
    if checks and not judged:
        return left_out, set()
    cited = {int(tag[9:]) for tag in tags if tag.startswith("sentence-")}
    about = {name for name in left_out if name in SUBJECTS and cited and cited <= SUBJECTS[name]}
    if about:
        return about, set()
    return set(), left_out


def option_value(key: str, value: Any) -> str | None:
    """The name of one value of a rules option (``option-max-recycles=2``), for an implementation
    that takes the option but not every value of it; None for a key that is not an ``option-…``."""
    capability = OPTION_CAPABILITIES.get(key)
    if capability is None or not capability.startswith("option-"):
        return None
    return f"{capability}={json.dumps(value)}"


def option_values(ops: Iterable[dict[str, Any]]) -> set[str]:
    """Each value of a rules option a scenario deals under (``option-max-recycles=2``): an
    implementation may declare a value missing while it takes the option (``--without`` or the
    hello's ``"without"``), and the scenarios dealing under that value are skipped, naming it."""
    found = set()
    for op in ops:
        if op["op"] in ("deal", "deal_try"):
            for key, value in dealt_rules(op).items():
                name = option_value(key, value)
                if name is not None:
                    found.add(name)
    return found


def is_capability(name: str) -> bool:
    """A capability's name, or an option's with a value (``option-max-recycles=2``, the value as JSON)."""
    if name in CAPABILITIES:
        return True
    option, equals, value = name.partition("=")
    if not equals or not option.startswith("option-") or option not in CAPABILITIES:
        return False
    try:
        json.loads(value)
    except ValueError:
        return False
    return True


def why(capabilities: Iterable[str]) -> str:
    """The skip reason naming what is missing."""
    return "the implementation does not offer: " + ", ".join(sorted(capabilities))


def vector_plan(vector: dict[str, Any], lacking: Iterable[str]) -> tuple[set[str], set[str]]:
    """:func:`check_plan` for a vector of ``vectors.json`` on an implementation lacking ``lacking``."""
    lacking = set(lacking)
    ops = [op for step in vector["steps"] for op in step["ops"]]
    return check_plan(ops, vector["tags"], lambda capabilities: set(capabilities) & lacking)
