"""Characters a shown name may not contain.

Bidirectional-control characters (right-to-left override and friends) let a public name
display as something else than it is — `gnp.exe` shown as `exe.png`, or a list name that
reverses the text after it on the gallery page. Names are refused
with such characters rather than silently changed, so what is stored is what was typed.
"""

from __future__ import annotations

#: LRM, RLM, ALM, the embeddings and overrides (LRE..RLO, PDF), and the isolates (LRI..PDI).
BIDI_CONTROLS = frozenset("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def has_bidi_control(text: str) -> bool:
    return any(char in BIDI_CONTROLS for char in text)
