; tilecheck obligation query: file examples/tma_store_negative_coord_refuted.toml, apply[0], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |N'| () Int)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(assert
 (let ((?x1 (* (- 8) |N'|)))
 (let ((?x2 (+ (* 8 M |N'|) ?x1)))
 (let (($x3 (> (+ (* 16 M |N'|) (* (- 16) |N'|)) (* (ite (> ?x2 0) ?x2 0) 2))))
 (or (< 0 0) $x3)))))
(assert
 (>= M 16))
(assert
 (<= M 65536))
(assert
 (>= |N'| 8))
(assert
 (<= |N'| 8192))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 1023))
(assert
 (<= (+ 56 (* (- 8) |N'|) (* 64 n)) 0))
(assert
 (<= (+ 15 (* (- 1) M) (* 16 m)) 0))
(assert
 (let ((?x4 (* M |N'|)))
 (>= ?x4 128)))
(assert
 (let ((?x4 (* M |N'|)))
(<= ?x4 536870912)))
(check-sat)
