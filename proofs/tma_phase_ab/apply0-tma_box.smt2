; tilecheck obligation query: file examples/tma_phase_ab.toml, apply[0], obligation tma_box
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |M'| () Int)
(declare-fun m () Int)
(declare-fun |K'| () Int)
(declare-fun k () Int)
(assert
 (let (($x1 (or (< (* 128 m) 0) (>= (+ 127 (* 128 m)) (* 128 |M'|)))))
 (let (($x2 (or (< (* 64 k) 0) (>= (+ 63 (* 64 k)) (* 64 |K'|)))))
 (or $x2 $x1))))
(assert
 (>= |M'| 1))
(assert
 (<= |M'| 512))
(assert
 (>= |K'| 1))
(assert
 (<= |K'| 1024))
(assert
 (>= m 0))
(assert
 (<= m 511))
(assert
 (>= k 0))
(assert
 (<= k 1023))
(assert
 (<= (+ 64 (* (- 64) |K'|) (* 64 k)) 0))
(assert
 (<= (+ 128 (* (- 128) |M'|) (* 128 m)) 0))
(check-sat)
