; tilecheck obligation query: file examples/staging_unswizzled_banks_refuted.toml, apply[1], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:repeat1| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |b.R.ib.ia.j#2~8| () Int)
(declare-fun |b.R.ib.ia.j#1~7| () Int)
(declare-fun |b.R.ib.ia.j#0~6| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a.R.ib.ia.j#2~5| () Int)
(declare-fun |a.R.ib.ia.j#1~4| () Int)
(declare-fun |a.R.ib.ia.j#0~3| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (let ((?x1 (* 8 |b:repeat1|)))
 (let ((?x2 (* 32 |b:repeat0|)))
 (let ((?x3 (* 2 |b.R.ib.ia.j#1~7|)))
 (let ((?x4 (* 4 |b.R.ib.ia.j#0~6|)))
 (let ((?x5 (* 8 |a:repeat1|)))
 (let ((?x6 (* 32 |a:repeat0|)))
 (let ((?x7 (* 2 |a.R.ib.ia.j#1~4|)))
 (let ((?x8 (* 4 |a.R.ib.ia.j#0~3|)))
 (let (($x9 (= (+ ?x8 ?x7 |a.R.ib.ia.j#2~5| ?x6 ?x5) (+ ?x4 ?x3 |b.R.ib.ia.j#2~8| ?x2 ?x1))))
 (let (($x10 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:repeat1| |b:repeat1|) true) (and (distinct |a:word| |b:word|) true))))
 (and $x10 $x9))))))))))))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 1))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 3))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 1))
(assert
 (>= |b:repeat1| 0))
(assert
 (<= |b:repeat1| 3))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 7))
(assert
 (>= |a.R.ib.ia.j#0~3| 0))
(assert
 (<= |a.R.ib.ia.j#0~3| 1))
(assert
 (>= |a.R.ib.ia.j#1~4| 0))
(assert
 (<= |a.R.ib.ia.j#1~4| 1))
(assert
 (>= |a.R.ib.ia.j#2~5| 0))
(assert
 (<= |a.R.ib.ia.j#2~5| 1))
(assert
 (>= |b.R.ib.ia.j#0~6| 0))
(assert
 (<= |b.R.ib.ia.j#0~6| 1))
(assert
 (>= |b.R.ib.ia.j#1~7| 0))
(assert
 (<= |b.R.ib.ia.j#1~7| 1))
(assert
 (>= |b.R.ib.ia.j#2~8| 0))
(assert
 (<= |b.R.ib.ia.j#2~8| 1))
(assert
 (let ((?x11 (* (- 2) |a.R.ib.ia.j#1~4|)))
 (let ((?x12 (* (- 4) |a.R.ib.ia.j#0~3|)))
 (= (+ ?x12 ?x11 (* (- 1) |a.R.ib.ia.j#2~5|) |a:word|) 0))))
(assert
 (let ((?x13 (* (- 2) |b.R.ib.ia.j#1~7|)))
(let ((?x14 (* (- 4) |b.R.ib.ia.j#0~6|)))
(= (+ ?x14 ?x13 (* (- 1) |b.R.ib.ia.j#2~8|) |b:word|) 0))))
(check-sat)
