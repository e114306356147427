"""Each option of the registry says which of the solver's searches model it (``Option.searches``),
and a rule set with an option no search models is refused (``solver_unsupported``), never searched
as if the option were not there (issue 37)."""

from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from service.engine import DOCUMENTS_LAYOUT, GameState, PyramideError, Rules, solve
from service.engine._options import REGISTRY, SEARCHES, Option, use
from service.engine._solver.entry import fast_model, searches_for, solver_supports


def test_every_option_names_the_searches_that_model_it():
    """The registry enumerated: every option names at least one search, and only known ones; an
    option of the game's shape (three cards a draw, three piles, 10 rows, the Spanish deck) is the
    general search's alone."""
    for option in REGISTRY.options:
        assert option.searches and set(option.searches) <= set(SEARCHES), option.name
        assert ("fast" in option.searches) == (not option.shape), option.name


@pytest.mark.parametrize("option", REGISTRY.options, ids=lambda option: option.name)
def test_each_value_of_each_option_is_searched_by_the_searches_it_names_or_refused(option: Option):
    """Every value other than the default, alone: the fast searches take it exactly when the option
    names them; otherwise the general one, when it names it and reads the shape; or it is refused."""
    values = [value for value in (option.fuzz_values or option.values) if value != option.default]
    assert values, option.name
    for value in values:
        rules = replace(Rules(), **{option.name: value})
        assert searches_for(rules) == set(option.searches)
        assert fast_model(rules) == ("fast" in option.searches)
        assert solver_supports(rules), (option.name, value)


@dataclass(frozen=True)
class _Jokers(Rules):
    """Rules with an option the engine does not have yet: two jokers in the deck."""

    jokers: bool = True


def test_an_option_no_search_models_is_refused_by_every_search():
    """An option added to a copy of the registry without naming a search: a rule set with it on is
    refused by the solver with ``solver_unsupported``, under the fast searches' rules and under the
    general one's (Tut's Tomb) alike; off (its default), nothing changes."""
    added = Option("jokers", False, (False, True), capability="option-jokers")
    games = [GameState.new(layout=DOCUMENTS_LAYOUT), GameState.new(rules=Rules(draw_count=3, initial_waste=False))]
    before = use(replace(REGISTRY, options=REGISTRY.options + (added,)))
    try:
        for game in games:
            rules = _Jokers(**{name: getattr(game.rules, name) for name in REGISTRY.names})
            assert searches_for(rules) == set() and not solver_supports(rules)
            with pytest.raises(PyramideError) as refused:
                solve(game.evolve(rules=rules), budget=1000)
            assert refused.value.code == "solver_unsupported"
            off = replace(rules, jokers=False)
            assert searches_for(off) == ({"general"} if game.rules.draw_count == 3 else set(SEARCHES)) and solver_supports(off)
    finally:
        use(before)


def test_an_option_only_the_general_search_models_takes_the_fast_searches_out():
    """The same option naming the general search alone: the fast searches refuse it and the general
    one reads its shape."""
    added = Option("jokers", False, (False, True), capability="option-jokers", searches=("general",))
    defaults = Rules()
    before = use(replace(REGISTRY, options=REGISTRY.options + (added,)))
    try:
        rules = _Jokers(**{name: getattr(defaults, name) for name in REGISTRY.names})
        assert searches_for(rules) == {"general"} and not fast_model(rules) and solver_supports(rules)
    finally:
        use(before)
