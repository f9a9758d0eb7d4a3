; tilecheck obligation query: file examples/stmatrix_x4_per_warp.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b.S.ib.ia.j#2~14| () Int)
(declare-fun |a.S.ib.ia.j#2~9| () Int)
(declare-fun |b.S.g.q#1~11| () Int)
(declare-fun |a.S.g.q#1~6| () Int)
(declare-fun |b.S.ib.ia.j#0~12| () Int)
(declare-fun |a.S.ib.ia.j#0~7| () Int)
(declare-fun |b.S.g.q#0~10| () Int)
(declare-fun |a.S.g.q#0~5| () Int)
(declare-fun |b.S.ib.ia.j#1~13| () Int)
(declare-fun |a.S.ib.ia.j#1~8| () Int)
(declare-fun |b:lane~3| () Int)
(declare-fun |a:lane~1| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:laner~2| () Int)
(declare-fun |b:laner~4| () Int)
(assert
 (let (($x1 (= |a.S.ib.ia.j#2~9| |b.S.ib.ia.j#2~14|)))
 (let (($x2 (= |a.S.g.q#1~6| |b.S.g.q#1~11|)))
 (let (($x3 (= |a.S.ib.ia.j#0~7| |b.S.ib.ia.j#0~12|)))
 (let (($x4 (= |a.S.g.q#0~5| |b.S.g.q#0~10|)))
 (let (($x5 (= |a.S.ib.ia.j#1~8| |b.S.ib.ia.j#1~13|)))
 (let (($x6 (= |a:lane~1| |b:lane~3|)))
 (let ((?x7 (+ (* 16 |b.S.g.q#0~10|) (* 2 |b.S.g.q#1~11|) (* 8 |b.S.ib.ia.j#0~12|) (* 128 |b.S.ib.ia.j#1~13|) |b.S.ib.ia.j#2~14| (* 256 |b:lane~3|))))
 (let ((?x8 (* 256 |a:lane~1|)))
 (let ((?x9 (* 128 |a.S.ib.ia.j#1~8|)))
 (let ((?x10 (* 8 |a.S.ib.ia.j#0~7|)))
 (let ((?x11 (* 2 |a.S.g.q#1~6|)))
 (let ((?x12 (* 16 |a.S.g.q#0~5|)))
 (let (($x13 (= (+ ?x12 ?x11 ?x10 ?x9 |a.S.ib.ia.j#2~9| ?x8) ?x7)))
 (let (($x14 (and (or (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true)) $x13)))
 (and $x14 $x6 $x5 $x4 $x3 $x2 $x1))))))))))))))))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 127))
(assert
 (>= |a:lane~1| 0))
(assert
 (<= |a:lane~1| 3))
(assert
 (>= |a:laner~2| 0))
(assert
 (<= |a:laner~2| 31))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 127))
(assert
 (>= |b:lane~3| 0))
(assert
 (<= |b:lane~3| 3))
(assert
 (>= |b:laner~4| 0))
(assert
 (<= |b:laner~4| 31))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 7))
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
 (>= |b.S.g.q#0~10| 0))
(assert
 (<= |b.S.g.q#0~10| 7))
(assert
 (>= |b.S.g.q#1~11| 0))
(assert
 (<= |b.S.g.q#1~11| 3))
(assert
 (>= |b.S.ib.ia.j#0~12| 0))
(assert
 (<= |b.S.ib.ia.j#0~12| 1))
(assert
 (>= |b.S.ib.ia.j#1~13| 0))
(assert
 (<= |b.S.ib.ia.j#1~13| 1))
(assert
 (>= |b.S.ib.ia.j#2~14| 0))
(assert
 (<= |b.S.ib.ia.j#2~14| 1))
(assert
 (= (+ (* (- 1) |a:laner~2|) (* (- 32) |a:lane~1|) |a:thread|) 0))
(assert
 (= (+ (* (- 1) |b:laner~4|) (* (- 32) |b:lane~3|) |b:thread|) 0))
(assert
 (= (+ (* (- 4) |a.S.g.q#0~5|) (* (- 1) |a.S.g.q#1~6|) |a:laner~2|) 0))
(assert
 (let ((?x15 (* (- 2) |a.S.ib.ia.j#1~8|)))
 (let ((?x16 (* (- 4) |a.S.ib.ia.j#0~7|)))
 (= (+ ?x16 ?x15 (* (- 1) |a.S.ib.ia.j#2~9|) |a:word|) 0))))
(assert
 (= (+ (* (- 4) |b.S.g.q#0~10|) (* (- 1) |b.S.g.q#1~11|) |b:laner~4|) 0))
(assert
 (let ((?x17 (* (- 1) |b.S.ib.ia.j#2~14|)))
(let ((?x18 (+ (* (- 4) |b.S.ib.ia.j#0~12|) (* (- 2) |b.S.ib.ia.j#1~13|) ?x17 |b:word|)))
(= ?x18 0))))
(check-sat)
