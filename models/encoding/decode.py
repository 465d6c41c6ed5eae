"""Turn a z3 model back into concrete game values (plain Python, sorted)."""
from __future__ import annotations

import z3

from .sorts import State


def concrete(model: z3.ModelRef, st: State, sorts) -> dict:
    out = {}
    for key in sorted(st.terms, key=repr):
        val = model.eval(st.terms[key], model_completion=True)
        if key[0] == "faction":
            out[key] = sorts.faction_name(val)
        elif key[0] in ("role", "dealt"):
            out[key] = sorts.role_name(val)
        elif z3.is_bool(val):
            out[key] = z3.is_true(val)
        elif z3.is_int_value(val):
            out[key] = val.as_long()
        elif z3.is_rational_value(val):
            out[key] = float(val.as_fraction())
        else:
            out[key] = str(val)
    return out


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
