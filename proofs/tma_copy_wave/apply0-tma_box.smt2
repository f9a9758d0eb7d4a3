; tilecheck obligation query: file examples/tma_copy_wave.toml, apply[0], obligation tma_box
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun H () Int)
(declare-fun t () Int)
(assert
 (or (or (< 0 0) (>= 255 256)) (or (< (* 2 t) 0) (>= (+ 1 (* 2 t)) H))))
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
(assert
 (= H 1))
(assert
 (= t 0))
(check-sat)
