; tilecheck obligation query: file examples/tma_inner_coord_unaligned_refuted.toml, apply[0], obligation tma_box
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |R'| () Int)
(declare-fun r () Int)
(declare-fun |N'| () Int)
(declare-fun c () Int)
(assert
 (let (($x1 (or (< (* 32 r) 0) (>= (+ 31 (* 32 r)) (* 32 |R'|)))))
 (or (or (< c 0) (>= (+ 31 c) (* 4 |N'|))) $x1)))
(assert
 (>= |N'| 8))
(assert
 (<= |N'| 16384))
(assert
 (>= |R'| 1))
(assert
 (<= |R'| 2048))
(assert
 (>= c 0))
(assert
 (<= c 65504))
(assert
 (>= r 0))
(assert
 (<= r 2047))
(assert
 (<= (+ 32 (* (- 4) |N'|) c) 0))
(assert
 (<= (+ 32 (* (- 32) |R'|) (* 32 r)) 0))
(check-sat)
