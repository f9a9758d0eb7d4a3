; tilecheck obligation query: file examples/tma_store_ctas_disjoint.toml, apply[0], obligation tma_box
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun t () Int)
(assert
 (or (or (< 0 0) (>= 63 64)) (or (< (* 2 t) 0) (<= 64 (+ 1 (* 2 t))))))
(assert
 (>= t 0))
(assert
 (<= t 31))
(check-sat)
