"""The engine's errors. Every one carries a stable machine ``code`` (the key of its message in the
catalogues of ``service/locales``), the ``params`` its message needs and, where it applies, the
``field`` of the input that is wrong.

Like python-chess, the errors are ``ValueError`` subclasses:

- :class:`InvalidMoveError`: the move itself is malformed (an unknown card, an unknown type).
- :class:`IllegalMoveError`: a well-formed move that the rules forbid in this position.
- :class:`InvalidStateError`: a state that no game can reach (``invalid_state``).
- :class:`InvalidCodeError`: a deal code that names no deal (``invalid_code``).
- :class:`AppCodeError`: a code of the Pyramide app whose deal cannot be reproduced (``app_code``).
"""

from __future__ import annotations

from typing import Any


class PyramideError(ValueError):
    """Base class: ``code`` is stable, ``str(error)`` is the English message.

    ``detail`` narrows a broad code (``invalid_state``, ``invalid_code``) to what exactly is wrong;
    the message is looked up under ``code.detail`` then.
    """

    def __init__(
        self, code: str, *, detail: str | None = None, field: str | None = None, **params: Any
    ) -> None:
        self.code = code
        self.detail = detail
        self.field = field
        self.params = params
        super().__init__(code if detail is None else f"{code}.{detail}")

    @property
    def message_key(self) -> str:
        return self.code if self.detail is None else f"{self.code}.{self.detail}"

    def message(self, lang: str = "en") -> str:
        from ..locales import translate

        params = {
            name: value.message(lang) if isinstance(value, PyramideError) else value for name, value in self.params.items()
        }  # an error given as a parameter (why a logged move was refused) is said in the same language
        return translate(lang, self.message_key, **params)

    def __str__(self) -> str:
        return self.message("en")

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message_key!r}, field={self.field!r}, **{self.params!r})"


class InvalidMoveError(PyramideError):
    """The move is not a move: unknown card, unknown type, a pair of one card."""


class IllegalMoveError(PyramideError):
    """The move is well formed, but the rules forbid it here."""


class InvalidStateError(PyramideError):
    """The state cannot occur in any game; ``detail`` says what is wrong."""

    def __init__(self, detail: str, *, field: str | None = None, **params: Any) -> None:
        super().__init__("invalid_state", detail=detail, field=field, **params)


class InvalidCodeError(PyramideError):
    """The deal code names no deal; ``detail`` says which part is wrong."""

    def __init__(self, detail: str, *, field: str | None = "code", **params: Any) -> None:
        super().__init__("invalid_code", detail=detail, field=field, **params)


class AppCodeError(PyramideError):
    """A seed code of the Pyramide app (``PY1-<rules>-<7 letters>``): the app's generator is
    unpublished, so its deal cannot be dealt here (``app_code``). The parameter ``app_code`` is the
    code, ``ours`` this project's code with the same letters (what the app code dealt here before
    this project's codes were told apart from the app's)."""

    def __init__(self, *, field: str | None = "code", **params: Any) -> None:
        super().__init__("app_code", field=field, **params)
