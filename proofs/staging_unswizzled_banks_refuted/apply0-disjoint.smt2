; tilecheck obligation query: file examples/staging_unswizzled_banks_refuted.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |b:laner~4| () Int)
(declare-fun |a:laner~2| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(declare-fun |a:lane~1| () Int)
(declare-fun |b:lane~3| () Int)
(assert
 (let (($x1 (= |a:word| |b:word|)))
 (let (($x2 (= |a:repeat0| |b:repeat0|)))
 (let (($x3 (= |a:laner~2| |b:laner~4|)))
 (let (($x4 (= (+ (* 64 |a:laner~2|) (* 8 |a:repeat0|) |a:word|) (+ (* 64 |b:laner~4|) (* 8 |b:repeat0|) |b:word|))))
 (let (($x5 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true))))
 (and (and $x5 $x4) $x3 $x2 $x1)))))))
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
 (<= |a:repeat0| 7))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
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
 (<= |b:repeat0| 7))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 7))
(assert
 (= (+ (* (- 1) |a:laner~2|) (* (- 32) |a:lane~1|) |a:thread|) 0))
(assert
 (= (+ (* (- 1) |b:laner~4|) (* (- 32) |b:lane~3|) |b:thread|) 0))
(check-sat)
