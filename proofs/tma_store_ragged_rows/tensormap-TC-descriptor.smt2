; tilecheck obligation query: file examples/tma_store_ragged_rows.toml, tensormap TC, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun N () Int)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(assert
 (let (($x1 (not (and (>= N 1) (<= N 4294967296) (>= M 1) (<= M 4294967296)))))
 (or (not (= (mod N 4) 0)) $x1 (not (and (>= N 0) (not (>= N 274877906944)))))))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= N 32))
(assert
 (<= N 65536))
(assert
 (= (mod N 32) 0))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 2047))
(assert
 (and (<= (+ 32 (* (- 1) N) (* 32 n)) 0)))
(assert
 (and (< (+ (* (- 1) M) (* 16 m)) 0)))
(check-sat)
