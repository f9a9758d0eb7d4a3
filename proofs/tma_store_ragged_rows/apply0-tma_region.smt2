; tilecheck obligation query: file examples/tma_store_ragged_rows.toml, apply[0], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |N'| () Int)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun n () Int)
(assert
 (let ((?x1 (* (- 32) |N'|)))
 (let ((?x2 (+ (* 32 M |N'|) ?x1)))
 (let (($x3 (> (+ (* 128 M |N'|) (* (- 128) |N'|)) (* (ite (> ?x2 0) ?x2 0) 4))))
 (or (< 0 0) $x3)))))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= |N'| 1))
(assert
 (<= |N'| 2048))
(assert
 (>= m 0))
(assert
 (<= m 4095))
(assert
 (>= n 0))
(assert
 (<= n 2047))
(assert
 (<= (+ 32 (* (- 32) |N'|) (* 32 n)) 0))
(assert
 (< (+ (* (- 1) M) (* 16 m)) 0))
(assert
 (let ((?x4 (* M |N'|)))
 (>= ?x4 1)))
(assert
 (let ((?x4 (* M |N'|)))
(<= ?x4 134217728)))
(check-sat)
