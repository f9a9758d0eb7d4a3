; tilecheck obligation query: file examples/guard_ragged_v4.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:repeat0| () Int)
(assert
 (let ((?x1 (+ (* 4 |b:repeat0|) |b:word|)))
 (let (($x2 (= (+ (* 4 |a:repeat0|) |a:word|) ?x1)))
 (and (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true)) $x2))))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 3))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 3))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 3))
(check-sat)
