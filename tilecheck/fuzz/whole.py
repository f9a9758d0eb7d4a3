"""The campaign's draws of whole files beside the families' applications (``strategies.FAMILIES``):
``tilecheck fuzz --families`` takes these names too.  Each is a Hypothesis strategy of the file's dict,
``strategy(symbolic=...)``, named by module and function so that the command line imports Hypothesis
only when a campaign runs."""
from __future__ import annotations

import importlib

WHOLE = {
    "descriptor": ("tilecheck.desc_strategies", "descriptor_checks",
                   "descriptor check files: a shared tile and the wgmma/tcgen05 descriptor that reads it, agreeing or "
                   "with one of issue 31's bugs"),
    "tma": ("tilecheck.tmap_strategies", "tma_checks",
            "check files with a tensor map and a TMA copy of it"),
}


def strategy(name: str, symbolic: bool):
    module, function, _ = WHOLE[name]
    return getattr(importlib.import_module(module), function)(symbolic=symbolic)
