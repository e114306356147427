"""The kit's tags say where each scenario comes from, and docs/conformance.md's traceability table
is generated from them (``python -m features.traceability``): every rule sentence of the Pyramide
rules (000 es / 002 it) is guarded by a scenario, and every scenario has a source."""

from __future__ import annotations

import re

from features.traceability import (
    END,
    ES,
    IT,
    NOT_RULES,
    SOURCE_TAGS,
    START,
    TABLE_FILE,
    is_heading,
    kit_scenarios,
    render_table,
    sentences,
)

SCENARIOS = kit_scenarios()
ES_SENTENCES, IT_SENTENCES = sentences(ES), sentences(IT)


def test_the_documents_align_sentence_for_sentence():
    assert len(ES_SENTENCES) == len(IT_SENTENCES) == 60


def test_the_table_in_the_docs_is_the_one_the_tags_give():
    text = TABLE_FILE.read_text(encoding="utf-8")
    table = text.partition(START)[2].partition(END)[0].strip()
    assert table == render_table(), "run: python -m features.traceability"


def test_every_rule_sentence_is_guarded_by_a_scenario():
    cited = {number for scenario in SCENARIOS for number in scenario.sentences}
    for number, sentence in enumerate(ES_SENTENCES, 1):
        if is_heading(sentence) or number in NOT_RULES:
            assert number not in cited, (number, "a heading or a sentence with no rule is cited")
        else:
            assert number in cited, (number, sentence)


def test_every_scenario_says_where_it_comes_from():
    for scenario in SCENARIOS:
        assert scenario.sources, (scenario.ref, f"needs one of {SOURCE_TAGS}")
        # the two documents say the same, sentence for sentence: they are cited together
        assert ("doc-000" in scenario.tags) == ("doc-002" in scenario.tags), scenario.ref
        if "doc-000" in scenario.tags:
            assert scenario.sentences, (scenario.ref, "a rule of the documents names its sentence(s)")
        else:
            assert not scenario.sentences, (scenario.ref, "only a rule of the documents cites a sentence")
        assert all(1 <= number <= len(ES_SENTENCES) for number in scenario.sentences), scenario.ref


def test_a_pyramide_choice_is_not_also_a_rule_of_the_documents():
    for scenario in SCENARIOS:
        if "pyramide-choice" in scenario.tags:
            assert "doc-000" not in scenario.tags and "doc-003" not in scenario.tags, scenario.ref


def test_scenario_names_are_unique():
    refs = [scenario.ref for scenario in SCENARIOS]
    assert len(refs) == len(set(refs)), sorted(ref for ref in refs if refs.count(ref) > 1)


def test_every_tag_is_documented():
    guide = TABLE_FILE.read_text(encoding="utf-8")
    for tag in sorted({tag for scenario in SCENARIOS for tag in scenario.tags}):
        family = re.sub(r"-\d+$", "-N", tag)
        listed = tag.startswith(("rule-", "variant-")) and f"`{tag.split('-', 1)[1]}`" in guide
        assert f"@{tag}" in guide or f"@{family}" in guide or listed, tag
