; tilecheck obligation query: file examples/stmatrix_x4_per_warp.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src.R.ib.ia.j#2~10| () Int)
(declare-fun |src.R.ib.ia.j#1~9| () Int)
(declare-fun |src.R.ib.ia.j#0~8| () Int)
(declare-fun w () Int)
(declare-fun |dst.S.ib.ia.j#2~5| () Int)
(declare-fun |dst.S.ib.ia.j#1~4| () Int)
(declare-fun |dst.S.ib.ia.j#0~3| () Int)
(declare-fun |dst.S.g.q#1~2| () Int)
(declare-fun |dst.S.g.q#0~1| () Int)
(declare-fun |dst:lane| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |src:word| () Int)
(assert
 (let ((?x1 (+ (* 4 |src.R.ib.ia.j#0~8|) (* 2 |src.R.ib.ia.j#1~9|) |src.R.ib.ia.j#2~10|)))
 (let (($x2 (>= ?x1 8)))
 (let (($x3 (or (< 0 0) (> 16 16) (< 16 1))))
 (let ((?x4 (+ (* 16 |dst.S.g.q#0~1|) (* 2 |dst.S.g.q#1~2|) (* 8 |dst.S.ib.ia.j#0~3|) (* 128 |dst.S.ib.ia.j#1~4|) |dst.S.ib.ia.j#2~5| (* 256 w))))
 (let (($x5 (>= ?x4 1024)))
 (let (($x6 (or (< (* 16 w) 0) (> (+ 16 (* 16 w)) 64) (< 64 1))))
 (or $x6 $x3 (< ?x4 0) $x5 $x3 $x3 (< ?x1 0) $x2))))))))
(assert
 (>= w 0))
(assert
 (<= w 3))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
(assert
 (>= |dst.S.g.q#0~1| 0))
(assert
 (<= |dst.S.g.q#0~1| 7))
(assert
 (>= |dst.S.g.q#1~2| 0))
(assert
 (<= |dst.S.g.q#1~2| 3))
(assert
 (>= |dst.S.ib.ia.j#0~3| 0))
(assert
 (<= |dst.S.ib.ia.j#0~3| 1))
(assert
 (>= |dst.S.ib.ia.j#1~4| 0))
(assert
 (<= |dst.S.ib.ia.j#1~4| 1))
(assert
 (>= |dst.S.ib.ia.j#2~5| 0))
(assert
 (<= |dst.S.ib.ia.j#2~5| 1))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 7))
(assert
 (>= |src.R.ib.ia.j#0~8| 0))
(assert
 (<= |src.R.ib.ia.j#0~8| 1))
(assert
 (>= |src.R.ib.ia.j#1~9| 0))
(assert
 (<= |src.R.ib.ia.j#1~9| 1))
(assert
 (>= |src.R.ib.ia.j#2~10| 0))
(assert
 (<= |src.R.ib.ia.j#2~10| 1))
(assert
 (= (+ (* (- 4) |dst.S.g.q#0~1|) (* (- 1) |dst.S.g.q#1~2|) |dst:lane|) 0))
(assert
 (let ((?x7 (* (- 2) |dst.S.ib.ia.j#1~4|)))
 (let ((?x8 (* (- 4) |dst.S.ib.ia.j#0~3|)))
 (= (+ ?x8 ?x7 (* (- 1) |dst.S.ib.ia.j#2~5|) |dst:word|) 0))))
(assert
 (let ((?x9 (* (- 2) |src.R.ib.ia.j#1~9|)))
(let ((?x10 (* (- 4) |src.R.ib.ia.j#0~8|)))
(= (+ ?x10 ?x9 (* (- 1) |src.R.ib.ia.j#2~10|) |src:word|) 0))))
(check-sat)
