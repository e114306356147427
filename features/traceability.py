"""Where each scenario of the kit comes from, read from its tags, and the rule sentences they cite.

Every scenario carries at least one **source tag**:

- ``@doc-000`` and ``@doc-002``: a rule of the Pyramide app's documents (Spanish and Italian, which
  align sentence for sentence); ``@sentence-N`` names the sentence(s) it guards, numbered as in
  the traceability table of ``docs/conformance.md``;
- ``@doc-003``: a variant named by the traditional rules (``003_…``);
- ``@pyramide-choice``: where the documents are silent, Pyramide's own choice;
- ``@api``: Pyramide's API contract (status codes, ``legal-moves``, ``describe``), not a rule;
- ``@codes``: Pyramide's deal-code scheme (``PYR1-…``; the app's ``PY1-…`` codes refused but for the documents' deal).

The tags are the one source: ``python -m features.traceability`` rewrites the table in
``docs/conformance.md`` from them, and ``tests/test_conformance_table.py`` fails when the two differ.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

FEATURES = Path(__file__).resolve().parent
ROOT = FEATURES.parent
SOURCES = ROOT / "docs" / "sources"
TABLE_FILE = ROOT / "docs" / "conformance.md"
SOURCE_TAGS = ("doc-000", "doc-002", "doc-003", "doc-004", "pyramide-choice", "api", "codes")
#: Sentences of 000/002 that state no rule, with the reason (headings are found by their form).
NOT_RULES = {
    53: "not a rule: says there is no official rulebook",
    54: "introduces the four choices below (55–58)",
    60: "not a rule: points to the sources",
}
START, END = "<!-- traceability:start -->", "<!-- traceability:end -->"


@dataclass(frozen=True)
class Scenario:
    feature: str  # the feature file's stem
    name: str  # as written, placeholders included
    tags: frozenset[str]

    @property
    def sentences(self) -> list[int]:
        return sorted(int(tag[9:]) for tag in self.tags if tag.startswith("sentence-"))

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


def render_table() -> str:
    """The traceability table: each sentence of 000/002 and the scenarios that cite it."""
    es, it = sentences(ES), sentences(IT)
    citing: dict[int, list[str]] = {}
    for scenario in kit_scenarios():
        for number in scenario.sentences:
            citing.setdefault(number, []).append(scenario.ref)
    lines = ["| # | 000 (es) | 002 (it) | scenarios |", "|---|---|---|---|"]
    for number, (sentence_es, sentence_it) in enumerate(zip(es, it), 1):
        if number in citing:
            refs = "<br>".join(citing[number])
        elif is_heading(sentence_es):
            refs = "— (heading)"
        else:
            refs = f"— ({NOT_RULES.get(number, 'NOT COVERED')})"
        lines.append(f"| {number} | «{_short(sentence_es)}» | «{_short(sentence_it)}» | {refs} |")
    return "\n".join(lines)


def sentence_text(number: int, document: str = ES) -> str:
    """Sentence ``number`` (from 1) of a document, as the kit's reports quote it."""
    return sentences(document)[number - 1]


def write_table() -> bool:
    """Rewrite the table in docs/conformance.md; True if it changed."""
    text = TABLE_FILE.read_text(encoding="utf-8")
    head, _, rest = text.partition(START)
    _, _, tail = rest.partition(END)
    new = f"{head}{START}\n{render_table()}\n{END}{tail}"
    if new != text:
        TABLE_FILE.write_text(new, encoding="utf-8")
    return new != text


if __name__ == "__main__":
    changed = write_table()
    print("docs/conformance.md: table rewritten" if changed else "docs/conformance.md: table up to date")
    sys.exit(0)
