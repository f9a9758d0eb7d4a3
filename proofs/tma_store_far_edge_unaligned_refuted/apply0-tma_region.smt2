; tilecheck obligation query: file examples/tma_store_far_edge_unaligned_refuted.toml, apply[0], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun M () Int)
(declare-fun |L'| () Int)
(declare-fun N () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(assert
 (let ((?x1 (* (- 8) |L'|)))
 (let ((?x2 (+ ?x1 (* 8 |L'| M))))
 (let (($x3 (> (+ (* (- 32) |L'|) (* 16 |L'| M) (* 2 N)) (* (ite (> ?x2 0) ?x2 0) 2))))
 (or (< 0 0) $x3)))))
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
 (let ((?x4 (* |L'| M)))
 (>= ?x4 1)))
(assert
 (let ((?x4 (* |L'| M)))
(<= ?x4 536870912)))
(check-sat)
