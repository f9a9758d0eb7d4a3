; tilecheck obligation query: file examples/banks_column_half_swizzled.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (let (($x1 (= |a:repeat0| |b:repeat0|)))
 (and (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true)) $x1)))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 63))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 0))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 63))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 0))
(check-sat)
