; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[0], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~21 () Int)
(declare-fun swz.y2~10 () Int)
(declare-fun swz.y1~9 () Int)
(declare-fun swz.y1~20 () Int)
(declare-fun swz.y0~8 () Int)
(declare-fun swz.y0~19 () Int)
(declare-fun swz.t2~24 () Int)
(declare-fun swz.t2~13 () Int)
(declare-fun swz.t1~23 () Int)
(declare-fun swz.t1~12 () Int)
(declare-fun swz.t0~22 () Int)
(declare-fun swz.t0~11 () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun swz.z2~7 () Int)
(declare-fun swz.z1~6 () Int)
(declare-fun swz.z0~5 () Int)
(declare-fun swz.r~4 () Int)
(declare-fun swz.h~3 () Int)
(declare-fun |a.S.q.c#0~1| () Int)
(declare-fun swz.h~14 () Int)
(declare-fun swz.z2~18 () Int)
(declare-fun swz.z1~17 () Int)
(declare-fun swz.z0~16 () Int)
(assert
 (let ((?x1 (* (- 16) swz.y2~21)))
 (let ((?x2 (* 16 swz.y2~10)))
 (let ((?x3 (* 8 swz.y1~9)))
 (let ((?x4 (* (- 8) swz.y1~20)))
 (let ((?x5 (* 4 swz.y0~8)))
 (let ((?x6 (* (- 4) swz.y0~19)))
 (let ((?x7 (* 32 swz.t2~24)))
 (let ((?x8 (* (- 32) swz.t2~13)))
 (let ((?x9 (* 16 swz.t1~23)))
 (let ((?x10 (* (- 16) swz.t1~12)))
 (let ((?x11 (* 8 swz.t0~22)))
 (let ((?x12 (* (- 8) swz.t0~11)))
 (let ((?x13 (+ ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (not (= ?x13 0))))))))))))))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (let ((?x14 (* 16 swz.z2~7)))
 (let ((?x15 (* 8 swz.z1~6)))
 (let ((?x16 (* 4 swz.z0~5)))
 (let ((?x17 (* 128 swz.y2~10)))
 (let ((?x18 (* 64 swz.y1~9)))
 (let ((?x19 (* 32 swz.y0~8)))
 (let ((?x20 (* 256 swz.h~3)))
 (let ((?x21 (* (- 128) |a:repeat0|)))
 (let ((?x22 (* (- 4) |a:lane|)))
 (let ((?x23 (+ ?x22 ?x21 ?x20 swz.r~4 ?x19 ?x18 ?x17 ?x16 ?x15 ?x14)))
 (>= ?x23 0))))))))))))
(assert
 (let ((?x14 (* 16 swz.z2~7)))
 (let ((?x15 (* 8 swz.z1~6)))
 (let ((?x16 (* 4 swz.z0~5)))
 (let ((?x17 (* 128 swz.y2~10)))
 (let ((?x18 (* 64 swz.y1~9)))
 (let ((?x19 (* 32 swz.y0~8)))
 (let ((?x20 (* 256 swz.h~3)))
 (let ((?x21 (* (- 128) |a:repeat0|)))
 (let ((?x22 (* (- 4) |a:lane|)))
 (let ((?x23 (+ ?x22 ?x21 ?x20 swz.r~4 ?x19 ?x18 ?x17 ?x16 ?x15 ?x14)))
 (<= ?x23 3))))))))))))
(assert
 (>= |a.S.q.c#0~1| 0))
(assert
 (<= |a.S.q.c#0~1| 3))
(assert
 (let ((?x24 (* (- 8) |a.S.q.c#0~1|)))
 (let ((?x25 (+ ?x24 |a:lane|)))
 (>= ?x25 0))))
(assert
 (let ((?x24 (* (- 8) |a.S.q.c#0~1|)))
 (let ((?x25 (+ ?x24 |a:lane|)))
 (<= ?x25 7))))
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
 (>= swz.h~14 0))
(assert
 (<= swz.h~14 7))
(assert
 (let ((?x26 (* (- 16) swz.z2~18)))
 (let ((?x27 (* (- 8) swz.z1~17)))
 (let ((?x28 (* (- 4) swz.z0~16)))
 (let ((?x29 (* (- 128) swz.y2~21)))
 (let ((?x30 (* (- 64) swz.y1~20)))
 (let ((?x31 (* (- 32) swz.y0~19)))
 (let ((?x32 (* (- 256) swz.h~14)))
 (let ((?x33 (* 128 |a:repeat0|)))
 (let ((?x34 (* 4 |a:lane|)))
 (let ((?x35 (+ ?x34 ?x33 ?x32 ?x31 ?x30 ?x29 ?x28 ?x27 ?x26)))
 (>= ?x35 0))))))))))))
(assert
 (let ((?x26 (* (- 16) swz.z2~18)))
 (let ((?x27 (* (- 8) swz.z1~17)))
 (let ((?x28 (* (- 4) swz.z0~16)))
 (let ((?x29 (* (- 128) swz.y2~21)))
 (let ((?x30 (* (- 64) swz.y1~20)))
 (let ((?x31 (* (- 32) swz.y0~19)))
 (let ((?x32 (* (- 256) swz.h~14)))
 (let ((?x33 (* 128 |a:repeat0|)))
 (let ((?x34 (* 4 |a:lane|)))
 (let ((?x35 (+ ?x34 ?x33 ?x32 ?x31 ?x30 ?x29 ?x28 ?x27 ?x26)))
 (<= ?x35 3))))))))))))
(assert
 (>= swz.z0~16 0))
(assert
 (<= swz.z0~16 1))
(assert
 (>= swz.z1~17 0))
(assert
 (<= swz.z1~17 1))
(assert
 (>= swz.z2~18 0))
(assert
 (<= swz.z2~18 1))
(assert
 (>= swz.y0~19 0))
(assert
 (<= swz.y0~19 1))
(assert
 (>= swz.y1~20 0))
(assert
 (<= swz.y1~20 1))
(assert
 (>= swz.y2~21 0))
(assert
 (<= swz.y2~21 1))
(assert
 (>= swz.t0~22 0))
(assert
 (<= swz.t0~22 1))
(assert
 (>= swz.t1~23 0))
(assert
 (<= swz.t1~23 1))
(assert
 (>= swz.t2~24 0))
(assert
 (<= swz.t2~24 1))
(assert
 (>= (+ (* (- 1) swz.t0~11) swz.z0~5) 0))
(assert
 (>= (+ (* (- 1) swz.t0~11) swz.y0~8) 0))
(assert
 (>= (+ swz.t0~11 (* (- 1) swz.y0~8) (* (- 1) swz.z0~5)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~12) swz.z1~6) 0))
(assert
 (>= (+ (* (- 1) swz.t1~12) swz.y1~9) 0))
(assert
 (>= (+ swz.t1~12 (* (- 1) swz.y1~9) (* (- 1) swz.z1~6)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~13) swz.z2~7) 0))
(assert
 (>= (+ (* (- 1) swz.t2~13) swz.y2~10) 0))
(assert
 (>= (+ swz.t2~13 (* (- 1) swz.y2~10) (* (- 1) swz.z2~7)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t0~22) swz.z0~16) 0))
(assert
 (>= (+ (* (- 1) swz.t0~22) swz.y0~19) 0))
(assert
 (>= (+ swz.t0~22 (* (- 1) swz.y0~19) (* (- 1) swz.z0~16)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~23) swz.z1~17) 0))
(assert
 (>= (+ (* (- 1) swz.t1~23) swz.y1~20) 0))
(assert
 (>= (+ swz.t1~23 (* (- 1) swz.y1~20) (* (- 1) swz.z1~17)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~24) swz.z2~18) 0))
(assert
 (>= (+ (* (- 1) swz.t2~24) swz.y2~21) 0))
(assert
 (>= (+ swz.t2~24 (* (- 1) swz.y2~21) (* (- 1) swz.z2~18)) (- 1)))
(check-sat)
