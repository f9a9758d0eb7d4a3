; tilecheck obligation query: file examples/tma_swizzle_mismatch_refuted.toml, apply[0], obligation tma_landing
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(check-sat)
