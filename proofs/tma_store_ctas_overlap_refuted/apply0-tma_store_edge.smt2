; tilecheck obligation query: file examples/tma_store_ctas_overlap_refuted.toml, apply[0], obligation tma_store_edge
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun t () Int)
(assert
 (let (($x1 (and (< 64 (+ 0 64)) (and (distinct (mod (* 64 4) 16) 0) true))))
 (or (< 0 0) (< t 0) $x1)))
(assert
 (>= t 0))
(assert
 (<= t 31))
(check-sat)
