; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[0], obligation overflow
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~10 () Int)
(declare-fun swz.y1~9 () Int)
(declare-fun swz.y0~8 () Int)
(declare-fun swz.t2~13 () Int)
(declare-fun swz.t1~12 () Int)
(declare-fun swz.t0~11 () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a.S.q.c#1~2| () Int)
(declare-fun |a.S.q.c#0~1| () Int)
(declare-fun |a:lane| () Int)
(declare-fun swz.h~3 () Int)
(declare-fun swz.r~4 () Int)
(declare-fun swz.z0~5 () Int)
(declare-fun swz.z1~6 () Int)
(declare-fun swz.z2~7 () Int)
(assert
 (let ((?x1 (* 64 swz.y2~10)))
 (let ((?x2 (* 32 swz.y1~9)))
 (let ((?x3 (* 16 swz.y0~8)))
 (let ((?x4 (* (- 128) swz.t2~13)))
 (let ((?x5 (* (- 64) swz.t1~12)))
 (let ((?x6 (* (- 32) swz.t0~11)))
 (let ((?x7 (* 4 |a:word|)))
 (let ((?x8 (* 512 |a:repeat0|)))
 (let ((?x9 (* 16 |a.S.q.c#1~2|)))
 (let ((?x10 (* 128 |a.S.q.c#0~1|)))
 (let (($x11 (>= (+ 3 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 4294967296)))
 (or (< (+ ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 0) $x11)))))))))))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |a.S.q.c#0~1| 0))
(assert
 (<= |a.S.q.c#0~1| 3))
(assert
 (>= |a.S.q.c#1~2| 0))
(assert
 (<= |a.S.q.c#1~2| 7))
(assert
 (>= swz.h~3 0))
(assert
 (<= swz.h~3 7))
(assert
 (>= swz.r~4 0))
(assert
 (<= swz.r~4 3))
(assert
 (>= swz.z0~5 0))
(assert
 (<= swz.z0~5 1))
(assert
 (>= swz.z1~6 0))
(assert
 (<= swz.z1~6 1))
(assert
 (>= swz.z2~7 0))
(assert
 (<= swz.z2~7 1))
(assert
 (>= swz.y0~8 0))
(assert
 (<= swz.y0~8 1))
(assert
 (>= swz.y1~9 0))
(assert
 (<= swz.y1~9 1))
(assert
 (>= swz.y2~10 0))
(assert
 (<= swz.y2~10 1))
(assert
 (>= swz.t0~11 0))
(assert
 (<= swz.t0~11 1))
(assert
 (>= swz.t1~12 0))
(assert
 (<= swz.t1~12 1))
(assert
 (>= swz.t2~13 0))
(assert
 (<= swz.t2~13 1))
(assert
 (= (+ (* (- 8) |a.S.q.c#0~1|) (* (- 1) |a.S.q.c#1~2|) |a:lane|) 0))
(assert
 (let ((?x12 (* (- 16) swz.z2~7)))
 (let ((?x13 (* (- 8) swz.z1~6)))
 (let ((?x14 (* (- 4) swz.z0~5)))
 (let ((?x15 (* (- 128) swz.y2~10)))
 (let ((?x16 (* (- 64) swz.y1~9)))
 (let ((?x17 (* (- 32) swz.y0~8)))
 (let ((?x18 (* (- 1) swz.r~4)))
 (let ((?x19 (* (- 256) swz.h~3)))
 (let ((?x20 (* 128 |a:repeat0|)))
 (let ((?x21 (* 32 |a.S.q.c#0~1|)))
 (let ((?x22 (+ ?x21 (* 4 |a.S.q.c#1~2|) ?x20 |a:word| ?x19 ?x18 ?x17 ?x16 ?x15 ?x14 ?x13 ?x12)))
 (= ?x22 0)))))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~11) swz.z0~5) 0))
(assert
 (>= (+ (* (- 1) swz.t0~11) swz.y0~8) 0))
(assert
 (>= (+ 1 swz.t0~11 (* (- 1) swz.y0~8) (* (- 1) swz.z0~5)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~12) swz.z1~6) 0))
(assert
 (>= (+ (* (- 1) swz.t1~12) swz.y1~9) 0))
(assert
 (>= (+ 1 swz.t1~12 (* (- 1) swz.y1~9) (* (- 1) swz.z1~6)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~13) swz.z2~7) 0))
(assert
 (>= (+ (* (- 1) swz.t2~13) swz.y2~10) 0))
(assert
 (>= (+ 1 swz.t2~13 (* (- 1) swz.y2~10) (* (- 1) swz.z2~7)) 0))
(check-sat)
