; tilecheck obligation query: file examples/banks_staged_half_refuted.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(declare-fun |b.S.q.c#1~8| () Int)
(declare-fun |a.S.q.c#1~6| () Int)
(declare-fun |b.S.q.c#0~7| () Int)
(declare-fun |a.S.q.c#0~5| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(declare-fun |a:lane~1| () Int)
(declare-fun |a:laner~2| () Int)
(declare-fun |b:lane~3| () Int)
(declare-fun |b:laner~4| () Int)
(assert
 (let (($x1 (= |a:word| |b:word|)))
 (let (($x2 (= |a.S.q.c#1~6| |b.S.q.c#1~8|)))
 (let (($x3 (= |a.S.q.c#0~5| |b.S.q.c#0~7|)))
 (let (($x4 (= |a:repeat0| |b:repeat0|)))
 (let ((?x5 (+ (* 32 |b.S.q.c#0~7|) (* 4 |b.S.q.c#1~8|) (* 128 |b:repeat0|) |b:word|)))
 (let ((?x6 (* 128 |a:repeat0|)))
 (let ((?x7 (* 4 |a.S.q.c#1~6|)))
 (let ((?x8 (* 32 |a.S.q.c#0~5|)))
 (let (($x9 (= (+ ?x8 ?x7 ?x6 |a:word|) ?x5)))
 (let (($x10 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true))))
 (and (and $x10 $x9) $x4 $x3 $x2 $x1))))))))))))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 31))
(assert
 (>= |a:lane~1| 0))
(assert
 (<= |a:lane~1| 0))
(assert
 (>= |a:laner~2| 0))
(assert
 (<= |a:laner~2| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 31))
(assert
 (>= |b:lane~3| 0))
(assert
 (<= |b:lane~3| 0))
(assert
 (>= |b:laner~4| 0))
(assert
 (<= |b:laner~4| 31))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 15))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 3))
(assert
 (>= |a.S.q.c#0~5| 0))
(assert
 (<= |a.S.q.c#0~5| 3))
(assert
 (>= |a.S.q.c#1~6| 0))
(assert
 (<= |a.S.q.c#1~6| 7))
(assert
 (>= |b.S.q.c#0~7| 0))
(assert
 (<= |b.S.q.c#0~7| 3))
(assert
 (>= |b.S.q.c#1~8| 0))
(assert
 (<= |b.S.q.c#1~8| 7))
(assert
 (= (+ (* (- 1) |a:laner~2|) (* (- 32) |a:lane~1|) |a:thread|) 0))
(assert
 (= (+ (* (- 1) |b:laner~4|) (* (- 32) |b:lane~3|) |b:thread|) 0))
(assert
 (= (+ (* (- 8) |a.S.q.c#0~5|) (* (- 1) |a.S.q.c#1~6|) |a:laner~2|) 0))
(assert
 (= (+ (* (- 8) |b.S.q.c#0~7|) (* (- 1) |b.S.q.c#1~8|) |b:laner~4|) 0))
(check-sat)
