; tilecheck obligation query: file examples/tma_store_far_edge_unaligned_refuted.toml, tensormap TC, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun M () Int)
(declare-fun N () Int)
(declare-fun L () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(assert
 (let (($x1 (not (and (>= N 1) (<= N 4294967296) (>= M 1) (<= M 4294967296)))))
 (or (not (= (mod L 8) 0)) (not (and (>= L 0) (not (>= L 549755813888)))) $x1)))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= N 1))
(assert
 (<= N 65536))
(assert
 (>= L 8))
(assert
 (<= L 65536))
(assert
 (= (mod L 8) 0))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 1023))
(assert
 (and (< (+ (* (- 1) N) (* 64 n)) 0)))
(assert
 (and (< (+ (* (- 1) M) (* 16 m)) 0)))
(assert
 (and (<= (+ (* (- 1) L) N) 0)))
(check-sat)
