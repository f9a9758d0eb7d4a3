; tilecheck obligation query: file examples/wgmma_chain_lbo_sbo_unshifted_refuted.toml, apply[1], obligation tma_region
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |N'| () Int)
(declare-fun |K'| () Int)
(declare-fun n () Int)
(declare-fun k () Int)
(assert
 (let ((?x1 (* (- 64) |K'|)))
 (let ((?x2 (+ ?x1 (* 8192 |K'| |N'|))))
 (let (($x3 (> (+ (* (- 128) |K'|) (* 16384 |K'| |N'|)) (* (ite (> ?x2 0) ?x2 0) 2))))
 (or (< 0 0) $x3)))))
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
(assert
 (let ((?x4 (* |K'| |N'|)))
 (>= ?x4 1)))
(assert
 (let ((?x4 (* |K'| |N'|)))
(<= ?x4 524288)))
(check-sat)
