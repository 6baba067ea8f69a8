"""Every unit of one list against every unit of another: the matchup matrix.

System-agnostic: it takes the system's attack as a callable, so the same loop serves a
Celery job for any system, with progress reported after each matchup.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

UnitT = TypeVar("UnitT")
ResultT = TypeVar("ResultT")
Progress = Callable[[int, int], None]


def matchup_matrix(
    rows: Sequence[UnitT],
    columns: Sequence[UnitT],
    attack: Callable[[UnitT, UnitT], ResultT],
    *,
    on_progress: Progress | None = None,
) -> list[list[ResultT]]:
    """matrix[i][j] = attack(rows[i], columns[j]); `on_progress(done, total)` after each one
    (and once with (0, total) before the first, so a progress bar can show its size)."""
    total = len(rows) * len(columns)
    if on_progress:
        on_progress(0, total)
    matrix: list[list[ResultT]] = []
    done = 0
    for attacker in rows:
        row = []
        for defender in columns:
            row.append(attack(attacker, defender))
            done += 1
            if on_progress:
                on_progress(done, total)
        matrix.append(row)
    return matrix


def matchup_rows(
    rows: Sequence[UnitT],
    columns: Sequence[UnitT],
    attack_row: Callable[[UnitT, Sequence[UnitT]], list[ResultT]],
    *,
    on_progress: Progress | None = None,
) -> list[list[ResultT]]:
    """`matchup_matrix` for a system that computes a row at once: matrix[i] =
    attack_row(rows[i], columns); `on_progress(done, total)` after each row (and once with
    (0, total) before the first)."""
    total = len(rows) * len(columns)
    if on_progress:
        on_progress(0, total)
    matrix: list[list[ResultT]] = []
    for attacker in rows:
        matrix.append(attack_row(attacker, columns))
        if on_progress:
            on_progress(len(matrix) * len(columns), total)
    return matrix
