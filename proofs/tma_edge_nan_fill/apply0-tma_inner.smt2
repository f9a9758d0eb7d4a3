; tilecheck obligation query: file examples/tma_edge_nan_fill.toml, apply[0], obligation tma_inner
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun j () Int)
(assert
 (and (distinct (mod (* (* 16 j) 4) 16) 0) true))
(check-sat)
