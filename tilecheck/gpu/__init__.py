"""Running checked kernels on a GPU and comparing them with a numpy reference.

``reference`` is pure numpy (no GPU, no emitter): it computes, from the layouts
alone, what every buffer of a check's kernel must hold after the run.
``runner`` (needs pycuda and a CUDA device) emits, loads, launches and compares.
``cli`` is ``tilecheck run``; ``unchecked`` runs refuted plans in a child process
to see what the hardware does with them.
"""
from .reference import Case, Comparison, ReferenceUndefined, bind_symbols, compare, reference

__all__ = ["Case", "Comparison", "ReferenceUndefined", "bind_symbols", "compare", "reference"]
