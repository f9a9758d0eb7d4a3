; tilecheck obligation query: file examples/tma_copy_wave.toml, tensormap TY, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun H () Int)
(declare-fun t () Int)
(assert
 (not (and (>= H 1) (<= H 4294967296))))
(assert
 (>= H 1))
(assert
 (<= H 2097152))
(assert
 (>= t 0))
(assert
 (<= t 1048575))
(assert
 (and (< (+ (* (- 1) H) (* 2 t)) 0)))
(check-sat)
