"""A proved plan: what the emitter consumes.  Only ``Report.plan`` can make one.

Per application a plan holds its family, the outcomes of every obligation that applied (each
``proved``: the facts the emitter may rely on) and the proved operand model: the memory operand's
element offset and the register operand's slot and owning thread, as exact polynomials over the
canonical coordinates ``(group, repeat, word)`` and the symbols, built by the proofs' own operand
model (``encode.Query``) with the one evaluator (``crd2idx.py``).

A plan also owns the emitter's operand model (``Plan.operands``, built once per plan by
``emit.operand.build``): the same operands at the (thread, repeat, word) coordinates with their
digits as exact divisions, the form the emitted code computes.  ``emit.fragment`` and
``emit.kernel`` read it from the plan and never build one from the check themselves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from .check import Apply, Check
from .encode import Query
from .errors import InputError

_TOKEN = object()


@dataclass(frozen=True)
class Model:
    """An application's operands as the proofs state them: ``memory[""]`` is the element offset,
    ``register`` has the slot (``""``) and the thread components (``laneid``, ``warpid``, ``tid``);
    ``coords`` are the (group, repeat, word) variables they are polynomials of, and ``context``
    holds every variable's bounds and the equations defining the digits the view splits."""
    coords: tuple
    memory: dict
    register: dict
    context: object = field(repr=False, compare=False)


@dataclass(frozen=True)
class Step:
    """One application of the plan."""
    apply: Apply
    outcomes: tuple = ()  # the obligations' Outcomes, every one proved (or not blocking)
    check: Check = field(default=None, repr=False, compare=False)

    @property
    def family(self):
        return self.apply.family

    @property
    def accesses(self) -> tuple:
        """This application's accesses (``accesses.Access``): role, space, address, width, active
        predicate, read/write/atomic."""
        return self.check.accesses_of(self.apply)

    @property
    def facts(self) -> dict:
        """Obligation name -> verdict, as the report proved them."""
        return {o.name: o.status for o in self.outcomes}

    @cached_property
    def model(self) -> Model:
        q = Query(self.check, self.apply)
        c = q.coords("plan")
        return Model(tuple(c.all), q.value(self.apply.memory, c), q.value(self.apply.register, c), q.ctx)


class Plan:
    """Every application of a check whose every obligation is proved."""

    def __init__(self, token, check: Check, outcomes=None):
        if token is not _TOKEN:
            raise PermissionError("a Plan comes only from a proved Report (tilecheck.prove(check).plan)")
        self.check = check
        outcomes = outcomes or [()] * len(check.applies)
        self.steps = tuple(Step(a, tuple(o), check) for a, o in zip(check.applies, outcomes))

    @property
    def applies(self) -> tuple[Apply, ...]:
        return self.check.applies

    @property
    def accesses(self) -> dict:
        """Application index -> its accesses (``accesses.Access``), built once with the check."""
        return self.check.accesses

    @cached_property
    def operands(self):
        """The emitter's operand model of every application (``emit.operand.Operands``), built once."""
        return _operands(self.check)

    def step(self, index: int) -> Step:
        return self.steps[index]

    def __repr__(self):
        return f"Plan({self.check.path}, {len(self.applies)} applications)"


def _operands(check: Check):
    from .emit import operand
    for a in check.applies:  # an application without an emitter (Family.unemitted) says so first, in one line
        why = a.family.unemitted(a, check)
        if why:
            if not a.family.emits:
                a.family.instruction(a, "", "", "", "")  # the family's own line
            raise InputError(f"{a.opcode.text}: {why}", f"apply[{a.index}]")
    return operand.build(check)


class _UncheckedPlan:
    """What ``emit.kernel_unchecked`` emits a *refuted* report from: its check and the operand model,
    built by the same code as a Plan's.  Not a Plan: ``kernel``/``fragment`` refuse it."""

    def __init__(self, check: Check):
        self.check = check

    @cached_property
    def operands(self):
        return _operands(self.check)


def unchecked(check: Check) -> _UncheckedPlan:
    """The plan-like object of a refuted check, for ``emit.kernel_unchecked`` only."""
    return _UncheckedPlan(check)
