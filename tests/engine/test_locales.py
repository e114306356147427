"""The catalogues: complete, consistent, read the same by Babel, and quoting the documents exactly."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.pofile import read_po as babel_read_po

from service.engine import DECK, card_name
from service.locales import LANGUAGES, catalogue, translate, translate_plural

LOCALES = Path(__file__).resolve().parents[2] / "service" / "locales"
RULES = Path(__file__).resolve().parents[2] / "docs" / "sources"


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("language", LANGUAGES)
def test_babel_reads_each_catalogue_as_we_do(language):
    with open(LOCALES / f"{language}.po", "rb") as handle:
        babel = babel_read_po(handle)
    ours = catalogue(language).messages
    theirs = {message.id if isinstance(message.id, str) else message.id[0]: message.string for message in babel if message.id}
    assert set(theirs) == set(ours)
    for key, value in ours.items():
        assert (list(theirs[key]) if isinstance(value, list) else theirs[key]) == value
    assert babel.plural_expr.replace(" ", "") == (("(n>1)" if language == "fr" else "(n!=1)"))


@pytest.mark.parametrize("language", LANGUAGES[1:])
def test_every_catalogue_has_every_message_with_the_same_placeholders(language):
    reference, other = catalogue("en").messages, catalogue(language).messages
    assert set(other) == set(reference)
    for key, message in reference.items():
        forms = message if isinstance(message, list) else [message]
        their = other[key] if isinstance(other[key], list) else [other[key]]
        assert {f for form in their for f in fields(form)} == {f for form in forms for f in fields(form)}, key


QUOTED = {
    # (000 es) and (002 it), «…» to the letter
    "card_blocked": {"es": "Esta carta está bloqueada por otra", "it": "Questa carta è bloccata da un’altra"},
    "sum_not_13": {"es": "La suma debe ser igual a 13", "it": "La somma deve essere uguale a 13"},
    "blocked": {"es": "No hay más movimientos posibles", "it": "Nessuna mossa più possibile"},
}


@pytest.mark.parametrize("key", QUOTED)
def test_the_documents_messages_to_the_letter(key):
    documents = {
        "es": (RULES / "000_369e66307d0cf5b5.txt").read_text(encoding="utf-8"),
        "it": (RULES / "002_224e56cc05e4c4d0.txt").read_text(encoding="utf-8"),
    }
    for language, text in QUOTED[key].items():
        assert f"«{text}»" in documents[language]
        assert translate(language, key) == text


def test_card_names_as_the_documents_write_them():
    names = {code: {lang: card_name(card, lang) for lang in LANGUAGES} for card in DECK for code in [card.code]}
    assert names["7D"] == {"en": "7 of diamonds", "es": "7 de diamantes", "it": "7 di quadri", "fr": "7 de carreau"}
    assert names["JD"] == {"en": "jack of diamonds", "es": "jota de diamantes", "it": "fante di quadri", "fr": "valet de carreau"}
    assert names["QS"]["es"] == "reina de picas" and names["QS"]["it"] == "donna di picche"
    assert names["KH"]["es"] == "rey de corazones" and names["KH"]["it"] == "re di cuori"
    assert names["AS"]["es"] == "as de picas" and names["AS"]["it"] == "asso di picche"
    assert names["TD"]["es"] == "10 de diamantes"
    assert len({name for card in names.values() for name in card.values()}) == 52 * 4


def test_plurals():
    assert translate_plural("es", "describe.stock", 1) == "Mazo: 1 carta"
    assert translate_plural("es", "describe.stock", 0) == "Mazo: 0 cartas"
    assert translate_plural("fr", "describe.stock", 0) == "Talon : 0 carte"
    assert translate_plural("it", "describe.stock", 23) == "Mazzo di pesca: 23 carte"


def test_an_unknown_language_falls_back_to_english_and_a_missing_value_stays_visible():
    assert translate("de", "sum_not_13") == "The sum must equal 13"
    assert translate("en", "invalid_rules") == "Invalid rules option: {option}"
    assert re.fullmatch(r"[^{}]*", translate("en", "invalid_rules", option="x"))
