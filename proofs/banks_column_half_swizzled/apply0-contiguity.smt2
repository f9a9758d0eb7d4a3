; tilecheck obligation query: file examples/banks_column_half_swizzled.toml, apply[0], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:word| () Int)
(assert
 (and (distinct (* (- 1) |a:word|) 0) true))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 0))
(check-sat)
