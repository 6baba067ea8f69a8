"""The tests' one set of factories, by what they build:

    opr_units          OPR unit dataclasses (`points.opr.unit`) for the points engine's tests
    opr_combat_units   OPR unit dataclasses and unit prices for the dice engine's tests
    fantasy_units      a one-profile Warhammer Fantasy unit in the catalogue unit format
    army_lists         players, an OPR faction with options, and lists built by the services
    estimate_lists     OPR units in the unit format, catalogue rows and lists for estimate jobs
"""
