"""Deals by PySolFC game number (``PYSOLFC-<rules>-<n>``, docs/deal-codes.md), checked card for card
against ``pysol-cards``, the package PySolFC itself deals with (its ``pysolrandom`` imports it)."""

from __future__ import annotations

import pytest
from pysol_cards.cards import CardRenderer, createCards
from pysol_cards.random import MTRandom, shuffle
from pysol_cards.random_base import RandomBase

from service.api import create_app
from service.cli import main
from service.engine import GameState, PyramideError, solve

RENDER = CardRenderer(True)  # 'T' for ten, as our cards are written


def pysolfc_pyramid(shuffled) -> dict:
    """How PySolFC's Pyramid (game 38) deals a shuffled deck (pysollib/games/pyramid.py): the shuffled
    cards go onto the talon in order, so its top is the last; ``startGame`` deals a row of the
    talon's top cards onto its 28 row stacks, created row by row from the top, left to right; then
    ``dealCards`` turns the next one onto the waste; the talon keeps the rest, its top drawn first."""
    dealt = [RENDER.to_s(card) for card in reversed(shuffled)]
    rows = [dealt[r * (r + 1) // 2 : (r + 1) * (r + 2) // 2] for r in range(7)]
    return {"pyramid": rows, "waste": dealt[28:29], "stock": dealt[29:]}


def pysol_cards_deal(number: int) -> dict:
    return pysolfc_pyramid(shuffle(createCards(1), number, RandomBase.DEALS_PYSOLFC))


# LCRandom31 (Microsoft's generator, after ms_rearrange) below 32000, MTRandom from 32001 on; the
# first and last numbers, both sides of the switch, and PySolFC's own 17- to 20-digit numbers.
NUMBERS = [1, 2, 3, 617, 11982, 24000, 31999, 32001, 123456, 2**32 + 5, 10**16 + 3, 12345678901234567890, 10**20 - 1]


@pytest.mark.parametrize("number", NUMBERS)
def test_every_card_is_where_pysolfc_deals_it(number):
    for rules in ("DS2", "D2", "N", "S0"):  # PySolFC's Pyramid, its Relaxed Pyramid, and ours
        state = GameState.new(f"PYSOLFC-{rules}-{number}").to_json()
        assert {key: state[key] for key in ("pyramid", "waste", "stock")} == pysol_cards_deal(number)
        assert state["code"] == f"PYSOLFC-{rules}-{number}"


def test_game_32000_is_dealt_as_pysolfc_deals_it_not_as_pysol_cards_shuffle_does():
    # PySolFC's construct_random takes LCRandom31 for 0 <= n < 32000 and MTRandom from 32000 on;
    # pysol-cards' shuffle() takes LCRandom31 up to 32000 included: the two differ on this one number
    ours = GameState.new("PYSOLFC-DS2-32000").to_json()
    pysolfc = pysolfc_pyramid(MTRandom(32000).shuffle(createCards(1)))
    assert {key: ours[key] for key in ("pyramid", "waste", "stock")} == pysolfc
    assert pysol_cards_deal(32000) != pysolfc


def test_a_game_number_is_read_as_pysolfc_shows_it_and_written_without_leading_zeros():
    shown = GameState.new("PySolFC-DS2-00000000000000001234")  # PySolFC shows numbers padded to 20 digits
    assert shown.code == "PYSOLFC-DS2-1234" and shown.to_json() == GameState.new(" pysolfc-ds2-1234 ").to_json()


@pytest.mark.parametrize("code, detail", [
    ("PYSOLFC-DS2-0", "pysolfc_number"),  # PySolFC's LCRandom31 refuses 0
    ("PYSOLFC-DS2-" + "9" * 21, "pysolfc_number"),
    ("PYSOLFC-DS2-12A", "pysolfc_number"),
    ("PYSOLFC-DS2-MS123", "pysolfc_number"),
    ("PYSOLFC-DS2-", "pysolfc_number"),
    ("PYSOLFC-T-5", "pysolfc_rules"),  # no card turned onto the waste
    ("PYSOLFC-KT-5", "pysolfc_rules"),  # King Tut turns three
    ("PYSOLFC-AT2-5", "pysolfc_rules"),  # Apophis: three waste piles
    ("PYSOLFC-E-5", "pysolfc_rules"),
    ("PYSOLFC-P-5", "pysolfc_rules"),
    ("PYSOLFC-XX-5", "rules"),
])  # fmt: skip
def test_a_code_that_names_no_pysolfc_deal_is_an_invalid_code(code, detail):
    with pytest.raises(PyramideError) as refused:
        GameState.new(code)
    assert (refused.value.code, refused.value.detail, refused.value.field) == ("invalid_code", detail, "code")


MESSAGES = {
    "pysolfc_number": {
        "en": "PySolFC game number “0” is not a whole number from 1 to 99999999999999999999",
        "es": "El número de partida de PySolFC «0» no es un número entero del 1 al 99999999999999999999",
        "it": "Il numero di partita di PySolFC «0» non è un numero intero da 1 a 99999999999999999999",
        "fr": "Le numéro de partie PySolFC « 0 » n’est pas un nombre entier de 1 à 99999999999999999999",
    },
    "pysolfc_rules": {
        "en": "The rules “T” do not deal as PySolFC’s Pyramid does",
        "es": "Las reglas «T» no reparten como la Pyramid de PySolFC",
        "it": "Le regole «T» non distribuiscono come la Pyramid di PySolFC",
        "fr": "Les règles « T » ne distribuent pas comme la Pyramid de PySolFC",
    },
}


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def test_the_api_deals_a_pysolfc_number_wherever_it_takes_a_code(client):
    expected = pysol_cards_deal(617)
    state = client.post("/v1/games", json={"code": "pysolfc-ds2-617"}).json["state"]
    assert state["code"] == "PYSOLFC-DS2-617" and [state[k] for k in expected] == list(expected.values())
    replayed = client.post("/v1/replay", json={"code": "PYSOLFC-DS2-617", "moves": []}).json
    assert replayed["valid"] and replayed["state"] == state
    moved = client.post("/v1/moves", json={"state": state, "move": {"type": "draw"}})
    assert moved.status_code == 200 and moved.json["state"]["code"] == "PYSOLFC-DS2-617"
    solved = client.post("/v1/solve", json={"state": state})
    assert solved.status_code == 200 and solved.json["result"] == solve(GameState.new("PYSOLFC-DS2-617"), budget=250_000).result


@pytest.mark.parametrize("detail, code", [("pysolfc_number", "PYSOLFC-DS2-0"), ("pysolfc_rules", "PYSOLFC-T-5")])
def test_a_bad_pysolfc_code_is_a_localized_problem(client, detail, code):
    for language, message in MESSAGES[detail].items():
        for path, body in (("/v1/games", {"code": code}), ("/v1/replay", {"code": code, "moves": []})):
            response = client.post(path, json=body, headers={"Accept-Language": language})
            assert response.status_code == 422 and response.content_type == "application/problem+json"
            assert (response.json["code"], response.json["field"]) == ("invalid_code", "code")
            assert response.json["detail"].startswith(message), response.json["detail"]
            assert response.headers["Content-Language"] == language


def test_the_command_line_solves_a_pysolfc_number(capsys):
    assert main(["solve", "PYSOLFC-DS2-617"]) == 0
    assert capsys.readouterr().out.startswith("PYSOLFC-DS2-617: ")
    assert main(["solve", "PYSOLFC-DS2-0"]) == 2
    assert MESSAGES["pysolfc_number"]["en"] in capsys.readouterr().err


def test_the_deal_docs_deal_codes_md_shows():
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "deal-codes.md").read_text(encoding="utf-8")
    shown = doc.split("For `PYSOLFC-DS2-1234`:\n\n", 1)[1].split("\n\n", 1)[0].split()
    state = GameState.new("PYSOLFC-DS2-1234").to_json()
    assert shown == [card for row in state["pyramid"] for card in row] + state["waste"] + state["stock"]
    assert shown == [card for part in pysol_cards_deal(1234).values() for card in (sum(part, []) if part and isinstance(part[0], list) else part)]
