; tilecheck obligation query: file examples/wgmma_chain.toml, apply[2], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b.D.c.h.j#2~8| () Int)
(declare-fun |b.D.c.h.j#1~7| () Int)
(declare-fun |b.D.c.h.j#0~6| () Int)
(declare-fun |a.D.c.h.j#2~5| () Int)
(declare-fun |a.D.c.h.j#1~4| () Int)
(declare-fun |a.D.c.h.j#0~3| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(assert
 (let (($x1 (= (+ (* 4 |a.D.c.h.j#0~3|) (* 2 |a.D.c.h.j#1~4|) |a.D.c.h.j#2~5|) (+ (* 4 |b.D.c.h.j#0~6|) (* 2 |b.D.c.h.j#1~7|) |b.D.c.h.j#2~8|))))
 (and (or (and (distinct |a:word| |b:word|) true)) $x1)))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 63))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 63))
(assert
 (>= |a.D.c.h.j#0~3| 0))
(assert
 (<= |a.D.c.h.j#0~3| 15))
(assert
 (>= |a.D.c.h.j#1~4| 0))
(assert
 (<= |a.D.c.h.j#1~4| 1))
(assert
 (>= |a.D.c.h.j#2~5| 0))
(assert
 (<= |a.D.c.h.j#2~5| 1))
(assert
 (>= |b.D.c.h.j#0~6| 0))
(assert
 (<= |b.D.c.h.j#0~6| 15))
(assert
 (>= |b.D.c.h.j#1~7| 0))
(assert
 (<= |b.D.c.h.j#1~7| 1))
(assert
 (>= |b.D.c.h.j#2~8| 0))
(assert
 (<= |b.D.c.h.j#2~8| 1))
(assert
 (let ((?x2 (* (- 2) |a.D.c.h.j#1~4|)))
 (let ((?x3 (* (- 4) |a.D.c.h.j#0~3|)))
 (= (+ ?x3 ?x2 (* (- 1) |a.D.c.h.j#2~5|) |a:word|) 0))))
(assert
 (let ((?x4 (* (- 2) |b.D.c.h.j#1~7|)))
(let ((?x5 (* (- 4) |b.D.c.h.j#0~6|)))
(= (+ ?x5 ?x4 (* (- 1) |b.D.c.h.j#2~8|) |b:word|) 0))))
(check-sat)
