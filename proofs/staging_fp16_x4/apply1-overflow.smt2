; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[1], obligation overflow
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~13 () Int)
(declare-fun swz.y1~12 () Int)
(declare-fun swz.y0~11 () Int)
(declare-fun swz.t2~16 () Int)
(declare-fun swz.t1~15 () Int)
(declare-fun swz.t0~14 () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a.S.ib.ia.j#2~5| () Int)
(declare-fun |a.S.ib.ia.j#1~4| () Int)
(declare-fun |a.S.ib.ia.j#0~3| () Int)
(declare-fun |a.S.g.q#1~2| () Int)
(declare-fun |a.S.g.q#0~1| () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:word| () Int)
(declare-fun swz.h~6 () Int)
(declare-fun swz.r~7 () Int)
(declare-fun swz.z0~8 () Int)
(declare-fun swz.z1~9 () Int)
(declare-fun swz.z2~10 () Int)
(assert
 (let ((?x1 (* 64 swz.y2~13)))
 (let ((?x2 (* 32 swz.y1~12)))
 (let ((?x3 (* 16 swz.y0~11)))
 (let ((?x4 (* (- 128) swz.t2~16)))
 (let ((?x5 (* (- 64) swz.t1~15)))
 (let ((?x6 (* (- 32) swz.t0~14)))
 (let ((?x7 (* 32 |a:repeat1|)))
 (let ((?x8 (* 2048 |a:repeat0|)))
 (let ((?x9 (* 2 |a.S.ib.ia.j#2~5|)))
 (let ((?x10 (* 1024 |a.S.ib.ia.j#1~4|)))
 (let ((?x11 (* 16 |a.S.ib.ia.j#0~3|)))
 (let ((?x12 (* 4 |a.S.g.q#1~2|)))
 (let ((?x13 (* 128 |a.S.g.q#0~1|)))
 (let ((?x14 (+ 1 ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (let ((?x15 (+ ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (or (< ?x15 0) (>= ?x14 4294967296))))))))))))))))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 1))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 3))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= |a.S.g.q#0~1| 0))
(assert
 (<= |a.S.g.q#0~1| 7))
(assert
 (>= |a.S.g.q#1~2| 0))
(assert
 (<= |a.S.g.q#1~2| 3))
(assert
 (>= |a.S.ib.ia.j#0~3| 0))
(assert
 (<= |a.S.ib.ia.j#0~3| 1))
(assert
 (>= |a.S.ib.ia.j#1~4| 0))
(assert
 (<= |a.S.ib.ia.j#1~4| 1))
(assert
 (>= |a.S.ib.ia.j#2~5| 0))
(assert
 (<= |a.S.ib.ia.j#2~5| 1))
(assert
 (>= swz.h~6 0))
(assert
 (<= swz.h~6 3))
(assert
 (>= swz.r~7 0))
(assert
 (<= swz.r~7 7))
(assert
 (>= swz.z0~8 0))
(assert
 (<= swz.z0~8 1))
(assert
 (>= swz.z1~9 0))
(assert
 (<= swz.z1~9 1))
(assert
 (>= swz.z2~10 0))
(assert
 (<= swz.z2~10 1))
(assert
 (>= swz.y0~11 0))
(assert
 (<= swz.y0~11 1))
(assert
 (>= swz.y1~12 0))
(assert
 (<= swz.y1~12 1))
(assert
 (>= swz.y2~13 0))
(assert
 (<= swz.y2~13 1))
(assert
 (>= swz.t0~14 0))
(assert
 (<= swz.t0~14 1))
(assert
 (>= swz.t1~15 0))
(assert
 (<= swz.t1~15 1))
(assert
 (>= swz.t2~16 0))
(assert
 (<= swz.t2~16 1))
(assert
 (= (+ (* (- 4) |a.S.g.q#0~1|) (* (- 1) |a.S.g.q#1~2|) |a:lane|) 0))
(assert
 (let ((?x16 (* (- 2) |a.S.ib.ia.j#1~4|)))
 (let ((?x17 (* (- 4) |a.S.ib.ia.j#0~3|)))
 (= (+ ?x17 ?x16 (* (- 1) |a.S.ib.ia.j#2~5|) |a:word|) 0))))
(assert
 (let ((?x18 (* (- 32) swz.z2~10)))
 (let ((?x19 (* (- 16) swz.z1~9)))
 (let ((?x20 (* (- 8) swz.z0~8)))
 (let ((?x21 (* (- 256) swz.y2~13)))
 (let ((?x22 (* (- 128) swz.y1~12)))
 (let ((?x23 (* (- 64) swz.y0~11)))
 (let ((?x24 (* (- 512) swz.h~6)))
 (let ((?x25 (* 16 |a:repeat1|)))
 (let ((?x26 (* 1024 |a:repeat0|)))
 (let ((?x27 (* 512 |a.S.ib.ia.j#1~4|)))
 (let ((?x28 (* 8 |a.S.ib.ia.j#0~3|)))
 (let ((?x29 (* 64 |a.S.g.q#0~1|)))
 (let ((?x30 (+ ?x29 (* 2 |a.S.g.q#1~2|) ?x28 ?x27 |a.S.ib.ia.j#2~5| ?x26 ?x25 ?x24 (* (- 1) swz.r~7) ?x23 ?x22 ?x21 ?x20 ?x19 ?x18)))
 (= ?x30 0)))))))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~14) swz.z0~8) 0))
(assert
 (>= (+ (* (- 1) swz.t0~14) swz.y0~11) 0))
(assert
 (>= (+ 1 swz.t0~14 (* (- 1) swz.y0~11) (* (- 1) swz.z0~8)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~15) swz.z1~9) 0))
(assert
 (>= (+ (* (- 1) swz.t1~15) swz.y1~12) 0))
(assert
 (>= (+ 1 swz.t1~15 (* (- 1) swz.y1~12) (* (- 1) swz.z1~9)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~16) swz.z2~10) 0))
(assert
 (>= (+ (* (- 1) swz.t2~16) swz.y2~13) 0))
(assert
 (>= (+ 1 swz.t2~16 (* (- 1) swz.y2~13) (* (- 1) swz.z2~10)) 0))
(check-sat)
