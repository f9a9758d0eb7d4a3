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
 (let ((?x128 (* 4 |src:repeat1|)))
 (let ((?x239 (* 60 |src:repeat0|)))
 (let ((?x71 (* 2 |src.A.d.b#0~3|)))
 (let ((?x125 (+ ?x71 |src.A.d.b#1~4| ?x239 ?x128)))
 (let (($x68 (>= ?x125 420)))
 (let (($x300 (< 0 0)))
 (let (($x168 (or $x300 (> 2 2) (< 2 1))))
 (let (($x14 (or $x300 (> 7 7) (< 7 1))))
 (let (($x277 (or $x300 (> 15 15) (< 15 1))))
 (let ((?x205 (* 8 |dst:repeat1|)))
 (let ((?x141 (* 120 |dst:repeat0|)))
 (let ((?x30 (* 2 |dst.R.d.b#1~2|)))
 (let ((?x66 (* 4 |dst.R.d.b#0~1|)))
 (let ((?x37 (+ ?x66 ?x30 ?x141 ?x205)))
 (let (($x50 (>= ?x37 839)))
 (or $x277 $x168 $x14 $x168 (< ?x37 0) $x50 $x277 $x168 $x14 $x168 (< ?x125 0) $x68)))))))))))))))))
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
