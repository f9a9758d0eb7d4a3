; tilecheck obligation query: file examples/ldmatrix_misaligned_row_refuted.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b.R.ib.ia.j#2~8| () Int)
(declare-fun |b.R.ib.ia.j#1~7| () Int)
(declare-fun |b.R.ib.ia.j#0~6| () Int)
(declare-fun |a.R.ib.ia.j#2~5| () Int)
(declare-fun |a.R.ib.ia.j#1~4| () Int)
(declare-fun |a.R.ib.ia.j#0~3| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (let ((?x1 (* 2 |b.R.ib.ia.j#1~7|)))
 (let ((?x2 (* 4 |b.R.ib.ia.j#0~6|)))
 (let ((?x3 (* 2 |a.R.ib.ia.j#1~4|)))
 (let ((?x4 (* 4 |a.R.ib.ia.j#0~3|)))
 (let (($x5 (= (+ ?x4 ?x3 |a.R.ib.ia.j#2~5|) (+ ?x2 ?x1 |b.R.ib.ia.j#2~8|))))
 (and (or (and (distinct |a:word| |b:word|) true)) $x5)))))))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
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
 (let ((?x6 (* (- 2) |a.R.ib.ia.j#1~4|)))
 (let ((?x7 (* (- 4) |a.R.ib.ia.j#0~3|)))
 (= (+ ?x7 ?x6 (* (- 1) |a.R.ib.ia.j#2~5|) |a:word|) 0))))
(assert
 (let ((?x8 (* (- 2) |b.R.ib.ia.j#1~7|)))
(let ((?x9 (* (- 4) |b.R.ib.ia.j#0~6|)))
(= (+ ?x9 ?x8 (* (- 1) |b.R.ib.ia.j#2~8|) |b:word|) 0))))
(check-sat)
