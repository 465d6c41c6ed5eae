"""models.encoding.connectives builds the very terms z3py builds (an answer at the budget edge
depends on the terms, and on the order they are made), and takes its own path where it can."""
import pytest
import z3

from models.encoding import connectives as C


@pytest.fixture
def terms():
    ctx = z3.Context()
    enum = z3.Datatype("E", ctx)
    enum.declare("a")
    enum.declare("b")
    enum = enum.create()
    return dict(ctx=ctx, p=z3.Bool("p", ctx), q=z3.Bool("q", ctx), x=z3.Int("x", ctx),
                r=z3.Real("r", ctx), a=enum.a, b=enum.b)


def _cases(t):
    p, q, x, r, a, b = t["p"], t["q"], t["x"], t["r"], t["a"], t["b"]
    return [("And", (p, q)), ("And", ([p, q, p],)), ("And", ((p,),)), ("And", (p, True)),
            ("Or", ([p, q],)), ("Or", (p, z3.BoolVal(False, t["ctx"]))), ("Or", ([p, False],)),
            ("Not", (p,)), ("Implies", (p, q)), ("Implies", (p, True)),
            ("If", (p, x, x + 1)), ("If", (p, x, z3.IntVal(3, t["ctx"]))), ("If", (p, x, r)),
            ("If", (p, a, b)), ("If", (p, p, q)), ("If", (p, 1, x)), ("If", (p, x, 0))]


def test_same_terms_as_z3py(terms):
    for name, args in _cases(terms):
        mine, theirs = getattr(C, name)(*args), getattr(z3, name)(*args)
        assert mine.eq(theirs) and type(mine) is type(theirs), (name, args, mine, theirs)


def test_own_path_for_terms(terms, monkeypatch):
    # with z3py's connectives gone, terms of one context and sort still build
    for name in ("And", "Or", "Not", "Implies", "If"):
        monkeypatch.setattr(z3, name, None)
    p, q, x = terms["p"], terms["q"], terms["x"]
    assert str(C.And([p, q])) == "And(p, q)"
    assert str(C.Or(p, q)) == "Or(p, q)"
    assert str(C.Not(p)) == "Not(p)"
    assert str(C.Implies(p, q)) == "Implies(p, q)"
    assert str(C.If(p, x, x + 1)) == "If(p, x, x + 1)"
    assert str(C.If(p, terms["a"], terms["b"])) == "If(p, a, b)"


def test_other_contexts_left_to_z3py(terms):
    other = z3.Bool("p", z3.Context())
    with pytest.raises(z3.Z3Exception):
        C.And(terms["p"], other)
