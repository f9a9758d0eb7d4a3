; tilecheck obligation query: file examples/tma_store_negative_coord_refuted.toml, apply[0], obligation tma_box
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun |N'| () Int)
(declare-fun n () Int)
(assert
 (let (($x1 (or (< (+ (- 1) (* 16 m)) 0) (>= (+ 14 (* 16 m)) M))))
 (let (($x2 (or (< (+ (- 8) (* 64 n)) 0) (>= (+ 55 (* 64 n)) (* 8 |N'|)))))
 (or $x2 $x1))))
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
 (let ((?x3 (* 8 |N'|)))
 (= ?x3 64)))
(assert
 (= m 0))
(assert
 (= n 0))
(check-sat)
