; tilecheck obligation query: file examples/tma_inner_coord_aligned.toml, apply[0], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |R'| () Int)
(declare-fun |N'| () Int)
(declare-fun |c'| () Int)
(declare-fun r () Int)
(assert
 (let ((?x1 (* (- 4) |N'|)))
 (let ((?x2 (+ ?x1 (* 128 |N'| |R'|))))
 (let (($x3 (> (+ (* (- 16) |N'|) (* 512 |N'| |R'|)) (* (ite (> ?x2 0) ?x2 0) 4))))
 (or (< 0 0) $x3)))))
(assert
 (>= |N'| 8))
(assert
 (<= |N'| 16384))
(assert
 (>= |R'| 1))
(assert
 (<= |R'| 2048))
(assert
 (>= |c'| 0))
(assert
 (<= |c'| 16376))
(assert
 (>= r 0))
(assert
 (<= r 2047))
(assert
 (<= (+ 32 (* (- 4) |N'|) (* 4 |c'|)) 0))
(assert
 (<= (+ 32 (* (- 32) |R'|) (* 32 r)) 0))
(assert
 (let ((?x4 (* |N'| |R'|)))
 (>= ?x4 8)))
(assert
 (let ((?x4 (* |N'| |R'|)))
(<= ?x4 33554432)))
(check-sat)
