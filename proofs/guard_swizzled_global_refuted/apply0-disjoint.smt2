; tilecheck obligation query: file examples/guard_swizzled_global_refuted.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (and (or (and (distinct |a:word| |b:word|) true)) (= 0 0)))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 0))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 0))
(check-sat)
