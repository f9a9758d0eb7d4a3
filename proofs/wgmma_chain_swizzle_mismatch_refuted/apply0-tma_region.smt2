; tilecheck obligation query: file examples/wgmma_chain_swizzle_mismatch_refuted.toml, apply[0], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |M'| () Int)
(declare-fun |K'| () Int)
(declare-fun m () Int)
(declare-fun k () Int)
(assert
 (let ((?x1 (* (- 64) |K'|)))
 (let ((?x2 (+ ?x1 (* 4096 |K'| |M'|))))
 (let (($x3 (> (+ (* (- 128) |K'|) (* 8192 |K'| |M'|)) (* (ite (> ?x2 0) ?x2 0) 2))))
 (or (< 0 0) $x3)))))
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
(assert
 (let ((?x4 (* |K'| |M'|)))
 (>= ?x4 1)))
(assert
 (let ((?x4 (* |K'| |M'|)))
(<= ?x4 1048576)))
(check-sat)
