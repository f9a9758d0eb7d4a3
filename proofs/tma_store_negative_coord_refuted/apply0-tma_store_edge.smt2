; tilecheck obligation query: file examples/tma_store_negative_coord_refuted.toml, apply[0], obligation tma_store_edge
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |N'| () Int)
(declare-fun n () Int)
(declare-fun m () Int)
(declare-fun M () Int)
(assert
 (let (($x1 (and (> (+ (+ (- 8) (* 64 n)) 64) (* 8 |N'|)) (and (distinct (mod (* (* 8 |N'|) 2) 16) 0) true))))
 (or (< (+ (- 8) (* 64 n)) 0) (< (+ (- 1) (* 16 m)) 0) $x1)))
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
 (= M 16))
(assert
 (let ((?x2 (* 8 |N'|)))
 (= ?x2 64)))
(assert
 (= m 0))
(assert
 (= n 0))
(check-sat)
