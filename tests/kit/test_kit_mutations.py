"""The conformance kit has teeth: against each deliberately broken engine it fails, and the
scenarios that catch the mutation are among the failures."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from features.cli import PYTEST_OPTIONS
from tests.kit import mutant_run

ROOT = Path(__file__).resolve().parents[2]

CAUGHT_BY = {
    "king_worth_nothing": "test_a_king_of_the_pyramid_is_worth_10_how",
    "recycle_reversed": "test_tapping_the_empty_stock_recycles_the_waste_in_the_same_order_how",
    "blocked_with_cards_in_stock": "test_while_a_card_is_left_to_draw_or_recycle_the_game_goes_on_though_nothing_can_be_removed_how",
    "undo_lowers_the_counter": "test_undo_puts_the_cards_back_and_subtracts_the_points_the_move_counter_does_not_go_down",
    "drawn_card_pairs_with_waste": "test_the_drawn_card_does_not_pair_with_the_waste_card_it_covers_how",
    "sum_message_paraphrased": "test_and_7_do_not_sum_13_la_suma_debe_ser_igual_a_13_the_second_stays_selected_error_help_help",
}


@pytest.mark.parametrize("mutant", sorted(CAUGHT_BY))
def test_the_kit_fails_against_a_broken_engine(mutant, tmp_path_factory):
    """The scenario written for the rule fails (`make mutate` measures the whole kit's teeth). (The
    King's run is the one tests/kit/test_kit_portable.py reads the report of: made once.)"""
    result = mutant_run(tmp_path_factory, mutant, CAUGHT_BY[mutant])
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-3000:]
    assert f"FAILED features/test_conformance.py::{CAUGHT_BY[mutant]}" in result.stdout, result.stdout[-6000:]


def test_the_scenarios_that_catch_them_pass_without_a_mutant():
    """The control: run the same way, the same scenarios pass on the engine as it is, so each failure
    above is the mutant's (the whole kit passing is the suite's own run of features/)."""
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "features", "-q", *PYTEST_OPTIONS, "-rA",
         "-k", " or ".join(sorted(CAUGHT_BY.values()))],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-3000:]
    for scenario in CAUGHT_BY.values():  # each of them ran, and passed
        assert f"PASSED features/test_conformance.py::{scenario}" in result.stdout, scenario
