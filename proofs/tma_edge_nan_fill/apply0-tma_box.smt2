; tilecheck obligation query: file examples/tma_edge_nan_fill.toml, apply[0], obligation tma_box
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun R () Int)
(declare-fun i () Int)
(declare-fun |N'| () Int)
(declare-fun j () Int)
(assert
 (let (($x1 (or (< (* 16 j) 0) (>= (+ 15 (* 16 j)) (* 4 |N'|)))))
 (or $x1 (or (< (* 16 i) 0) (>= (+ 15 (* 16 i)) R)))))
(assert
 (>= R 1))
(assert
 (<= R 65536))
(assert
 (>= |N'| 1))
(assert
 (<= |N'| 16384))
(assert
 (>= i 0))
(assert
 (<= i 4095))
(assert
 (>= j 0))
(assert
 (<= j 4095))
(assert
 (< (+ (* (- 4) |N'|) (* 16 j)) 0))
(assert
 (< (+ (* (- 1) R) (* 16 i)) 0))
(assert
 (= R 1))
(assert
 (let ((?x2 (* 4 |N'|)))
 (= ?x2 4)))
(assert
 (= i 0))
(assert
 (= j 0))
(check-sat)
