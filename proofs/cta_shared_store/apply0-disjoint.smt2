; tilecheck obligation query: file examples/cta_shared_store.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |b:tid#1~4| () Int)
(declare-fun |a:tid#1~2| () Int)
(declare-fun |b:tid#0~3| () Int)
(declare-fun |a:tid#0~1| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(assert
 (let (($x1 (= |a:word| |b:word|)))
 (let (($x2 (= |a:repeat0| |b:repeat0|)))
 (let (($x3 (= |a:tid#1~2| |b:tid#1~4|)))
 (let (($x4 (= |a:tid#0~1| |b:tid#0~3|)))
 (let ((?x5 (+ (* 4 |b:repeat0|) (* 384 |b:tid#0~3|) (* 12 |b:tid#1~4|) |b:word|)))
 (let ((?x6 (* 12 |a:tid#1~2|)))
 (let ((?x7 (* 384 |a:tid#0~1|)))
 (let ((?x8 (* 4 |a:repeat0|)))
 (let (($x9 (= (+ ?x8 ?x7 ?x6 |a:word|) ?x5)))
 (let (($x10 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true))))
 (and (and $x10 $x9) $x4 $x3 $x2 $x1))))))))))))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 127))
(assert
 (>= |a:tid#0~1| 0))
(assert
 (<= |a:tid#0~1| 3))
(assert
 (>= |a:tid#1~2| 0))
(assert
 (<= |a:tid#1~2| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 2))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 127))
(assert
 (>= |b:tid#0~3| 0))
(assert
 (<= |b:tid#0~3| 3))
(assert
 (>= |b:tid#1~4| 0))
(assert
 (<= |b:tid#1~4| 31))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 2))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 3))
(assert
 (= (+ |a:thread| (* (- 32) |a:tid#0~1|) (* (- 1) |a:tid#1~2|)) 0))
(assert
 (= (+ |b:thread| (* (- 32) |b:tid#0~3|) (* (- 1) |b:tid#1~4|)) 0))
(check-sat)
