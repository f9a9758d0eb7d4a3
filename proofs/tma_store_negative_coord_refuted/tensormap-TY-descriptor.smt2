; tilecheck obligation query: file examples/tma_store_negative_coord_refuted.toml, tensormap TY, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun M () Int)
(declare-fun N () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(assert
 (let (($x1 (not (and (>= N 1) (<= N 4294967296) (>= M 1) (<= M 4294967296)))))
 (or (not (and (>= N 0) (not (>= N 549755813888)))) (not (= (mod N 8) 0)) $x1)))
(assert
 (>= M 16))
(assert
 (<= M 65536))
(assert
 (>= N 64))
(assert
 (<= N 65536))
(assert
 (= (mod N 8) 0))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 1023))
(assert
 (and (<= (+ 56 (* (- 1) N) (* 64 n)) 0)))
(assert
 (and (<= (+ 15 (* (- 1) M) (* 16 m)) 0)))
(check-sat)
