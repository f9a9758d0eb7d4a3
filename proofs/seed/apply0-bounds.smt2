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
 (let ((?x1 (+ (* 2 |src.A.d.b#0~3|) |src.A.d.b#1~4| (* 60 |src:repeat0|) (* 4 |src:repeat1|))))
 (let (($x2 (>= ?x1 420)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 2 2) (< 2 1))))
 (let (($x5 (or $x3 (> 7 7) (< 7 1))))
 (let (($x6 (or $x3 (> 15 15) (< 15 1))))
 (let ((?x7 (+ (* 4 |dst.R.d.b#0~1|) (* 2 |dst.R.d.b#1~2|) (* 120 |dst:repeat0|) (* 8 |dst:repeat1|))))
 (let (($x8 (>= ?x7 839)))
 (or $x6 $x4 $x5 $x4 (< ?x7 0) $x8 $x6 $x4 $x5 $x4 (< ?x1 0) $x2))))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 6))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 14))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
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
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
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
(check-sat)
