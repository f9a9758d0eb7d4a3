; tilecheck obligation query: file examples/tma_map_past_tensor_refuted.toml, apply[0], obligation tma_region
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |K'| () Int)
(declare-fun k () Int)
(assert
 (or (< 0 0) (> (* 128 |K'|) 0)))
(assert
 (>= |K'| 1))
(assert
 (<= |K'| 64))
(assert
 (>= k 0))
(assert
 (<= k 63))
(assert
 (<= (+ 64 (* (- 64) |K'|) (* 64 k)) 0))
(assert
 (= (* 64 |K'|) 64))
(assert
 (= k 0))
(check-sat)
