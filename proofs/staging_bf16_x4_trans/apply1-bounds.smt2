; tilecheck obligation query: file examples/staging_bf16_x4_trans.toml, apply[1], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src.S.nb.kb.j#2~10| () Int)
(declare-fun |src.S.nb.kb.j#1~9| () Int)
(declare-fun |src.S.nb.kb.j#0~8| () Int)
(declare-fun |src.S.g.q#1~7| () Int)
(declare-fun |src.S.g.q#0~6| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.R.nb.kb.j#2~5| () Int)
(declare-fun |dst.R.nb.kb.j#1~4| () Int)
(declare-fun |dst.R.nb.kb.j#0~3| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |src:word| () Int)
(assert
 (let ((?x1 (+ |src.S.g.q#0~6| (* 128 |src.S.g.q#1~7|) (* 8 |src.S.nb.kb.j#0~8|) (* 512 |src.S.nb.kb.j#1~9|) (* 64 |src.S.nb.kb.j#2~10|) (* 1024 |src:repeat0|) (* 16 |src:repeat1|))))
 (let (($x2 (>= ?x1 2048)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 64 64) (< 64 1))))
 (let (($x5 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x6 (+ (* 4 |dst.R.nb.kb.j#0~3|) (* 2 |dst.R.nb.kb.j#1~4|) |dst.R.nb.kb.j#2~5| (* 32 |dst:repeat0|) (* 8 |dst:repeat1|))))
 (let (($x7 (>= ?x6 64)))
 (or $x5 $x4 (< ?x6 0) $x7 $x5 $x4 (< ?x1 0) $x2)))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 1))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 3))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
(assert
 (>= |dst.R.nb.kb.j#0~3| 0))
(assert
 (<= |dst.R.nb.kb.j#0~3| 1))
(assert
 (>= |dst.R.nb.kb.j#1~4| 0))
(assert
 (<= |dst.R.nb.kb.j#1~4| 1))
(assert
 (>= |dst.R.nb.kb.j#2~5| 0))
(assert
 (<= |dst.R.nb.kb.j#2~5| 1))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 1))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 3))
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
 (>= |src.S.nb.kb.j#0~8| 0))
(assert
 (<= |src.S.nb.kb.j#0~8| 1))
(assert
 (>= |src.S.nb.kb.j#1~9| 0))
(assert
 (<= |src.S.nb.kb.j#1~9| 1))
(assert
 (>= |src.S.nb.kb.j#2~10| 0))
(assert
 (<= |src.S.nb.kb.j#2~10| 1))
(assert
 (let ((?x8 (* (- 2) |dst.R.nb.kb.j#1~4|)))
 (let ((?x9 (* (- 4) |dst.R.nb.kb.j#0~3|)))
 (= (+ ?x9 ?x8 (* (- 1) |dst.R.nb.kb.j#2~5|) |dst:word|) 0))))
(assert
 (= (+ (* (- 4) |src.S.g.q#0~6|) (* (- 1) |src.S.g.q#1~7|) |src:lane|) 0))
(assert
 (let ((?x10 (* (- 2) |src.S.nb.kb.j#1~9|)))
(let ((?x11 (* (- 4) |src.S.nb.kb.j#0~8|)))
(= (+ ?x11 ?x10 (* (- 1) |src.S.nb.kb.j#2~10|) |src:word|) 0))))
(check-sat)
