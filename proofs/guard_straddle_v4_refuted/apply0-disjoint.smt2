; tilecheck obligation query: file examples/guard_straddle_v4_refuted.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (let (($x1 (= |a:word| |b:word|)))
(and (or (and (distinct |a:word| |b:word|) true)) $x1)))
(check-sat)
