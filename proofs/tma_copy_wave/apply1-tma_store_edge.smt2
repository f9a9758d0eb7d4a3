; tilecheck obligation query: file examples/tma_copy_wave.toml, apply[1], obligation tma_store_edge
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun t () Int)
(declare-fun H () Int)
(assert
 (let (($x1 (and (< 256 (+ 0 256)) (and (distinct (mod (* 256 8) 16) 0) true))))
 (or (< 0 0) (< (* 2 t) 0) $x1)))
(assert
 (>= H 1))
(assert
 (<= H 2097152))
(assert
 (>= t 0))
(assert
 (<= t 1048575))
(assert
 (< (+ (* (- 1) H) (* 2 t)) 0))
(check-sat)
