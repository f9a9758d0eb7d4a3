"""PTX from proved plans.

``fragment(plan, i)`` — one application's lines for your own kernel (fragment.py);
``kernel(plan)`` — a whole .entry running every application, the GPU tests' ABI (kernel.py).
Both take only the ``Plan`` of a proved report and read its operand model (``Plan.operands``, built
once per plan by ``operand.build``).  Modules: operand.py evaluates an operand into a per-thread
part and per-repeat integers, address.py turns memory offsets into
``[reg+imm]`` operands, arith.py writes the once-per-thread integer arithmetic,
registers.py names the register tile, probe.py and sass.py measure what ptxas makes of it.
"""
from .errors import EmitError
from .fragment import Fragment, fragment
from .kernel import kernel, kernel_unchecked, version

__all__ = ["EmitError", "Fragment", "fragment", "kernel", "kernel_unchecked", "version"]
