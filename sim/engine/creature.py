"""A creature in a fight: its stat block plus everything that changes during the fight.

Stat blocks (``sim.rules.statblocks``) are immutable source-derived facts; a :class:`Creature`
holds the mutable state of one combatant: hit points, position and the squares it covers,
posture, what it holds, what it has used, its lasting effects and its plain statuses. It has no
colour, glyph or drawing code (portrayal lives in ``sim.render``).

Its conditions (:attr:`Creature.conditions`) are a derived, read-only view: the conditions its
lasting effects show (``sim/data/effects.toml``) and its plain statuses
(:data:`sim.engine.effects.STATUSES`: dying, grappled...). Nothing writes them: an effect is started
and ended by :mod:`sim.engine.conditions` (``add``, ``end``), a status set and cleared by
:meth:`Creature.set_status` and :meth:`Creature.clear_status` (or their event-emitting forms in
:mod:`sim.engine.conditions`). Two sources of one condition (hold person's paralysis and a
rider's) keep it shown while either lasts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.base.coords import Pos
from sim.engine.effects import SHOWS, STATUSES, Effect
from sim.rules.sizes import Size
from sim.rules.statblocks import Attack, StatBlock, without_armor

# Conditions that take a creature out of the fight (RULES §5.5): it cannot act.
OUT_OF_FIGHT = frozenset({"dead", "dying", "unconscious", "dispersed", "asleep", "stable", "paralyzed",
                          "poison_unconscious"})
NONLIVING_TYPES = frozenset({"undead", "construct"})

@dataclass(slots=True, eq=False)
class Creature:
    id: str
    name: str
    team: str
    template: str
    block: StatBlock
    base_block: StatBlock
    hp: int
    max_hp: int
    pos: Pos
    squares: list[Pos]
    trail: list[Pos] = field(default_factory=list)
    prone: bool = False
    armor_off: bool = False
    armor_work: int = 0                  # rounds of work left taking its armor off (sim.engine.armor)
    armor_total: int = 0                 # rounds of that work in all
    armor_helper: str | None = None      # the ally helping it (the time halves)
    helping: str | None = None           # the ally whose armor it helps take off
    wielding: str | None = None          # the attack name in hand (main weapon)
    items: dict[str, int] = field(default_factory=dict)
    torch_lit: bool = False              # the torch in hand is lit (a weapon too: +1 fire, RULES §3.5)
    light: str | None = None             # another lit light it holds: a lantern, a sunrod... (RULES §9.1):
    #                                      it sheds light in sight, and a lit lantern bursts when thrown
    initiative: int = 0
    init_modifier: int = 0
    flat_footed: bool = True
    aoo_used: int = 0
    statuses: frozenset[str] = frozenset()   # its plain statuses (sim.engine.effects.STATUSES), set by set_status
    nonlethal: int = 0
    ability_damage: dict[str, int] = field(default_factory=dict)
    bleed: int = 0                       # wounding: hp lost per round until healed (RULES §4.9)
    poison_due: list[tuple[int, str, str]] = field(default_factory=list)  # (round, rider key, swarm id)
    diseases: list[str] = field(default_factory=list)
    rage_used: bool = False              # raged this fight (then fatigued: no second rage)
    charged: bool = False                # -2 AC until its next turn (§6.5)
    spells_left: dict[int, list[str]] = field(default_factory=dict)
    pending_spell: tuple | None = None   # sleep: takes effect at the start of the caster's next turn
    squeezing_rounds: int = 0
    nauseated_rounds: int = 0
    kills: list[str] = field(default_factory=list)
    unloaded: set[str] = field(default_factory=set)          # fired crossbows and slings (RULES §3.3)
    fused: dict[str, int] = field(default_factory=dict)      # oil flasks with a fuse ready (RULES §3.5)
    thrown_left: dict[str, int] = field(default_factory=dict)  # weapon key -> how many it can still throw
    fell_at: Pos | None = None
    grapple_with: list[str] = field(default_factory=list)   # the creatures it is grappling with (docs/rules.md §11)
    pinned_by: str | None = None         # held immobile by this creature until its next turn (§11.5)
    split_round: int = 0                 # a split ooze's new half: the round it split off (docs/rules.md §11.14)
    effects: list[Effect] = field(default_factory=list)   # its lasting effects (sim.engine.effects)
    uses: dict[str, int] = field(default_factory=dict)    # uses spent this fight: "web" (a spider's webs
    #                                      thrown), "sla:SPELL" (a spell-like ability's uses, docs/rules.md §8.5)

    # -- identity -----------------------------------------------------------------------------------
    @property
    def size(self) -> Size:
        return self.block.size

    @property
    def is_swarm(self) -> bool:
        return self.block.is_swarm

    @property
    def k(self) -> int:
        """Side of the block of squares the creature covers (swarms: 1 per square of its shape)."""
        return 1 if self.is_swarm else self.block.size.squares

    def reach_ft(self) -> int:
        """Natural reach (0 for Tiny and smaller creatures and for swarms, RULES §1.1, §4.2)."""
        return 0 if self.is_swarm else int(self.block.reach_ft)

    @property
    def flies(self) -> bool:
        """It moves by flying: a swarm with a fly speed, or a creature that flies faster than it walks."""
        sp = self.block.speed
        return bool(sp.fly) and (self.is_swarm or sp.fly > sp.land)

    def speed_ft_value(self) -> int:
        """The speed it moves at: fly speed for fliers (:attr:`flies`), else land speed."""
        return int(self.block.speed.fly) if self.flies else int(self.block.speed.land)

    @property
    def living(self) -> bool:
        return self.block.type not in NONLIVING_TYPES

    @property
    def mindless(self) -> bool:
        return self.block.abilities.int is None

    @property
    def sightless(self) -> bool:
        """Blind by nature (``[senses] blind``: grimlocks, oozes): it sees nothing, perceives by
        blindsight and its other senses, and nothing that works through sight touches it (gaze,
        blinding; docs/rules.md §9.3)."""
        return bool(self.block.senses.blind)

    # -- state ----------------------------------------------------------------------------------------
    @property
    def conditions(self) -> frozenset[str]:
        """The conditions it shows: its statuses and the conditions its effects show (read-only)."""
        if not self.effects:
            return self.statuses
        return self.statuses.union(cond for e in self.effects if (cond := SHOWS[e.kind]) is not None)

    def set_status(self, name: str) -> bool:
        """Set the plain status ``name`` (one of :data:`~sim.engine.effects.STATUSES`; another is a
        ValueError); whether it was not set before. No event: see :func:`sim.engine.conditions.set_status`."""
        if name not in STATUSES:
            raise ValueError(f"{name!r} is not a status (sim.engine.effects.STATUSES); a condition with a "
                             "duration or a source is an effect (sim/data/effects.toml)")
        if name in self.statuses:
            return False
        self.statuses = self.statuses | {name}
        return True

    def clear_status(self, name: str) -> bool:
        """Clear the plain status ``name`` (a known one, as :meth:`set_status`); whether it was set."""
        if name not in STATUSES:
            raise ValueError(f"{name!r} is not a status (sim.engine.effects.STATUSES)")
        if name not in self.statuses:
            return False
        self.statuses = self.statuses - {name}
        return True

    @property
    def alive(self) -> bool:
        shown = self.conditions
        return "dead" not in shown and "dispersed" not in shown

    @property
    def in_fight(self) -> bool:
        """Able to act (not dead, dying, unconscious, asleep, dispersed)."""
        return not (self.conditions & OUT_OF_FIGHT)

    @property
    def helpless(self) -> bool:
        return bool(self.conditions & {"unconscious", "asleep", "dying", "stable", "paralyzed", "dead",
                                       "poison_unconscious"})

    @property
    def nauseated(self) -> bool:
        return "nauseated" in self.conditions

    @property
    def grappling(self) -> bool:
        """In a grapple (docs/rules.md §11): no threatened squares, light weapons only, no Dex to AC
        against creatures outside the grapple."""
        return bool(self.grapple_with)

    @property
    def disabled(self) -> bool:
        return "disabled" in self.conditions

    @property
    def single_action(self) -> bool:
        """Disabled or staggered: one move or standard action a turn (RULES §5.5)."""
        return "disabled" in self.conditions or "staggered" in self.conditions

    def dex_mod_delta(self) -> int:
        """Change of the Dex modifier from ability damage (poison: RULES §4.9)."""
        return _mod_delta(self.block.abilities.dex, self.ability_damage.get("dex", 0))

    def str_mod_delta(self) -> int:
        return _mod_delta(self.block.abilities.str, self.ability_damage.get("str", 0))

    # -- what it holds ------------------------------------------------------------------------------
    def attack_named(self, name: str) -> Attack | None:
        for a in self.block.attacks:
            if a.name == name:
                return a
        return None

    def melee_options(self) -> list[Attack]:
        return [a for a in self.block.attacks if a.mode == "melee"]

    def ranged_options(self) -> list[Attack]:
        return [a for a in self.block.attacks if a.mode == "ranged"]

    def wielded(self) -> Attack | None:
        return self.attack_named(self.wielding) if self.wielding else None

    def take_armor_off(self, *, drop_shield: bool = False) -> None:
        """Armor off (and the shield, with ``drop_shield``): before crawlways and tighter spaces
        (RULES §2.4, §7.33); AC, speed and Escape Artist change with it."""
        if not self.armor_off and self.block.armor is not None:
            self.block = without_armor(self.block, drop_shield=drop_shield)
            self.armor_off = True

    def put_armor_on(self) -> None:
        if self.armor_off:
            self.block = self.base_block
            self.armor_off = False


def _mod_delta(score: int | None, damage: int) -> int:
    if score is None or not damage:
        return 0
    before = (score - 10) // 2
    after = (max(0, score - damage) - 10) // 2
    return after - before
