"""Where each scenario of the kit comes from, read from its tags, and the rule sentences they cite.

Every scenario carries at least one **source tag**:

- ``@doc-000`` and ``@doc-002``: a rule of the Pyramide app's documents (Spanish and Italian, which
  align sentence for sentence); ``@sentence-N`` names the sentence(s) it guards, numbered as in
  the traceability table of ``docs/conformance-traceability.md``;
- ``@doc-003``: a variant named by the traditional rules (``003_…``); ``@doc-004``: a rule of
  another app's rules (``004_…``), under its preset; ``@s003-N`` / ``@s004-N`` name the sentence of
  003 / 004 a scenario guards, numbered as in their tables in ``docs/conformance-traceability.md``;
- ``@pyramide-choice``: where the documents are silent, Pyramide's own choice;
- ``@api``: Pyramide's API contract (status codes, ``legal-moves``, ``describe``), not a rule;
- ``@codes``: Pyramide's deal-code scheme (``PYR1-…``; the app's ``PY1-…`` codes refused but for the documents' deal).

The tags are the one source: ``python -m features.traceability`` rewrites the tables in
``docs/conformance-traceability.md`` from them, and ``tests/kit/test_conformance_table.py`` fails when
the two differ, or when a tag is not documented in the kit's guide, ``docs/conformance.md``.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

FEATURES = Path(__file__).resolve().parent
ROOT = FEATURES.parent
SOURCES = ROOT / "docs" / "sources"
TABLE_FILE = ROOT / "docs" / "conformance-traceability.md"
#: The kit's guide, which documents every tag.
GUIDE = ROOT / "docs" / "conformance.md"
SOURCE_TAGS = ("doc-000", "doc-002", "doc-003", "doc-004", "pyramide-choice", "api", "codes")
#: Sentences of 000/002 that state no rule, with the reason (headings are found by their form).
NOT_RULES = {
    53: "not a rule: says there is no official rulebook",
    54: "introduces the four choices below (55–58)",
    60: "not a rule: points to the sources",
}
START, END = "<!-- traceability:start -->", "<!-- traceability:end -->"
#: The other documents, each with its own table (``<!-- traceability-003:start -->``…).
OTHER_DOCUMENTS = {"003": "003_f72c76bfd86e6a71.txt", "004": "004_547cbeafbe1b8e95.txt"}
_SAME_AS_APP = "the app's rule too: guarded under the app's rules (000/002 table above)"
_ADVICE = "not a rule: advice"
#: Sentences of 003 and 004 that no scenario cites, each with the reason (headings and list
#: numbers are found by their form).
NOT_CITED: dict[str, dict[int, str]] = {
    "003": {
        2: _SAME_AS_APP, 3: _SAME_AS_APP, 4: _SAME_AS_APP, 5: "not a rule: the win rate and a deal's length",
        6: _SAME_AS_APP, 8: "not a rule: one player", 9: "not a rule: no two-player variant",
        11: _SAME_AS_APP, 12: _SAME_AS_APP, 13: _SAME_AS_APP, 15: _SAME_AS_APP,
        19: "the shuffle: a deal code's cards (docs/deal-codes.md)", 21: _SAME_AS_APP, 22: _SAME_AS_APP,
        26: _SAME_AS_APP, 29: "the foundation: the state's `foundation`, in every removal",
        30: "not a rule of play: nothing is drawn from the foundation (no move names it)",
        33: _SAME_AS_APP, 34: _SAME_AS_APP, 36: _SAME_AS_APP, 37: _SAME_AS_APP, 38: _SAME_AS_APP,
        39: _SAME_AS_APP, 41: _SAME_AS_APP, 42: _ADVICE, 44: _SAME_AS_APP, 45: _SAME_AS_APP,
        48: _SAME_AS_APP, 49: _SAME_AS_APP, 50: _SAME_AS_APP,
        60: "not a rule: how often", 62: "not a rule: how often",
        64: "not a rule: no tie-break (the app's score, 000, is Pyramide's)",
        65: "a scoring convention Pyramide does not use (the app's score, 000, is its own)",
        74: _ADVICE, 75: _ADVICE, 76: _ADVICE, 77: _ADVICE, 78: _ADVICE, 79: _ADVICE, 80: _ADVICE, 81: _ADVICE,
        83: _SAME_AS_APP, 84: _SAME_AS_APP, 86: _SAME_AS_APP, 87: _SAME_AS_APP, 88: _SAME_AS_APP,
    },
    "004": {
        9: "introduces the four parts below (10–17)",
        17: "the foundation: the state's `foundation`, in every removal",
        48: "not a rule: other versions exist", 49: "not a rule: other versions exist",
        50: "not a rule: the author's choice of version",
    },
}


@dataclass(frozen=True)
class Scenario:
    feature: str  # the feature file's stem
    name: str  # as written, placeholders included
    tags: frozenset[str]

    @property
    def sentences(self) -> list[int]:
        return sorted(int(tag[9:]) for tag in self.tags if tag.startswith("sentence-"))

    def cites(self, document: str) -> list[int]:
        """The sentences of 003 or 004 the scenario guards (``@s003-N``, ``@s004-N``)."""
        prefix = f"s{document}-"
        return sorted(int(tag[len(prefix) :]) for tag in self.tags if tag.startswith(prefix))

    @property
    def sources(self) -> list[str]:
        return [tag for tag in SOURCE_TAGS if tag in self.tags]

    @property
    def ref(self) -> str:
        return f"{self.feature} › {self.name}"


def kit_scenarios() -> list[Scenario]:
    """Every Scenario and Scenario Outline of the kit, with its own and its feature's tags."""
    found = []
    for path in sorted(FEATURES.glob("*.feature")):
        feature_tags: set[str] = set()
        pending: set[str] = set()
        for line in path.read_text(encoding="utf-8").splitlines():
            text = line.strip()
            if text.startswith("@"):
                pending.update(re.findall(r"@([\w-]+)", text))
            elif text.startswith("Feature:"):
                feature_tags, pending = pending, set()
            elif match := re.match(r"Scenario(?: Outline)?: (.+?)\s*$", text):
                found.append(Scenario(path.stem, match.group(1), frozenset(feature_tags | pending)))
                pending = set()
    return found


def sentences(name: str) -> list[str]:
    """A rule document's sentences: each line, cut after . ! or ? before a capital, « ¿ ¡ or -."""
    result = []
    for line in (SOURCES / name).read_text(encoding="utf-8").splitlines():
        if line.strip():
            result += [part for part in re.split(r"(?<=[.!?])\s+(?=[A-ZÁÉÍÓÚÑ«¿¡-])", line.strip()) if part]
    return result


ES = "000_369e66307d0cf5b5.txt"
IT = "002_224e56cc05e4c4d0.txt"


def is_heading(sentence: str) -> bool:
    return not sentence.endswith((".", ":", "»"))


def _short(sentence: str, words: int = 9) -> str:
    parts = sentence.split()
    return " ".join(parts[:words]) + ("…" if len(parts) > words else "")


def _citing(cited_by) -> dict[int, list[str]]:
    """Sentence number → the scenarios citing it; ``cited_by(scenario)`` gives its numbers."""
    citing: dict[int, list[str]] = {}
    for scenario in kit_scenarios():
        for number in cited_by(scenario):
            citing.setdefault(number, []).append(scenario.ref)
    return citing


def _scenarios_cell(number: int, sentence: str, citing: dict[int, list[str]], reasons: dict[int, str]) -> str:
    """The scenarios citing a sentence or, when none does, why: a heading, a list number, a reason."""
    if number in citing:
        return "<br>".join(citing[number])
    if is_list_number(sentence):
        return "— (list number)"
    if is_heading(sentence):
        return "— (heading)"
    return f"— ({reasons.get(number, 'NOT COVERED')})"


def render_table() -> str:
    """The traceability table: each sentence of 000/002 and the scenarios that cite it."""
    citing = _citing(lambda scenario: scenario.sentences)
    lines = ["| # | 000 (es) | 002 (it) | scenarios |", "|---|---|---|---|"]
    for number, (sentence_es, sentence_it) in enumerate(zip(sentences(ES), sentences(IT)), 1):
        refs = _scenarios_cell(number, sentence_es, citing, NOT_RULES)
        lines.append(f"| {number} | «{_short(sentence_es)}» | «{_short(sentence_it)}» | {refs} |")
    return "\n".join(lines)


def is_list_number(sentence: str) -> bool:
    return re.fullmatch(r"\d+\.", sentence) is not None


def render_other_table(document: str) -> str:
    """The table of 003 or 004: each sentence, and the scenarios that cite it or why none does."""
    citing = _citing(lambda scenario: scenario.cites(document))
    lines = [f"| # | {document} (es) | scenarios |", "|---|---|---|"]
    for number, sentence in enumerate(sentences(OTHER_DOCUMENTS[document]), 1):
        lines.append(f"| {number} | «{_short(sentence)}» | {_scenarios_cell(number, sentence, citing, NOT_CITED[document])} |")
    return "\n".join(lines)


def _markers(document: str) -> tuple[str, str]:
    return f"<!-- traceability-{document}:start -->", f"<!-- traceability-{document}:end -->"


def sentence_text(number: int, document: str = ES) -> str:
    """Sentence ``number`` (from 1) of a document, as the kit's reports quote it."""
    return sentences(document)[number - 1]


def write_table() -> bool:
    """Rewrite the tables in docs/conformance-traceability.md; True if one changed."""
    text = TABLE_FILE.read_text(encoding="utf-8")
    new = text
    tables = [(START, END, render_table())]
    tables += [(*_markers(document), render_other_table(document)) for document in OTHER_DOCUMENTS]
    for start, end, table in tables:
        head, _, rest = new.partition(start)
        _, _, tail = rest.partition(end)
        new = f"{head}{start}\n{table}\n{end}{tail}"
    if new != text:
        TABLE_FILE.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    changed = write_table()
    print("docs/conformance-traceability.md: tables rewritten" if changed else "docs/conformance-traceability.md: tables up to date")
    sys.exit(0)
