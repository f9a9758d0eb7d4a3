; tilecheck obligation query: file examples/tma_expect_tx_clamped_box_refuted.toml, apply[0], obligation tma_tx
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun R () Int)
(declare-fun M () Int)
(declare-fun m () Int)
(assert
 (or (and (distinct 16384 (* 128 R)) true) (> 16384 1048575)))
(assert
 (>= M 1))
(assert
 (<= M 65536))
(assert
 (>= m 0))
(assert
 (<= m 511))
(assert
 (>= R 1))
(assert
 (<= R 128))
(assert
 (= (+ (* (- 1) M) R (* 128 m)) 0))
(assert
 (= M 1))
(assert
 (= m 0))
(assert
 (= R 1))
(check-sat)
