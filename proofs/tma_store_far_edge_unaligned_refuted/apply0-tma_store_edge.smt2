; tilecheck obligation query: file examples/tma_store_far_edge_unaligned_refuted.toml, apply[0], obligation tma_store_edge
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun N () Int)
(declare-fun n () Int)
(declare-fun m () Int)
(declare-fun M () Int)
(declare-fun |L'| () Int)
(assert
 (let (($x1 (and (> (+ (* 64 n) 64) N) (and (distinct (mod (* N 2) 16) 0) true))))
 (or (< (* 64 n) 0) (< (* 16 m) 0) $x1)))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= N 1))
(assert
 (<= N 65536))
(assert
 (>= |L'| 1))
(assert
 (<= |L'| 8192))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 1023))
(assert
 (< (+ (* (- 1) N) (* 64 n)) 0))
(assert
 (< (+ (* (- 1) M) (* 16 m)) 0))
(assert
 (<= (+ (* (- 8) |L'|) N) 0))
(assert
 (= M 1))
(assert
 (= N 1))
(assert
 (= (* 8 |L'|) 8))
(assert
 (= m 0))
(assert
 (= n 0))
(check-sat)
