; tilecheck obligation query: file examples/wgmma_chain_k_advance_past_atom_refuted.toml, apply[0], obligation tma_box
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |M'| () Int)
(declare-fun m () Int)
(declare-fun |K'| () Int)
(declare-fun k () Int)
(assert
 (let (($x1 (or (< (* 64 m) 0) (>= (+ 63 (* 64 m)) (* 64 |M'|)))))
 (let (($x2 (or (< (* 64 k) 0) (>= (+ 63 (* 64 k)) (* 64 |K'|)))))
 (or $x2 $x1))))
(assert
 (>= |M'| 1))
(assert
 (<= |M'| 1024))
(assert
 (>= |K'| 1))
(assert
 (<= |K'| 1024))
(assert
 (>= m 0))
(assert
 (<= m 1023))
(assert
 (>= k 0))
(assert
 (<= k 1023))
(assert
 (<= (+ 64 (* (- 64) |K'|) (* 64 k)) 0))
(assert
 (<= (+ 64 (* (- 64) |M'|) (* 64 m)) 0))
(check-sat)
