; tilecheck obligation query: file examples/seed.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:repeat1| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |b.R.d.b#1~4| () Int)
(declare-fun |b.R.d.b#0~3| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a.R.d.b#1~2| () Int)
(declare-fun |a.R.d.b#0~1| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (let ((?x1 (+ (* 4 |b.R.d.b#0~3|) (* 2 |b.R.d.b#1~4|) (* 120 |b:repeat0|) (* 8 |b:repeat1|))))
 (let ((?x2 (+ (* 4 |a.R.d.b#0~1|) (* 2 |a.R.d.b#1~2|) (* 120 |a:repeat0|) (* 8 |a:repeat1|))))
 (let (($x3 (= ?x2 ?x1)))
 (let (($x4 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:repeat1| |b:repeat1|) true) (and (distinct |a:word| |b:word|) true))))
 (and $x4 $x3))))))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 6))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 14))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 6))
(assert
 (>= |b:repeat1| 0))
(assert
 (<= |b:repeat1| 14))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 3))
(assert
 (>= |a.R.d.b#0~1| 0))
(assert
 (<= |a.R.d.b#0~1| 1))
(assert
 (>= |a.R.d.b#1~2| 0))
(assert
 (<= |a.R.d.b#1~2| 1))
(assert
 (>= |b.R.d.b#0~3| 0))
(assert
 (<= |b.R.d.b#0~3| 1))
(assert
 (>= |b.R.d.b#1~4| 0))
(assert
 (<= |b.R.d.b#1~4| 1))
(assert
 (= (+ (* (- 2) |a.R.d.b#0~1|) (* (- 1) |a.R.d.b#1~2|) |a:word|) 0))
(assert
 (= (+ (* (- 2) |b.R.d.b#0~3|) (* (- 1) |b.R.d.b#1~4|) |b:word|) 0))
(check-sat)
