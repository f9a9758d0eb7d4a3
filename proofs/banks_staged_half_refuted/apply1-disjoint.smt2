; tilecheck obligation query: file examples/banks_staged_half_refuted.toml, apply[1], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |b:repeat1| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a:repeat0| () Int)
(assert
 (let ((?x1 (+ (* 32 |b:repeat0|) (* 4 |b:repeat1|) |b:word|)))
 (let (($x2 (= (+ (* 32 |a:repeat0|) (* 4 |a:repeat1|) |a:word|) ?x1)))
 (let (($x3 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:repeat1| |b:repeat1|) true) (and (distinct |a:word| |b:word|) true))))
 (and $x3 $x2)))))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 1))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 7))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 1))
(assert
 (>= |b:repeat1| 0))
(assert
 (<= |b:repeat1| 7))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 3))
(check-sat)
