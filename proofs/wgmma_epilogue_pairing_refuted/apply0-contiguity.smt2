; tilecheck obligation query: file examples/wgmma_epilogue_pairing_refuted.toml, apply[0], obligation contiguity
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |a:word| () Int)
(assert
 (and (distinct (* 3 |a:word|) 0) true))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 1))
(check-sat)
