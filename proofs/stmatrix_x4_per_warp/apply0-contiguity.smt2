; tilecheck obligation query: file examples/stmatrix_x4_per_warp.toml, apply[0], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun ldsm.t~3 () Int)
(declare-fun ldsm.tr~4 () Int)
(declare-fun ldsm.kr~2 () Int)
(declare-fun |a.S.ib.ia.j#2~9| () Int)
(declare-fun |a.S.ib.ia.j#2~12| () Int)
(declare-fun |a.S.ib.ia.j#1~8| () Int)
(declare-fun |a.S.ib.ia.j#1~11| () Int)
(declare-fun |a.S.ib.ia.j#0~7| () Int)
(declare-fun |a.S.ib.ia.j#0~10| () Int)
(declare-fun |a.S.g.q#1~6| () Int)
(declare-fun |a.S.g.q#0~5| () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:word| () Int)
(declare-fun ldsm.k~1 () Int)
(assert
 (let ((?x1 (* (- 1) ldsm.kr~2)))
 (let ((?x2 (* (- 1) |a.S.ib.ia.j#2~12|)))
 (let ((?x3 (+ (* 16 |a.S.g.q#0~5|) (* 2 |a.S.g.q#1~6|) (* (- 8) |a.S.ib.ia.j#0~10|) (* 8 |a.S.ib.ia.j#0~7|) (* (- 128) |a.S.ib.ia.j#1~11|) (* 128 |a.S.ib.ia.j#1~8|) ?x2 |a.S.ib.ia.j#2~9| ?x1 (* (- 2) ldsm.tr~4) (* (- 16) ldsm.t~3))))
 (and (distinct ?x3 0) true)))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= ldsm.k~1 0))
(assert
 (<= ldsm.k~1 3))
(assert
 (>= ldsm.kr~2 0))
(assert
 (<= ldsm.kr~2 1))
(assert
 (>= ldsm.t~3 0))
(assert
 (<= ldsm.t~3 7))
(assert
 (>= ldsm.tr~4 0))
(assert
 (<= ldsm.tr~4 3))
(assert
 (>= |a.S.g.q#0~5| 0))
(assert
 (<= |a.S.g.q#0~5| 7))
(assert
 (>= |a.S.g.q#1~6| 0))
(assert
 (<= |a.S.g.q#1~6| 3))
(assert
 (>= |a.S.ib.ia.j#0~7| 0))
(assert
 (<= |a.S.ib.ia.j#0~7| 1))
(assert
 (>= |a.S.ib.ia.j#1~8| 0))
(assert
 (<= |a.S.ib.ia.j#1~8| 1))
(assert
 (>= |a.S.ib.ia.j#2~9| 0))
(assert
 (<= |a.S.ib.ia.j#2~9| 1))
(assert
 (>= |a.S.ib.ia.j#0~10| 0))
(assert
 (<= |a.S.ib.ia.j#0~10| 1))
(assert
 (>= |a.S.ib.ia.j#1~11| 0))
(assert
 (<= |a.S.ib.ia.j#1~11| 1))
(assert
 (>= |a.S.ib.ia.j#2~12| 0))
(assert
 (<= |a.S.ib.ia.j#2~12| 1))
(assert
 (= (+ |a:word| (* (- 1) ldsm.kr~2) (* (- 2) ldsm.k~1)) 0))
(assert
 (= (+ |a:lane| (* (- 1) ldsm.tr~4) (* (- 4) ldsm.t~3)) 0))
(assert
 (= (+ (* (- 4) |a.S.g.q#0~5|) (* (- 1) |a.S.g.q#1~6|) |a:lane|) 0))
(assert
 (let ((?x4 (* (- 2) |a.S.ib.ia.j#1~8|)))
 (let ((?x5 (* (- 4) |a.S.ib.ia.j#0~7|)))
 (= (+ ?x5 ?x4 (* (- 1) |a.S.ib.ia.j#2~9|) |a:word|) 0))))
(assert
 (let ((?x6 (* 2 ldsm.k~1)))
(let ((?x2 (* (- 1) |a.S.ib.ia.j#2~12|)))
(let ((?x7 (* (- 2) |a.S.ib.ia.j#1~11|)))
(let ((?x8 (* (- 4) |a.S.ib.ia.j#0~10|)))
(= (+ ?x8 ?x7 ?x2 ?x6) 0))))))
(check-sat)
