; tilecheck obligation query: file examples/tma_inner_coord_unaligned_refuted.toml, tensormap TX, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun R () Int)
(declare-fun N () Int)
(declare-fun c () Int)
(declare-fun r () Int)
(assert
 (let (($x1 (not (and (>= N 1) (<= N 4294967296) (>= R 1) (<= R 4294967296)))))
 (or (not (and (>= N 0) (not (>= N 274877906944)))) (not (= (mod N 4) 0)) $x1)))
(assert
 (>= N 32))
(assert
 (<= N 65536))
(assert
 (= (mod N 4) 0))
(assert
 (>= R 32))
(assert
 (<= R 65536))
(assert
 (= (mod R 32) 0))
(assert
 (>= c 0))
(assert
 (<= c 65504))
(assert
 (>= r 0))
(assert
 (<= r 2047))
(assert
 (and (<= (+ 32 (* (- 1) N) c) 0)))
(assert
 (and (<= (+ 32 (* (- 1) R) (* 32 r)) 0)))
(check-sat)
