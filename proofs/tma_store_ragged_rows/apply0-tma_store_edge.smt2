; tilecheck obligation query: file examples/tma_store_ragged_rows.toml, apply[0], obligation tma_store_edge
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |N'| () Int)
(declare-fun n () Int)
(declare-fun m () Int)
(declare-fun M () Int)
(assert
 (let (($x1 (and (> (+ (* 32 n) 32) (* 32 |N'|)) (and (distinct (mod (* (* 32 |N'|) 4) 16) 0) true))))
 (or (< (* 32 n) 0) (< (* 16 m) 0) $x1)))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= |N'| 1))
(assert
 (<= |N'| 2048))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 2047))
(assert
 (<= (+ 32 (* (- 32) |N'|) (* 32 n)) 0))
(assert
 (< (+ (* (- 1) M) (* 16 m)) 0))
(check-sat)
