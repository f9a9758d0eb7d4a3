; tilecheck obligation query: file examples/tma_phase_ab_one_box_refuted.toml, apply[1], obligation tma_box
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |N'| () Int)
(declare-fun n () Int)
(declare-fun |K'| () Int)
(declare-fun k () Int)
(assert
 (let (($x1 (or (< (* 128 n) 0) (>= (+ 127 (* 128 n)) (* 128 |N'|)))))
 (let (($x2 (or (< (* 64 k) 0) (>= (+ 63 (* 64 k)) (* 64 |K'|)))))
 (or $x2 $x1))))
(assert
 (>= |N'| 1))
(assert
 (<= |N'| 512))
(assert
 (>= |K'| 1))
(assert
 (<= |K'| 1024))
(assert
 (>= n 0))
(assert
 (<= n 511))
(assert
 (>= k 0))
(assert
 (<= k 1023))
(assert
 (<= (+ 64 (* (- 64) |K'|) (* 64 k)) 0))
(assert
 (<= (+ 128 (* (- 128) |N'|) (* 128 n)) 0))
(check-sat)
