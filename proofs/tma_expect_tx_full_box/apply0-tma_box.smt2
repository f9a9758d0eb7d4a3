; tilecheck obligation query: file examples/tma_expect_tx_full_box.toml, apply[0], obligation tma_box
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun M () Int)
(declare-fun m () Int)
(declare-fun |K'| () Int)
(declare-fun k () Int)
(declare-fun R () Int)
(assert
 (let (($x1 (or (< (* 64 k) 0) (>= (+ 63 (* 64 k)) (* 64 |K'|)))))
 (or $x1 (or (< (* 128 m) 0) (>= (+ 127 (* 128 m)) M)))))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= |K'| 1))
(assert
 (<= |K'| 1024))
(assert
 (>= m 0))
(assert
 (<= m 511))
(assert
 (>= R 1))
(assert
 (<= R 128))
(assert
 (>= k 0))
(assert
 (<= k 1023))
(assert
 (<= (+ 64 (* (- 64) |K'|) (* 64 k)) 0))
(assert
 (= (+ (* (- 1) M) R (* 128 m)) 0))
(assert
 (= M 1))
(assert
 (let ((?x2 (* 64 |K'|)))
 (= ?x2 64)))
(assert
 (= m 0))
(assert
 (= R 1))
(assert
 (= k 0))
(check-sat)
