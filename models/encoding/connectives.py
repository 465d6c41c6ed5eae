"""z3's And, Or, Not, Implies and If, built through the C API when the arguments are already
terms of one context and the right sorts; otherwise z3py's own functions.

Why: z3py checks and converts every argument (a sort comparison and fresh Python wrappers per
argument). Measured on zemu's ambiguity questions, that was over a quarter of the Python time
of a game question. The terms built are the very same (the same C call on the same arguments),
so no answer changes. detours.py keeps z3py's own: its text is the version of its rules
(detours.RULES, stored with the findings), and it builds few terms."""
from __future__ import annotations

import z3
from z3 import z3core
from z3.z3 import _to_expr_ref

_BoolRef, _Ast = z3.BoolRef, z3.Ast


def _bool_args(args: tuple):
    """The arguments as a tuple of Boolean terms of one context, or None (z3py decides)."""
    xs = args[0] if len(args) == 1 and isinstance(args[0], (list, tuple)) else args
    if not xs or type(xs[0]) is not _BoolRef:
        return None
    ctx = xs[0].ctx
    for x in xs:
        if type(x) is not _BoolRef or x.ctx is not ctx:
            return None
    return xs


def _nary(mk, slow, args: tuple) -> z3.BoolRef:
    xs = _bool_args(args)
    if xs is None:
        return slow(*args)
    ctx = xs[0].ctx
    return _BoolRef(mk(ctx.ref(), len(xs), (_Ast * len(xs))(*[x.ast for x in xs])), ctx)


def And(*args) -> z3.BoolRef:
    return _nary(z3core.Z3_mk_and, z3.And, args)


def Or(*args) -> z3.BoolRef:
    return _nary(z3core.Z3_mk_or, z3.Or, args)


def Not(a, ctx=None) -> z3.BoolRef:
    if type(a) is not _BoolRef or ctx is not None:
        return z3.Not(a, ctx)
    return _BoolRef(z3core.Z3_mk_not(a.ctx.ref(), a.ast), a.ctx)


def Implies(a, b, ctx=None) -> z3.BoolRef:
    if type(a) is not _BoolRef or type(b) is not _BoolRef or a.ctx is not b.ctx or ctx is not None:
        return z3.Implies(a, b, ctx)
    return _BoolRef(z3core.Z3_mk_implies(a.ctx.ref(), a.ast, b.ast), a.ctx)


def _one_kind(b, c) -> bool:
    """Both Boolean terms, or both arithmetic, or both of a datatype (sorts compared apart)."""
    if type(b) is _BoolRef or type(c) is _BoolRef:
        return type(b) is type(c)
    return (isinstance(b, z3.ArithRef) and isinstance(c, z3.ArithRef)) or \
        (isinstance(b, z3.DatatypeRef) and isinstance(c, z3.DatatypeRef))


def If(a, b, c, ctx=None):
    if type(a) is not _BoolRef or ctx is not None or not _one_kind(b, c) or not (a.ctx is b.ctx is c.ctx):
        return z3.If(a, b, c, ctx)
    ref = a.ctx.ref()
    if type(b) is not _BoolRef and \
            not z3core.Z3_is_eq_sort(ref, z3core.Z3_get_sort(ref, b.ast), z3core.Z3_get_sort(ref, c.ast)):
        return z3.If(a, b, c)   # z3py coerces (an integer and a real) or refuses
    return _to_expr_ref(z3core.Z3_mk_ite(ref, a.ast, b.ast, c.ast), a.ctx)
