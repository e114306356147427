"""The kit's tags say where each scenario comes from, and docs/conformance-traceability.md's tables
are generated from them (``python -m features.traceability``): every rule sentence of the Pyramide
rules (000 es / 002 it) is guarded by a scenario, and every scenario has a source."""

from __future__ import annotations

import re

from features.traceability import (
    END,
    ES,
    GUIDE,
    IT,
    NOT_CITED,
    NOT_RULES,
    OTHER_DOCUMENTS,
    SOURCE_TAGS,
    START,
    TABLE_FILE,
    is_heading,
    is_list_number,
    kit_scenarios,
    render_other_table,
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
    guide = GUIDE.read_text(encoding="utf-8")
    for tag in sorted({tag for scenario in SCENARIOS for tag in scenario.tags}):
        family = re.sub(r"-\d+$", "-N", tag)
        listed = tag.startswith(("rule-", "variant-")) and f"`{tag.split('-', 1)[1]}`" in guide
        assert f"@{tag}" in guide or f"@{family}" in guide or listed, tag


def test_every_sentence_of_003_and_004_is_cited_or_says_why_not():
    """Each sentence of 003 and 004 is guarded by a scenario (``@s003-N``/``@s004-N``), or is a
    heading, a list number or listed in NOT_CITED with its reason; never both, and the tables in
    the docs are the ones the tags give."""
    text = TABLE_FILE.read_text(encoding="utf-8")
    for document, name in OTHER_DOCUMENTS.items():
        cited = {number for scenario in SCENARIOS for number in scenario.cites(document)}
        numbered = sentences(name)
        assert all(1 <= number <= len(numbered) for number in cited), document
        for number, sentence in enumerate(numbered, 1):
            explained = is_heading(sentence) or is_list_number(sentence) or number in NOT_CITED[document]
            assert (number in cited) != explained, (document, number, sentence)
        start, end = f"<!-- traceability-{document}:start -->", f"<!-- traceability-{document}:end -->"
        assert text.partition(start)[2].partition(end)[0].strip() == render_other_table(document)


def test_the_004_preset_is_guarded_whole():
    """Every scenario of 004 names its sentence; every rule sentence of 004 has a scenario."""
    for scenario in SCENARIOS:
        if "doc-004" in scenario.tags and "api" not in scenario.tags:
            assert scenario.cites("004"), scenario.ref
