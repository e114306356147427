"""docs/conformance.md maps every sentence of the Pyramide rules (000 es / 002 it) to scenarios."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "docs" / "sources"
TABLE = (ROOT / "docs" / "conformance.md").read_text(encoding="utf-8")
NOT_RULES = {53, 54, 60}  # no official rulebook; the list's introduction; "see the sources"


def sentences(name: str) -> list[str]:
    """The document's sentences: each line, cut after . ! or ? before a capital, « ¿ ¡ or -."""
    result = []
    for line in (SOURCES / name).read_text(encoding="utf-8").splitlines():
        if line.strip():
            result += [part for part in re.split(r"(?<=[.!?])\s+(?=[A-ZÁÉÍÓÚÑ«¿¡-])", line.strip()) if part]
    return result


def scenarios() -> dict[str, set[str]]:
    """Scenario and Scenario Outline names of each feature file, by file stem."""
    found = {}
    for path in (ROOT / "features").glob("*.feature"):
        found[path.stem] = set(re.findall(r"^\s*Scenario(?: Outline)?: (.+?)\s*$", path.read_text(encoding="utf-8"), re.M))
    return found


def rows() -> list[tuple[int, str, str, str]]:
    return [
        (int(number), es, it, refs.strip())
        for number, es, it, refs in re.findall(r"^\| (\d+) \| «(.*?)» \| «(.*?)» \| (.*) \|$", TABLE, re.M)
    ]


ES, IT = sentences("000_369e66307d0cf5b5.txt"), sentences("002_224e56cc05e4c4d0.txt")


def test_the_documents_align_sentence_for_sentence():
    assert len(ES) == len(IT) == 60


def test_every_sentence_has_exactly_one_row_quoting_it():
    table = rows()
    assert [number for number, *_ in table] == list(range(1, len(ES) + 1))
    for number, es, it, _ in table:
        assert ES[number - 1].startswith(es.rstrip("…")), (number, es)
        assert IT[number - 1].startswith(it.rstrip("…")), (number, it)


def test_only_headings_and_three_sentences_that_state_no_rule_are_unmapped():
    for number, _, _, refs in rows():
        sentence = ES[number - 1]
        if refs.startswith("—"):
            heading = not sentence.endswith((".", ":", "»"))
            assert heading or number in NOT_RULES, (number, sentence)
            assert re.fullmatch(r"— \(.+\)", refs), refs
        else:
            assert number not in NOT_RULES and sentence.endswith((".", ":", "»")), number


def test_every_named_scenario_exists():
    known = scenarios()
    for number, _, _, refs in rows():
        if refs.startswith("—"):
            continue
        for ref in refs.split("<br>"):
            stem, _, name = ref.partition(" › ")
            assert name in known.get(stem, set()), (number, ref)


def test_every_scenario_of_the_app_rules_traces_to_a_sentence():
    named = {ref for *_, refs in rows() for ref in refs.split("<br>")}
    for path in (ROOT / "features").glob("*.feature"):
        text = path.read_text(encoding="utf-8")
        blocks = re.findall(r"((?:^\s*@[^\n]*\n)*)^\s*Scenario(?: Outline)?: (.+?)\s*$", text, re.M)
        feature_tags = re.match(r"\s*((?:@\S+\s*)*)Feature:", text).group(1)
        for tags, name in blocks:
            if "@doc-000" in tags + feature_tags:
                assert f"{path.stem} › {name}" in named, (path.name, name)
