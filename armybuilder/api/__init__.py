"""The REST API under `/api/v1/`: the same services and selectors as the pages.

Viewsets here only translate HTTP to the calls the htmx views make (`rules.selectors`,
`armybuilder.lists.services`, `armybuilder.lists.selectors`, `armybuilder.lists.sharing`, the game-system
registry) and translate the answer back; no business rule lives in this package.

One module per concern, as in DRF itself: `parsers` (bounded JSON), `exceptions` (the one
error shape), `throttling`, `pagination`, `filters`, `permissions`, `serializers`, `schema`
(OpenAPI), `preconditions` (ETag / If-Match), and one module of views per resource:
`auth`, `catalogue`, `points`, `lists`, `shared`, `estimates`.
"""
