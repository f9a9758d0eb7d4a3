; tilecheck obligation query: file examples/tma_phase_ab_one_box_refuted.toml, tensormap TB, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun K () Int)
(declare-fun N () Int)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(declare-fun k () Int)
(assert
 (let (($x1 (not (and (>= K 1) (<= K 4294967296) (>= N 1) (<= N 4294967296)))))
 (or (not (= (mod K 8) 0)) $x1 (not (and (>= K 0) (not (>= K 549755813888)))))))
(assert
 (>= M 128))
(assert
 (<= M 65536))
(assert
 (= (mod M 128) 0))
(assert
 (>= N 128))
(assert
 (<= N 65536))
(assert
 (= (mod N 128) 0))
(assert
 (>= K 64))
(assert
 (<= K 65536))
(assert
 (= (mod K 64) 0))
(assert
 (>= m 0))
(assert
 (<= m 511))
(assert
 (>= n 0))
(assert
 (<= n 511))
(assert
 (>= k 0))
(assert
 (<= k 1023))
(assert
 (and (<= (+ 64 (* (- 1) K) (* 64 k)) 0)))
(assert
 (and (<= (+ 128 (* (- 1) M) (* 128 m)) 0)))
(assert
 (and (<= (+ 128 (* (- 1) N) (* 128 n)) 0)))
(check-sat)
