; tilecheck obligation query: file examples/tma_edge_nan_fill.toml, tensormap TX, obligation descriptor
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun R () Int)
(declare-fun N () Int)
(declare-fun i () Int)
(declare-fun j () Int)
(assert
 (let (($x1 (not (and (>= N 1) (<= N 4294967296) (>= R 1) (<= R 4294967296)))))
 (or (not (and (>= N 0) (not (>= N 274877906944)))) (not (= (mod N 4) 0)) $x1)))
(assert
 (>= R 1))
(assert
 (<= R 65536))
(assert
 (>= N 4))
(assert
 (<= N 65536))
(assert
 (= (mod N 4) 0))
(assert
 (>= i 0))
(assert
 (<= i 4095))
(assert
 (>= j 0))
(assert
 (<= j 4095))
(assert
 (and (< (+ (* (- 1) N) (* 16 j)) 0)))
(assert
 (and (< (+ (* (- 1) R) (* 16 i)) 0)))
(check-sat)
