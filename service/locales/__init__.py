"""Message catalogues: one gettext ``.po`` file a language, read as it is (no compile step).

Messages are keyed by stable ids (``sum_not_13``, ``card.rank.12``, ``describe.board``…); ``en.po``
is the reference catalogue and the fallback. Placeholders are ``{name}``. Standard library only, so
the engine can use it; ``tests/engine/test_locales.py`` checks that Babel reads every catalogue the same.
"""

from __future__ import annotations

import gettext
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

__all__ = ["DEFAULT_LANGUAGE", "LANGUAGES", "catalogue", "translate", "translate_plural"]

_HERE = Path(__file__).parent
#: The languages with a catalogue, the default first.
LANGUAGES: tuple[str, ...] = ("en", "es", "it", "fr")
DEFAULT_LANGUAGE = "en"


class Catalogue:
    def __init__(self, messages: dict[str, str | list[str]], plural: Callable[[int], int]) -> None:
        self.messages = messages
        self.plural = plural


def _unquote(line: str, path: Path, number: int) -> str:
    try:
        value = json.loads(line)
    except ValueError:
        raise ValueError(f"{path}:{number}: not a quoted string: {line!r}") from None
    if not isinstance(value, str):
        raise ValueError(f"{path}:{number}: not a quoted string: {line!r}")
    return value


def read_po(path: Path) -> Catalogue:
    """Entries of the form ``msgid "…"`` / ``msgid_plural`` / ``msgstr`` / ``msgstr[n]``, strings
    continued on the following lines, ``#`` comments."""
    entries: list[dict[str, str]] = []
    current: dict[str, str] = {}
    keyword = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            if keyword is None:
                raise ValueError(f"{path}:{number}: string outside an entry")
            current[keyword] += _unquote(line, path, number)
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "msgid" and "msgid" in current:
            entries.append(current)
            current = {}
        if keyword in current:
            raise ValueError(f"{path}:{number}: {keyword} twice in one entry")
        current[keyword] = _unquote(rest.strip(), path, number)
    if current:
        entries.append(current)
    messages: dict[str, str | list[str]] = {}
    plural_forms = "nplurals=2; plural=(n != 1);"
    for entry in entries:
        key = entry["msgid"]
        if key == "":
            for header in entry.get("msgstr", "").splitlines():
                name, _, value = header.partition(":")
                if name.strip().lower() == "plural-forms":
                    plural_forms = value.strip()
            continue
        if "msgid_plural" in entry:
            forms = [entry[k] for k in sorted(k for k in entry if k.startswith("msgstr["))]
            if any(forms):
                messages[key] = forms
        elif entry.get("msgstr"):
            messages[key] = entry["msgstr"]
    expression = plural_forms.split("plural=", 1)[1].rstrip(";").strip()
    return Catalogue(messages, gettext.c2py(expression))


@lru_cache(maxsize=None)
def catalogue(language: str) -> Catalogue:
    if language not in LANGUAGES:
        raise KeyError(language)
    return read_po(_HERE / f"{language}.po")


def _lookup(language: str, key: str) -> tuple[Catalogue, str | list[str]]:
    for lang in (language, DEFAULT_LANGUAGE):
        cat = catalogue(lang if lang in LANGUAGES else DEFAULT_LANGUAGE)
        if key in cat.messages:
            return cat, cat.messages[key]
    raise KeyError(f"no message {key!r} in any catalogue")


class _Params(dict[str, object]):
    def __missing__(self, name: str) -> str:  # a placeholder with no value stays as it is
        return "{" + name + "}"


def translate(language: str, key: str, **params: Any) -> str:
    """The message ``key`` in ``language`` (English where that catalogue lacks it)."""
    _, message = _lookup(language, key)
    if isinstance(message, list):
        message = message[0]
    return message.format_map(_Params(params))


def translate_plural(language: str, key: str, n: int, **params: Any) -> str:
    cat, forms = _lookup(language, key)
    if isinstance(forms, str):
        forms = [forms]
    return forms[min(cat.plural(n), len(forms) - 1)].format_map(_Params(params, n=n))
