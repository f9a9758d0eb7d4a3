"""A symbol's ``min`` defaults to 1: every error that depends on that default says so."""
import pytest

from tilecheck.check import from_dict
from tilecheck.cli import main
from tilecheck.errors import InputError
from tilecheck.gpu.reference import bind_symbols


def data(symbol, assume=()):
    return {"symbols": {"n": symbol}, "assume": list(assume),
            "tensors": {"A": {"dtype": "float32", "scope": "global", "shape": ["n + 1"]},
                        "R": {"dtype": "float32", "scope": "register", "shape": [1]}},
            "apply": [{"opcode": "ld.global.b32", "dst": "R: (i w=1) -> i w", "src": "A[0:1]: (i w=1) -> i w"}]}


NOTE = "(symbols.n.min is not given: it defaults to 1)"


def test_an_empty_range_names_the_default():
    with pytest.raises(InputError) as e:
        from_dict(data({"max": 0}))
    assert str(e.value).endswith(f"min = 1 is greater than max = 0: no value is allowed {NOTE}")
    with pytest.raises(InputError) as e:  # min given: no note
        from_dict(data({"min": 1, "max": 0}))
    assert "defaults" not in str(e.value)


def test_contradicting_facts_name_the_default(tmp_path, capsys):
    f = tmp_path / "c.toml"
    f.write_text('assume = ["n == 0"]\n[symbols.n]\nmax = 8\n[tensors.A]\ndtype = "float32"\nscope = "global"\n'
                 'shape = ["n + 1"]\n[tensors.R]\ndtype = "float32"\nscope = "register"\nshape = [1]\n[[apply]]\n'
                 'opcode = "ld.global.b32"\ndst = "R: (i w=1) -> i w"\nsrc = "A[0:1]: (i w=1) -> i w"\n')
    assert main(["prove", str(f)]) == 2
    err = capsys.readouterr().err
    assert "symbols.n.min = 1 (the default: min is not given), assume[0] 'n == 0' cannot all hold" in err


def test_a_cta_bound_symbol_names_the_default():
    from tilecheck.check import cta_grid
    with pytest.raises(InputError) as e:
        cta_grid(from_dict(data({"max": 7, "from": "ctaid.x"})))
    assert "it needs min = 0 and multiple_of = 1" in str(e.value) and str(e.value).endswith(NOTE)
    assert cta_grid(from_dict(data({"min": 0, "max": 7, "from": "ctaid.x"}))) == {"ctaid.x": 8}


def test_a_value_outside_the_default_min_names_it():
    with pytest.raises(InputError) as e:
        bind_symbols(from_dict(data({"max": 7})), {"n": 0})
    assert "n=0 is outside the symbol's facts (min 1, max 7)" in str(e.value) and str(e.value).endswith(NOTE)
