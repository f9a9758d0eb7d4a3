; tilecheck obligation query: file examples/ldmatrix_misaligned_row_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src.S.ib.ia.j#2~10| () Int)
(declare-fun |src.S.ib.ia.j#1~9| () Int)
(declare-fun |src.S.ib.ia.j#0~8| () Int)
(declare-fun |src.S.g.q#1~7| () Int)
(declare-fun |src.S.g.q#0~6| () Int)
(declare-fun |dst.R.ib.ia.j#2~5| () Int)
(declare-fun |dst.R.ib.ia.j#1~4| () Int)
(declare-fun |dst.R.ib.ia.j#0~3| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |src:word| () Int)
(assert
 (let ((?x1 (* 192 |src.S.ib.ia.j#1~9|)))
 (let ((?x2 (* 8 |src.S.ib.ia.j#0~8|)))
 (let ((?x3 (* 2 |src.S.g.q#1~7|)))
 (let ((?x4 (* 24 |src.S.g.q#0~6|)))
 (let ((?x5 (+ 4 ?x4 ?x3 ?x2 ?x1 |src.S.ib.ia.j#2~10|)))
 (let (($x6 (or (< 0 0) (> 16 16) (< 16 1))))
 (let ((?x7 (+ (* 4 |dst.R.ib.ia.j#0~3|) (* 2 |dst.R.ib.ia.j#1~4|) |dst.R.ib.ia.j#2~5|)))
 (let (($x8 (>= ?x7 8)))
 (or $x6 $x6 (< ?x7 0) $x8 $x6 (or (< 4 0) (> 20 24) (< 24 1)) (< ?x5 0) (>= ?x5 384)))))))))))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
(assert
 (>= |dst.R.ib.ia.j#0~3| 0))
(assert
 (<= |dst.R.ib.ia.j#0~3| 1))
(assert
 (>= |dst.R.ib.ia.j#1~4| 0))
(assert
 (<= |dst.R.ib.ia.j#1~4| 1))
(assert
 (>= |dst.R.ib.ia.j#2~5| 0))
(assert
 (<= |dst.R.ib.ia.j#2~5| 1))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 7))
(assert
 (>= |src.S.g.q#0~6| 0))
(assert
 (<= |src.S.g.q#0~6| 7))
(assert
 (>= |src.S.g.q#1~7| 0))
(assert
 (<= |src.S.g.q#1~7| 3))
(assert
 (>= |src.S.ib.ia.j#0~8| 0))
(assert
 (<= |src.S.ib.ia.j#0~8| 1))
(assert
 (>= |src.S.ib.ia.j#1~9| 0))
(assert
 (<= |src.S.ib.ia.j#1~9| 1))
(assert
 (>= |src.S.ib.ia.j#2~10| 0))
(assert
 (<= |src.S.ib.ia.j#2~10| 1))
(assert
 (let ((?x9 (* (- 2) |dst.R.ib.ia.j#1~4|)))
 (let ((?x10 (* (- 4) |dst.R.ib.ia.j#0~3|)))
 (= (+ ?x10 ?x9 (* (- 1) |dst.R.ib.ia.j#2~5|) |dst:word|) 0))))
(assert
 (= (+ (* (- 4) |src.S.g.q#0~6|) (* (- 1) |src.S.g.q#1~7|) |src:lane|) 0))
(assert
 (let ((?x11 (* (- 2) |src.S.ib.ia.j#1~9|)))
(let ((?x12 (* (- 4) |src.S.ib.ia.j#0~8|)))
(= (+ ?x12 ?x11 (* (- 1) |src.S.ib.ia.j#2~10|) |src:word|) 0))))
(check-sat)
