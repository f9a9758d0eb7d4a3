; tilecheck obligation query: file examples/tma_edge_nan_fill.toml, apply[0], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun R () Int)
(declare-fun |N'| () Int)
(declare-fun i () Int)
(declare-fun j () Int)
(assert
 (let ((?x1 (* (- 4) |N'|)))
 (let ((?x2 (+ ?x1 (* 4 |N'| R))))
 (let (($x3 (> (+ (* (- 16) |N'|) (* 16 |N'| R)) (* (ite (> ?x2 0) ?x2 0) 4))))
 (or (< 0 0) $x3)))))
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
 (let ((?x4 (* |N'| R)))
 (>= ?x4 1)))
(assert
 (let ((?x4 (* |N'| R)))
(<= ?x4 1073741824)))
(check-sat)
