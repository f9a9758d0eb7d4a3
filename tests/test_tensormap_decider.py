"""The decider's restatement of cuTensorMapEncodeTiled's rules (``decide.tmap_broken``, plain Python over
concrete values) and the ``descriptor`` obligation (a Z3 formula) agree on drawn tensor maps, symbolic
ones included: over every allowed symbol value of the drawn (small) ranges, the obligation is refuted
exactly when some value breaks a rule, and its counterexample breaks the same rule in the decider."""
import itertools
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings

from tilecheck import decide
from tilecheck.check import from_dict
from tilecheck.errors import InputError
from tilecheck.gpu import tmap_probe
from tilecheck.proofs import descriptor
from tilecheck.tmap_strategies import tensormap_checks

SAMPLE = Path(__file__).resolve().parent / "data" / "tmap_sweep_sample.json"
EDGES = Path(__file__).resolve().parent / "data" / "tmap_edges_sample.json"  # the address and box-byte edges


def every_value(check) -> list[dict]:
    """Every assignment the symbols' ranges allow (the strategy keeps them small)."""
    names = list(check.symbols)
    ranges = [range(-(-s.min // s.multiple_of) * s.multiple_of, s.max + 1, s.multiple_of)
              for s in check.symbols.values()]
    return [env for vals in itertools.product(*ranges) if decide.allowed(check, env := dict(zip(names, vals)))]


def _agree(data):
    try:
        check = from_dict(data)
    except InputError:
        return None  # the strategy may draw a table the loader refuses (a tensor offset past 64 bits, ...)
    envs = every_value(check)
    outcome = descriptor.prove(check, check.tensormaps["M"], timeout_s=20)
    status, witness = decide.tensormap(check, "M", envs)
    assert outcome.status in ("proved", "refuted"), outcome.message
    assert outcome.status == status, (data, outcome.message, witness)
    if status == "refuted":
        env = outcome.counterexample["symbols"]
        if not check.tensormaps["M"].names():  # a concrete map: no symbol values needed
            env = envs[0]
        assert decide.allowed(check, env)
        assert decide.tmap_broken(check, check.tensormaps["M"], env) == outcome.counterexample["rule"], data
        # minimal: no allowed assignment before it (in the symbols' declared order) breaks a rule
        order = [tuple(e[n] for n in check.symbols) for e in envs if decide.tmap_broken(check, check.tensormaps["M"], e)]
        assert tuple(env[n] for n in check.symbols) == min(order), (data, env)
    return status


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(tensormap_checks(symbolic=True))
def test_the_decider_and_the_obligation_agree_on_drawn_symbolic_maps(data):
    _agree(data)


@settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
@given(tensormap_checks(symbolic=False))
def test_the_decider_and_the_obligation_agree_on_drawn_concrete_maps(data):
    _agree(data)


def test_both_sides_are_exercised():
    """Proved and refuted maps both occur among the drawn ones (the agreement is not vacuous)."""
    from hypothesis import find
    proved = find(tensormap_checks(symbolic=True), lambda d: _agree(d) == "proved" and bool(d["symbols"]),
                  settings=settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck)))
    assert proved["symbols"]


def test_the_decider_alone_agrees_with_the_recorded_driver_verdicts():
    for rec in json.loads(SAMPLE.read_text()) + json.loads(EDGES.read_text()):
        check = from_dict(tmap_probe.check_of(rec["args"]))
        status, _ = decide.tensormap(check, "M")
        assert (status == "proved") == (rec["status"] == 0), rec


def test_the_restated_limits_are_the_obligations():
    assert decide.TMAP_BOX_BYTES == descriptor.BOX_BYTES == 233472
    assert decide.TMAP_ADDRESS_END == descriptor.ADDRESS_END == 2**57
