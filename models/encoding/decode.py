"""Turn a z3 model back into concrete game values (plain Python, sorted)."""
from __future__ import annotations

import z3

from .sorts import State


def concrete(model: z3.ModelRef, st: State, sorts) -> dict:
    keys = sorted(st.terms, key=repr)
    out = {}
    for key, val in zip(keys, _eval_all(model, [st.terms[k] for k in keys], sorts)):
        if key[0] == "faction":
            out[key] = sorts.faction_name(val)
        elif key[0] in ("role", "dealt"):
            out[key] = sorts.role_name(val)
        elif z3.is_bool(val):
            out[key] = z3.is_true(val)
        elif z3.is_int_value(val):
            out[key] = val.as_long()
        elif z3.is_rational_value(val):
            out[key] = number(val)
        else:
            out[key] = str(val)
    return out


def number(v):
    """A model's number: whole, or a fraction (a vote weight of 1.5) as a decimal."""
    if z3.is_int_value(v):
        return v.as_long()
    frac = v.as_fraction()
    return int(frac) if frac.denominator == 1 else float(frac)


def _eval_all(model: z3.ModelRef, terms: list, sorts) -> list:
    """Evaluate many terms in one call. A state's terms share most of their structure
    (a trace unrolls into nested choices); evaluated one by one, z3 walks the shared part
    again for every term. Packed into one tuple, it walks it once."""
    if len(terms) < 2:
        return [model.eval(t, model_completion=True) for t in terms]
    packed = model.eval(pack(terms, sorts), model_completion=True)
    return [packed.arg(i) for i in range(len(terms))]


def pack(terms: list, sorts) -> z3.ExprRef:
    """Many terms as one (a tuple), so z3 can walk their shared structure once."""
    cache = sorts.__dict__.setdefault("_packs", {})
    sig = tuple(t.sort().sexpr() for t in terms)
    if sig not in cache:
        dt = z3.Datatype(f"Pack{len(cache)}", ctx=sorts.ctx)
        dt.declare("pack", *[(f"f{i}", t.sort()) for i, t in enumerate(terms)])
        cache[sig] = dt.create()
    return cache[sig].pack(*terms)


def bool_value(model: z3.ModelRef, term) -> bool:
    return z3.is_true(model.eval(term, model_completion=True))


def encode_concrete(values: dict, st: State, sorts) -> list:
    """Constraints fixing st to concrete values (used to replay a witness through z3)."""
    cs = []
    for key, val in values.items():
        term = st.terms.get(key)
        if term is None:
            continue
        if key[0] == "faction":
            cs.append(term == sorts.factions[val])
        elif key[0] in ("role", "dealt"):
            cs.append(term == sorts.roles[val])
        else:
            cs.append(term == val)
    return cs


def player_of(key: tuple) -> int | None:
    """The player a state value is about (None: a value of the game, an item, a faction)."""
    if key[0] == "counter":
        return key[2] if len(key) > 2 and isinstance(key[2], int) else None
    if key[0] in ("item", "win", "lose"):
        return None
    return key[1] if len(key) > 1 and isinstance(key[1], int) else None
