; tilecheck obligation query: file examples/seed.toml, apply[0], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:word| () Int)
(declare-fun |a.A.d.b#1~2| () Int)
(declare-fun |a.A.d.b#0~1| () Int)
(assert
 (let ((?x1 (+ (* 2 |a.A.d.b#0~1|) |a.A.d.b#1~2| (* (- 1) |a:word|))))
 (and (distinct ?x1 0) true)))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |a.A.d.b#0~1| 0))
(assert
 (<= |a.A.d.b#0~1| 1))
(assert
 (>= |a.A.d.b#1~2| 0))
(assert
 (<= |a.A.d.b#1~2| 1))
(assert
 (= (+ (* (- 2) |a.A.d.b#0~1|) (* (- 1) |a.A.d.b#1~2|) |a:word|) 0))
(check-sat)
