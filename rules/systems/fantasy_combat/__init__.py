"""Exact Warhammer Fantasy combat maths, shared by WHFB 6th (`docs/rules/whfb6.md`) and the Russian
house rules (`docs/rules/ru_whfb.md`), whose differences are the switches of `variants.Variants`.

Modules: `tables` (the printed tables), `units` (reading unit dicts), `frontage` (who fights:
models in base contact), `blows` (one die, hit to unsaved wound), `wound_track` (wounds lost
by a unit, die by die), `combat` (shooting, strike order), `resolution` (combat result, break
test), `situation` (schema, checks), `estimate` (the registry's `attack`).

Decisions (where the specs leave a case open; each is written where it is implemented, and
gathered in the repository's `docs/rules/fantasy.md`):
- who fights — how the units line up (the most models of both sides in contact) and which
  models touch (`frontage`);
- the battle standard's own unit re-rolls its failed break test (`resolution`);
- bases of the troop types the specs do not size (`tables.BASES`);
- a Stubborn unit using its General's Ld tests it unmodified; the result names the Ld and the
  modifier each break test used (`resolution`);
- wounds caused by a Multiple Wounds hit beyond its model do not count (`resolution`).

Unit format for Warhammer Fantasy (what the `content` session writes)
--------------------------------------------------------------------
A unit is the shared envelope `{"format": 1, "system": "whfb6" | "ru_whfb", "name", "models": [...]}`.
Each model (one row per model type; command models may be their own rows) has:

- `name`, `count`, `points` (per model);
- characteristics `m ws bs s t w i a ld` (null is the books' "-": the model lacks it);
- `base`: the base in mm, "25x50" or [25, 50] (frontage × depth; default by troop type,
  `tables.BASES`), for who fights (§6.2);
- `troop_type`: infantry | cavalry | monstrous | chariot | war_machine | monster |
  ridden_monster | swarm | character (Unit Strength §3.1; Killing Blow's man-sized: infantry,
  cavalry, character); `unit_strength` overrides the table; `character: true` for Lords/Heroes;
- kit, from which the armour save is built (§7.1): `armour` none | light | heavy, `shield`,
  `barding`, `mounted` (default: true for cavalry or with a `mount`), `scaly_skin` (X+);
  items named "Light Armour", "Heavy Armour", "Shield", "Enchanted Shield", "Barding",
  "Talisman of Protection", "Sword of Striking/Battle/Might", "Biting Blade", "War Banner"
  in `items` count too;
- `save` (X+): when given it is used as is and overrides the kit (no hand weapon + shield bonus);
  `ward` (X+); `regeneration` (X+; the rule "Regeneration" alone means 4+);
- `mount`: `{"name", "ws", "s", "i", "a", "rules"}` — a cavalry mount's own attacks (§3.3, §6.4);
- `rules`: strings, `Name` or `Name(X)`. Read by the engine: Hatred, Frenzy, Always Strikes
  First, Always Strikes Last, Killing Blow, Poisoned Attacks, Flaming Attacks, Flammable,
  Armour Piercing, Stubborn, Unbreakable, Immune to Psychology, Fear / Causes Fear / Terror,
  Large Target, Skirmishers, Fast Cavalry, Two Hand Weapons, Impact Hits(D6), Scythed Wheels,
  Regeneration(X), Ward Save(X), Scaly Skin(X); RU only: Devastating Charge, Extra Attack,
  Fight in Extra Rank, Breath Weapon(S), Magic Resistance(1–4), Ethereal, Quick to Fire, Light
  Cavalry, Sniper. Rule names may be written in English or in the seed's language (Czech,
  Russian), as the catalogue accepts them (`rule_names`);
- `weapons`: `{"name", "range" (0: close combat), "strength" (number, "user" or "+N"),
  "kind", "armour_piercing", "multiple_wounds" ("D3", "D6", 2), "shots", "no_armour_save",
  "flaming", "poisoned", "killing_blow", "magic" (a magic weapon), "hits" (a spell's automatic
  hits, "D6"), "rules"}`.
  `kind` is one of hand_weapon, great_weapon (+2 S, strikes last), flail (+2 S first round),
  morning_star (+1 S first round), halberd (+1 S), spear (fights in two ranks), cavalry_spear
  (+1 S charging), lance (+2 S charging), pistol (S4, armour piercing first round) — §12.1 —
  or missile, thrown (no move/long-range penalty), move_or_fire, spell. Without `kind` it is
  read from the name ("Great Weapon", "Halberd", "Spear", …) or the range. A spear is the
  carrier's (§12.1): on a mounted model (cavalry, chariot, ridden monster, a `mount`, or a row
  of a unit with a chariot or a ridden monster) it is a cavalry_spear. A great weapon's
  or halberd's own bonus applies when `strength` is "user"; "+N" or a number replaces it.
  Rules "Multiple Wounds(D3)", "No Armour Save", "Fight in Ranks", "Armour Piercing",
  "Multiple Shots(2)" on a weapon are read as the structured fields.

Who is hit: the unit's *pool* (see `units.Unit`): its largest non-character group and every
other non-character group with the same defensive profile (command models). Characters are
not hit; the kills distribution counts pool models.
"""
