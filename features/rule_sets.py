"""The rules an implementation plays fixed, and the scenarios that still hold under them.

Most implementations play one rule set of their own: two recycles, no waste card at the deal, a
strict victory. They say so (the hello's ``"rules"``, or ``--rules`` on the command line) instead
of declaring the options missing, and the kit deals every scenario under those values: the deal's
rules overlaid with them, and the waste card moved onto the stock (or the stock's top card onto
the waste) when ``initial_waste`` changes (:func:`under`).

Whether a scenario's checks still hold under those values is asked of Pyramide's own engine,
which takes every option: the scenario is run once in-process, dealt as the implementation will
be dealt (:func:`holds`). One that holds (a pairing scenario that never recycles, under
``max_recycles = 0``) is judged; one that does not (the third recycle accepted, under
``max_recycles = 2``) is skipped as a **rule-set difference**, blamed on the one option that makes
it differ, and the report names each option the implementation plays differently from the app
once, with the sentence of the app's rules that states the app's value (:data:`STATED_BY`).
"""

from __future__ import annotations

import json
from typing import Any, Iterable

#: The app's value of each option an implementation may play fixed (000/002: the default rules).
APP_RULES: dict[str, Any] = {
    "strict_win": False,
    "max_recycles": None,
    "drawn_pairs_with_waste": False,
    "pair_with_covering": False,
    "initial_waste": True,
    "unlimited_undo": False,
    "notify_unwinnable": False,
}
#: The sentence of the app's rules (000) that states the app's value of each option.
STATED_BY = {
    "strict_win": 55,  # «Victoria: basta con vaciar la pirámide, sin agotar el mazo»
    "max_recycles": 56,  # «Reciclaje ilimitado»
    "drawn_pairs_with_waste": 57,  # «Una sola carta del descarte en juego»
    "pair_with_covering": 58,  # «No se puede emparejar una carta con otra que la cubre»
    "initial_waste": 13,  # «da la vuelta a una carta y la coloca en el descarte»
    "unlimited_undo": 48,  # «deshacer las 100 últimas acciones»
    "notify_unwinnable": 38,  # «solo declara el bloqueo … cuando el mazo y el descarte …»
}
#: The largest recycle limit a fixed rule set may name (Pyramide's registry takes up to 9999).
MAX_RECYCLES = 9999
#: The reason a scenario is skipped for a rule-set difference (the options follow).
RULE_SET = "the scenario does not hold under the rules the implementation plays: "


def problem(rules: Any) -> str | None:
    """What is wrong with a declared rule set, or None: an object of :data:`APP_RULES`' keys,
    booleans, and ``max_recycles`` null or a whole number from 0 to :data:`MAX_RECYCLES`."""
    if not isinstance(rules, dict):
        return f"the rules it plays must be an object, not {json.dumps(rules)}"
    for key, value in rules.items():
        if key not in APP_RULES:
            return f"{key!r} is not an option an implementation may play fixed ({', '.join(APP_RULES)})"
        if key == "max_recycles":
            if value is not None and (type(value) is not int or not 0 <= value <= MAX_RECYCLES):
                return f"max_recycles is null (unlimited) or a whole number from 0 to {MAX_RECYCLES}, not {json.dumps(value)}"
        elif type(value) is not bool:
            return f"{key} is true or false, not {json.dumps(value)}"
    return None


def parse(text: str) -> dict[str, Any]:
    """``--rules max_recycles=0,initial_waste=false`` as a rule set (values as JSON); ValueError
    says what is wrong."""
    rules: dict[str, Any] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        key, equals, value = item.partition("=")
        if not equals:
            raise ValueError(f"{item!r} is not OPTION=VALUE")
        try:
            rules[key.strip()] = json.loads(value)
        except ValueError:
            raise ValueError(f"{item!r}: the value is not JSON (true, false, null, a number)") from None
    error = problem(rules)
    if error is not None:
        raise ValueError(error)
    return rules


def differences(fixed: dict[str, Any]) -> dict[str, Any]:
    """The options played with another value than the app's."""
    return {key: value for key, value in fixed.items() if APP_RULES[key] != value}


def named(fixed: dict[str, Any]) -> str:
    return ", ".join(f"{key}={json.dumps(value)}" for key, value in fixed.items())


def under(request: dict[str, Any], fixed: dict[str, Any]) -> dict[str, Any]:
    """A new-game request (``layout``, ``rules``, ``code``…) as an implementation playing ``fixed``
    is dealt it: its rules overlaid with them; its layout's waste card put on top of the stock when
    the deal had one and the rules deal none, or the stock's top card turned onto the waste in the
    other direction. A request by code is left as it is (its rules are in the code)."""
    if not fixed or request.get("code") is not None:
        return request
    from .capabilities import dealt_rules

    before = dealt_rules(request)
    rules = {**before, **fixed}
    result = {**request, "rules": rules}
    layout = request.get("layout")
    waste_before = before.get("initial_waste", APP_RULES["initial_waste"])
    if isinstance(layout, dict) and "initial_waste" in fixed and fixed["initial_waste"] != waste_before and _one_waste(layout):
        waste, stock = list(layout["waste"]), list(layout["stock"])
        if fixed["initial_waste"]:
            waste, stock = stock[:1] + waste, stock[1:]
        else:
            waste, stock = [], waste[::-1] + stock
        result["layout"] = {**layout, "waste": waste, "stock": stock}
    return result


def _one_waste(layout: dict[str, Any]) -> bool:
    """A layout with one waste (a list) and a stock, not Apophis's piles."""
    return isinstance(layout.get("waste"), list) and isinstance(layout.get("stock"), list)


def changes(ops: Iterable[dict[str, Any]], fixed: dict[str, Any]) -> bool:
    """Whether dealing these operations under ``fixed`` changes any deal (a deal by code counts as
    changed unless ``fixed`` plays the app's rules: its rules are the code's)."""
    from .capabilities import dealt_rules

    for op in ops:
        if op["op"] not in ("deal", "deal_try", "new_game", "deal_own_code"):
            continue
        if op["op"] == "deal_own_code" or op.get("code") is not None:
            if differences(fixed):  # a deal by code: its rules are the code's, not the kit's to set
                return True
            continue
        rules = dealt_rules(op)
        if any(not _same(rules.get(key, APP_RULES[key]), value) for key, value in fixed.items()):
            return True
    return False


def _same(asked: Any, played: Any) -> bool:
    """The same JSON value: ``1`` is not ``true`` (a deal asking ``"strict_win": 1`` is refused)."""
    return asked == played and type(asked) is type(played)


class Judge:
    """Whether each scenario holds under a rule set, asked of Pyramide's own engine in-process
    (once per scenario and rule set), from the scenarios written out as vectors."""

    def __init__(self) -> None:
        self._vectors: dict[str, dict[str, Any]] | None = None
        self._client = None
        self._known: dict[tuple[str, str], bool] = {}

    def vector(self, vector_id: str) -> dict[str, Any] | None:
        if self._vectors is None:
            from pathlib import Path

            text = (Path(__file__).with_name("vectors.json")).read_text(encoding="utf-8")
            self._vectors = {vector["id"]: vector for vector in json.loads(text)["vectors"]}
        return self._vectors.get(vector_id)

    def holds(self, vector_id: str, fixed: dict[str, Any]) -> bool:
        """Whether the scenario passes on Pyramide's engine dealt under ``fixed``."""
        key = (vector_id, json.dumps(fixed, sort_keys=True))
        if key not in self._known:
            self._known[key] = self._run(vector_id, fixed)
        return self._known[key]

    def _run(self, vector_id: str, fixed: dict[str, Any]) -> bool:
        vector = self.vector(vector_id)
        if vector is None:
            return False
        from .driver import HttpDriver
        from .ops import Game

        if self._client is None:
            from .client import InProcessClient

            self._client = InProcessClient()
        game = Game(HttpDriver(self._client), fixed)
        try:
            for step in vector["steps"]:
                for op in step["ops"]:
                    game.run(op)
        except Exception:  # a check that fails, or an operation the game dealt so cannot take (a forged
            return False  # waste card where there is no waste): either way it does not hold
        return True

    def blame(self, vector_id: str, fixed: dict[str, Any]) -> dict[str, Any] | None:
        """None when the scenario holds under ``fixed`` (or its deals do not change); otherwise the
        options that make it differ: each one under which alone it does not hold, or all of
        those it deals differently under when no single one does."""
        vector = self.vector(vector_id)
        ops = [op for step in vector["steps"] for op in step["ops"]] if vector else []
        if vector is None or not changes(ops, fixed):
            return None
        if self.holds(vector_id, fixed):
            return None
        changed = {key: value for key, value in fixed.items() if changes(ops, {key: value})}
        if len(changed) <= 1:
            return changed or dict(fixed)
        alone = {key: value for key, value in changed.items() if not self.holds(vector_id, {key: value})}
        return alone or changed


#: The session's judge (the in-process engine is started on its first question).
JUDGE = Judge()
