; tilecheck obligation query: file examples/tma_store_ragged_rows.toml, apply[0], obligation tma_box
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun |N'| () Int)
(declare-fun n () Int)
(assert
 (let (($x1 (or (< (* 32 n) 0) (>= (+ 31 (* 32 n)) (* 32 |N'|)))))
 (or $x1 (or (< (* 16 m) 0) (>= (+ 15 (* 16 m)) M)))))
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
 (= M 1))
(assert
 (let ((?x2 (* 32 |N'|)))
 (= ?x2 32)))
(assert
 (= m 0))
(assert
 (= n 0))
(check-sat)
