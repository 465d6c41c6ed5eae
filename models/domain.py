"""Typed domain objects of a ruleset. Conditions and effect arguments stay as the
validated YAML mappings: the encoder interprets them, nothing else does."""
from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import Any

# tag meanings whose holder cannot decline the skill: 强制, and 锁定技 as the encodings'
# own assumptions define it (满足条件即必定生效、不可选择不发动)
FORCED_MEANINGS = ("forced", "locked")


@dataclass(frozen=True)
class Where:
    """Where an element comes from: lines of source.txt and the line in ruleset.yaml."""
    src: tuple[int, ...]
    yaml_line: int

    @property
    def line(self) -> int:
        return self.src[0] if self.src else 0


@dataclass(frozen=True)
class Phase:
    name: str
    index: int
    once: bool
    where: Where


@dataclass(frozen=True)
class Window:
    name: str
    phases: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class Faction:
    name: str
    win: dict | None
    lose: dict | None
    shares_win: bool
    where: Where
    external: bool = False    # its end conditions live in base rules we do not have


@dataclass(frozen=True)
class Status:
    name: str
    blocks: frozenset[str]
    except_causes: frozenset[str]
    permanent: bool
    negative: bool
    external: bool
    where: Where
    blocks_tags: frozenset[str] = frozenset()   # blocks only the skills with one of these tags
    except_tags: frozenset[str] = frozenset()   # … unless the skill also has one of these
    keeps_vote: bool = False                    # a player who is out with it still votes
    except_skills: frozenset[str] = frozenset()  # a skills block that leaves these skills alone (不影响…)
    life_state: bool = False                    # a state the text sets beside 存活 (濒死): shown instead of it


@dataclass(frozen=True)
class Tag:
    name: str
    meaning: str
    external: bool
    where: Where


@dataclass(frozen=True)
class Label:
    name: str
    implies_labels: tuple[str, ...]
    implies_statuses: tuple[str, ...]
    removable: bool
    where: Where


@dataclass(frozen=True)
class Counter:
    name: str
    scope: str
    initial: int
    min: int | None
    max: int | None
    where: Where
    text: str | None = None   # the post's word for it, where the name adds a qualifier (X(甲方) for X)


@dataclass(frozen=True)
class Item:
    name: str
    count: int
    where: Where


@dataclass
class Effect:
    kind: str
    args: Any
    guard: dict | None
    force: bool
    instead: list["Effect"]
    where: Where
    skill: "Skill | None" = None
    index: int = 0
    options: list = None  # for choose: one effect list per option

    def __post_init__(self) -> None:
        if self.options is None:
            self.options = []

    @property
    def uid(self) -> str:
        return f"{self.skill.uid if self.skill else '?'}#{self.index}"

    @property
    def is_opaque(self) -> bool:
        return self.kind == "opaque"


@dataclass
class Skill:
    name: str
    owner_role: str | None          # the role that holds it, if any
    owner: dict | None              # for shared skills: {label: .., faction: ..}
    timing: tuple[str, ...]
    tags: tuple[str, ...]
    uses: dict | None
    charges: dict | None
    cooldown: int | None
    targets: dict | None
    trigger: dict | None
    static: bool
    condition: dict | None
    effects: list[Effect]
    where: Where
    yaml_path: tuple = ()
    no_repeat_target: bool = False   # not the same target two nights running
    part_of: str | None = None       # the text's words for what an encoding-made entry is part of
    shown: str = ""                  # how reports show it, 【…】 (Ruleset.name_skills)
    told: str | None = None          # a use in the text's words, for an entry the encoding named
    table_wide: bool = False         # held through a label every card carries: a rule of the table
    mandatory: tuple[int, ...] = ()  # the lines whose words make it not declinable (需选择, 每晚必须…)
    mandatory_if: dict | None = None   # only while this holds (持有圣物时每晚必须发动)
    always_forced: bool = False      # never declinable (a forced tag, or the text's words with no condition)

    def __post_init__(self) -> None:
        self.shown = self.shown or f"【{self.name}】"

    @property
    def uid(self) -> str:
        return f"{self.owner_role or self.owner_text}/{self.name}"

    @property
    def owner_text(self) -> str:
        if self.owner_role:
            return self.owner_role
        if not self.owner:
            return "?"
        return "+".join(f"{v}" for _, v in sorted(self.owner.items()))

    @property
    def min_targets(self) -> int:
        if not self.targets:
            return 0
        low = self.targets.get("min", 1)
        return 1 if low is None else int(low)

    @property
    def max_targets(self) -> int:
        if not self.targets:
            return 0
        top = self.targets.get("max", self.targets.get("min", 1))
        return 99 if top is None else int(top)

    @property
    def is_opaque(self) -> bool:
        return any(e.is_opaque or _cond_opaque(e.guard) for e in self.all_effects()) or _cond_opaque(self.condition)

    def all_effects(self) -> list[Effect]:
        out: list[Effect] = []

        def add(e: Effect) -> None:
            out.append(e)
            for sub in e.instead:
                add(sub)
            for option in e.options:
                for sub in option:
                    add(sub)
        for e in self.effects:
            add(e)
        return out


def _split_off(name: str) -> str | None:
    """The head of an encoding's name for a part of a skill: X in X(免疫) or in X·记录."""
    m = re.match(r"^(.+?)\s*[(（·]", name)
    return m.group(1) if m else None


def _cond_opaque(cond: Any) -> bool:
    if isinstance(cond, dict):
        if "opaque" in cond:
            return True
        return any(_cond_opaque(v) for v in cond.values())
    if isinstance(cond, list):
        return any(_cond_opaque(v) for v in cond)
    return False


@dataclass
class Role:
    name: str
    faction: str
    strength: float | None
    count: Any
    labels: tuple[str, ...]
    statuses: tuple[str, ...]
    skills: list[Skill]
    external: bool
    created: bool
    flip_to: str | None
    assumption: str | None
    where: Where


@dataclass
class Ruleset:
    id: str
    title: str
    author: str
    root: str                     # the folder
    yaml_file: str                # path as given to the user
    source_file: str
    source_lines: list[str]
    raw: dict
    bounds: dict
    phases: list[Phase]
    windows: list[Window]
    factions: dict[str, Faction]
    win_priority: tuple[str, ...] | None
    win_priority_where: Where | None
    statuses: dict[str, Status]
    tags: dict[str, Tag]
    labels: dict[str, Label]
    counters: dict[str, Counter]
    items: dict[str, Item]
    roles: dict[str, Role]
    skills: list[Skill]           # every skill: role-owned and shared
    precedence: list[dict]
    voting: dict | None
    setup: dict
    faq: list[dict]
    externals: list[dict]
    terms: list[dict]
    readings: list[dict]
    assumptions: list[dict]
    rulings: list[dict]
    suppressions: list[dict]
    aliases: dict[str, str] = field(default_factory=dict)
    win_check: dict | None = None   # when wins are checked against pending going-out triggers
    begins_with: dict | None = None   # the phase the first day begins with (游戏从第零夜开始)
    lose_over_win: dict | None = None   # the text says a faction that has reached its lose condition cannot win
    ambiguities: list[dict] = field(default_factory=list)   # readings of the text the engine checks

    def ruled_option(self, ambiguity: str) -> str | None:
        """The option a ruling picked for the ambiguity, if any."""
        for r in self.rulings:
            if r.get("ambiguity") == ambiguity:
                return r.get("option")
        return None

    def in_text(self, name: str) -> bool:
        """The post itself uses these words (a name the encoding made up does not)."""
        text = self.__dict__.get("_text")
        if text is None:
            text = self.__dict__["_text"] = "\n".join(self.source_lines)
        return name in text

    def name_skills(self) -> None:
        """Set how reports show each skill, in 【】: the text's own name; for an entry the
        encoding split off a skill, the words of the text it is part of, then its lines."""
        names = {s.name for s in self.skills}
        for skill in self.skills:
            base = skill.part_of or _split_off(skill.name)
            if skill.part_of is None and (self.in_text(skill.name) or base not in names):
                base = None
            lines = "、".join(str(n) for n in skill.where.src)
            skill.shown = f"【{base}】（第{lines}行的部分）" if base and self.in_text(base) and lines else f"【{skill.name}】"
        everyone = self.labels_of_every_card()
        for skill in self.skills:
            skill.table_wide = (skill.owner or {}).get("label") in everyone
            # a use its holder could not decline is told as such (强制发动), not as a choice (使用)
            skill.always_forced = self.forced_tag(skill) or (bool(skill.mandatory) and skill.mandatory_if is None)

    def forced_tag(self, skill: Skill) -> bool:
        """A tag of the skill means its holder cannot decline it ([强制], 锁定技)."""
        return any(t in self.tags and self.tags[t].meaning in FORCED_MEANINGS for t in skill.tags)

    def labels_of_every_card(self) -> set[str]:
        """Labels every dealable identity's card carries (with the labels they imply)."""
        cards = []
        for role in self.roles.values():
            if role.created or role.count == 0:
                continue
            todo, seen = list(role.labels), set()
            while todo:
                lab = todo.pop()
                if lab not in seen and lab in self.labels:
                    seen.add(lab)
                    todo.extend(self.labels[lab].implies_labels)
            cards.append(seen)
        return set.intersection(*cards) if cards else set()

    def skill_named(self, name: str) -> list[Skill]:
        return [s for s in self.skills if s.name == name]

    def granted_by(self, effect: "Effect") -> tuple[list[str], bool]:
        """What a gain_skill effect grants: (uids of new skills, restores_own). Gaining a skill
        the holder's own identity has restores it; otherwise the shared skill of that name
        (a label/faction skill) if there is one, else every skill of that name."""
        a = effect.args if isinstance(effect.args, dict) else {}
        name = a.get("skill")
        if name in (None, "$all"):
            return [], True
        holder = effect.skill.owner_role if effect.skill and a.get("who", "self") == "self" else None
        if holder and any(s.name == name and s.owner_role == holder for s in self.skills):
            return [], True
        named = [s for s in self.skills if s.name == name]
        shared = [s for s in named if not s.owner_role]
        return sorted(x.uid for x in (shared or named)), False

    def window_of(self, phase: str) -> str:
        for w in self.windows:
            if phase in w.phases:
                return w.name
        return phase

    def effects(self) -> list[Effect]:
        return [e for s in self.skills for e in s.all_effects()]

    def declared_names(self) -> set[str]:
        names: set[str] = set()
        for group in (self.factions, self.statuses, self.tags, self.labels, self.counters, self.items, self.roles):
            names.update(group)
        names.update(p.name for p in self.phases)
        names.update(w.name for w in self.windows)
        names.update(s.name for s in self.skills)
        names.update(e["term"] for e in self.externals)
        # a term the encoding knows is undefined stays reported as undefined-reference
        names.update(t["name"] for t in self.terms if t.get("kind") != "undefined")
        names.update(self.aliases)
        return names


def without_parts(shown: list[str]) -> list[str]:
    """Shown skill names without a part (【X】（第n行的部分）) of a skill X also in the list:
    the part goes without saying when X itself is told. Order kept, duplicates dropped."""
    shown = list(dict.fromkeys(shown))
    return [x for x in shown if "】（第" not in x or x.split("】（第")[0] + "】" not in shown]
