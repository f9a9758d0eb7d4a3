; tilecheck obligation query: file examples/seed.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src.A.d.b#1~4| () Int)
(declare-fun |src.A.d.b#0~3| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.R.d.b#1~2| () Int)
(declare-fun |dst.R.d.b#0~1| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |src:word| () Int)
(assert
 (let ((?x181 (* 4 |src:repeat1|)))
 (let ((?x186 (* 60 |src:repeat0|)))
 (let ((?x37 (* 2 |src.A.d.b#0~3|)))
 (let ((?x121 (+ ?x37 |src.A.d.b#1~4| ?x186 ?x181)))
 (let (($x39 (>= ?x121 420)))
 (let (($x269 (< 0 0)))
 (let (($x217 (or $x269 (> 2 2) (< 2 1))))
 (let (($x92 (or $x269 (> 7 7) (< 7 1))))
 (let (($x107 (or $x269 (> 15 15) (< 15 1))))
 (let ((?x213 (* 8 |dst:repeat1|)))
 (let ((?x177 (* 120 |dst:repeat0|)))
 (let ((?x245 (* 2 |dst.R.d.b#1~2|)))
 (let ((?x247 (* 4 |dst.R.d.b#0~1|)))
 (let ((?x163 (+ ?x247 ?x245 ?x177 ?x213)))
 (let (($x56 (>= ?x163 839)))
 (or $x107 $x217 $x92 $x217 (< ?x163 0) $x56 $x107 $x217 $x92 $x217 (< ?x121 0) $x39)))))))))))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 6))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 14))
(assert
 (>= |dst.R.d.b#0~1| 0))
(assert
 (<= |dst.R.d.b#0~1| 1))
(assert
 (>= |dst.R.d.b#1~2| 0))
(assert
 (<= |dst.R.d.b#1~2| 1))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 6))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 14))
(assert
 (>= |src.A.d.b#0~3| 0))
(assert
 (<= |src.A.d.b#0~3| 1))
(assert
 (>= |src.A.d.b#1~4| 0))
(assert
 (<= |src.A.d.b#1~4| 1))
(assert
 (= (+ (* (- 2) |dst.R.d.b#0~1|) (* (- 1) |dst.R.d.b#1~2|) |dst:word|) 0))
(assert
 (= (+ (* (- 2) |src.A.d.b#0~3|) (* (- 1) |src.A.d.b#1~4|) |src:word|) 0))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
