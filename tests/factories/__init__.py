"""The tests' one set of factories, by what they build:

    opr_units          OPR unit dataclasses (`points.opr.unit`) for the points engine's tests
    opr_combat_units   OPR unit dataclasses and unit prices for the dice engine's tests
    fantasy_units      a one-profile Warhammer Fantasy unit in the catalogue unit format
    opr_documents      OPR units in the interchange format (JSON-ready dicts) and their weapons
    army_lists         players (one password), API token clients, an OPR faction with options,
                       and lists built by the services
    estimate_lists     catalogue rows and lists of OPR units for estimate jobs and the API
"""
