; tilecheck obligation query: file examples/tma_store_negative_coord_refuted.toml, apply[0], obligation tma_disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
