"""Expected-damage estimate jobs over the API — reserved for the estimates work.

`POST /api/v1/estimates` (unit vs unit, or list vs list) → 202 with the job URL, and
`GET /api/v1/estimates/{id}` → status, progress and, when done, the result, calling the
services and selectors of `armybuilder/estimates/` as its pages do. Job creation must use
`throttling.EstimateThrottle` (the `estimates` rate, already in settings) next to the
default throttles, and raise the exceptions of `exceptions.py` so errors keep their shape.

`urls.py` includes `urlpatterns` below under `/api/v1/`; it is empty until those views exist.
"""

from __future__ import annotations

from django.urls import URLPattern

urlpatterns: list[URLPattern] = []
