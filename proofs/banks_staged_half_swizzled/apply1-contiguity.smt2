; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[1], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~8 () Int)
(declare-fun swz.y2~19 () Int)
(declare-fun swz.y1~7 () Int)
(declare-fun swz.y1~18 () Int)
(declare-fun swz.y0~6 () Int)
(declare-fun swz.y0~17 () Int)
(declare-fun swz.t2~22 () Int)
(declare-fun swz.t2~11 () Int)
(declare-fun swz.t1~21 () Int)
(declare-fun swz.t1~10 () Int)
(declare-fun swz.t0~9 () Int)
(declare-fun swz.t0~20 () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun swz.z2~5 () Int)
(declare-fun swz.z1~4 () Int)
(declare-fun swz.z0~3 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.h~12 () Int)
(declare-fun swz.z2~16 () Int)
(declare-fun swz.z1~15 () Int)
(declare-fun swz.z0~14 () Int)
(assert
 (let ((?x1 (* 16 swz.y2~8)))
 (let ((?x2 (* (- 16) swz.y2~19)))
 (let ((?x3 (* 8 swz.y1~7)))
 (let ((?x4 (* (- 8) swz.y1~18)))
 (let ((?x5 (* 4 swz.y0~6)))
 (let ((?x6 (* (- 4) swz.y0~17)))
 (let ((?x7 (* 32 swz.t2~22)))
 (let ((?x8 (* (- 32) swz.t2~11)))
 (let ((?x9 (* 16 swz.t1~21)))
 (let ((?x10 (* (- 16) swz.t1~10)))
 (let ((?x11 (* (- 8) swz.t0~9)))
 (let ((?x12 (* 8 swz.t0~20)))
 (let ((?x13 (+ ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (not (= ?x13 0))))))))))))))))
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
 (<= |a:repeat1| 7))
(assert
 (let ((?x14 (* 16 swz.z2~5)))
 (let ((?x15 (* 8 swz.z1~4)))
 (let ((?x16 (* 4 swz.z0~3)))
 (let ((?x17 (* 128 swz.y2~8)))
 (let ((?x18 (* 64 swz.y1~7)))
 (let ((?x19 (* 32 swz.y0~6)))
 (let ((?x20 (* 256 swz.h~1)))
 (let ((?x21 (* (- 4) |a:repeat1|)))
 (let ((?x22 (* (- 1024) |a:repeat0|)))
 (let ((?x23 (* (- 32) |a:lane|)))
 (let ((?x24 (+ ?x23 ?x22 ?x21 ?x20 swz.r~2 ?x19 ?x18 ?x17 ?x16 ?x15 ?x14)))
 (>= ?x24 0)))))))))))))
(assert
 (let ((?x14 (* 16 swz.z2~5)))
 (let ((?x15 (* 8 swz.z1~4)))
 (let ((?x16 (* 4 swz.z0~3)))
 (let ((?x17 (* 128 swz.y2~8)))
 (let ((?x18 (* 64 swz.y1~7)))
 (let ((?x19 (* 32 swz.y0~6)))
 (let ((?x20 (* 256 swz.h~1)))
 (let ((?x21 (* (- 4) |a:repeat1|)))
 (let ((?x22 (* (- 1024) |a:repeat0|)))
 (let ((?x23 (* (- 32) |a:lane|)))
 (let ((?x24 (+ ?x23 ?x22 ?x21 ?x20 swz.r~2 ?x19 ?x18 ?x17 ?x16 ?x15 ?x14)))
 (<= ?x24 3)))))))))))))
(assert
 (>= swz.h~1 0))
(assert
 (<= swz.h~1 7))
(assert
 (>= swz.r~2 0))
(assert
 (<= swz.r~2 3))
(assert
 (>= swz.z0~3 0))
(assert
 (<= swz.z0~3 1))
(assert
 (>= swz.z1~4 0))
(assert
 (<= swz.z1~4 1))
(assert
 (>= swz.z2~5 0))
(assert
 (<= swz.z2~5 1))
(assert
 (>= swz.y0~6 0))
(assert
 (<= swz.y0~6 1))
(assert
 (>= swz.y1~7 0))
(assert
 (<= swz.y1~7 1))
(assert
 (>= swz.y2~8 0))
(assert
 (<= swz.y2~8 1))
(assert
 (>= swz.t0~9 0))
(assert
 (<= swz.t0~9 1))
(assert
 (>= swz.t1~10 0))
(assert
 (<= swz.t1~10 1))
(assert
 (>= swz.t2~11 0))
(assert
 (<= swz.t2~11 1))
(assert
 (>= swz.h~12 0))
(assert
 (<= swz.h~12 7))
(assert
 (let ((?x25 (* (- 16) swz.z2~16)))
 (let ((?x26 (* (- 8) swz.z1~15)))
 (let ((?x27 (* (- 4) swz.z0~14)))
 (let ((?x28 (* (- 128) swz.y2~19)))
 (let ((?x29 (* (- 64) swz.y1~18)))
 (let ((?x30 (* (- 32) swz.y0~17)))
 (let ((?x31 (* (- 256) swz.h~12)))
 (let ((?x32 (* 4 |a:repeat1|)))
 (let ((?x33 (* 1024 |a:repeat0|)))
 (let ((?x34 (* 32 |a:lane|)))
 (let ((?x35 (+ ?x34 ?x33 ?x32 ?x31 ?x30 ?x29 ?x28 ?x27 ?x26 ?x25)))
 (>= ?x35 0)))))))))))))
(assert
 (let ((?x25 (* (- 16) swz.z2~16)))
 (let ((?x26 (* (- 8) swz.z1~15)))
 (let ((?x27 (* (- 4) swz.z0~14)))
 (let ((?x28 (* (- 128) swz.y2~19)))
 (let ((?x29 (* (- 64) swz.y1~18)))
 (let ((?x30 (* (- 32) swz.y0~17)))
 (let ((?x31 (* (- 256) swz.h~12)))
 (let ((?x32 (* 4 |a:repeat1|)))
 (let ((?x33 (* 1024 |a:repeat0|)))
 (let ((?x34 (* 32 |a:lane|)))
 (let ((?x35 (+ ?x34 ?x33 ?x32 ?x31 ?x30 ?x29 ?x28 ?x27 ?x26 ?x25)))
 (<= ?x35 3)))))))))))))
(assert
 (>= swz.z0~14 0))
(assert
 (<= swz.z0~14 1))
(assert
 (>= swz.z1~15 0))
(assert
 (<= swz.z1~15 1))
(assert
 (>= swz.z2~16 0))
(assert
 (<= swz.z2~16 1))
(assert
 (>= swz.y0~17 0))
(assert
 (<= swz.y0~17 1))
(assert
 (>= swz.y1~18 0))
(assert
 (<= swz.y1~18 1))
(assert
 (>= swz.y2~19 0))
(assert
 (<= swz.y2~19 1))
(assert
 (>= swz.t0~20 0))
(assert
 (<= swz.t0~20 1))
(assert
 (>= swz.t1~21 0))
(assert
 (<= swz.t1~21 1))
(assert
 (>= swz.t2~22 0))
(assert
 (<= swz.t2~22 1))
(assert
 (>= (+ (* (- 1) swz.t0~9) swz.z0~3) 0))
(assert
 (>= (+ (* (- 1) swz.t0~9) swz.y0~6) 0))
(assert
 (>= (+ swz.t0~9 (* (- 1) swz.y0~6) (* (- 1) swz.z0~3)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~10) swz.z1~4) 0))
(assert
 (>= (+ (* (- 1) swz.t1~10) swz.y1~7) 0))
(assert
 (>= (+ swz.t1~10 (* (- 1) swz.y1~7) (* (- 1) swz.z1~4)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~11) swz.z2~5) 0))
(assert
 (>= (+ (* (- 1) swz.t2~11) swz.y2~8) 0))
(assert
 (>= (+ swz.t2~11 (* (- 1) swz.y2~8) (* (- 1) swz.z2~5)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t0~20) swz.z0~14) 0))
(assert
 (>= (+ (* (- 1) swz.t0~20) swz.y0~17) 0))
(assert
 (>= (+ swz.t0~20 (* (- 1) swz.y0~17) (* (- 1) swz.z0~14)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~21) swz.z1~15) 0))
(assert
 (>= (+ (* (- 1) swz.t1~21) swz.y1~18) 0))
(assert
 (>= (+ swz.t1~21 (* (- 1) swz.y1~18) (* (- 1) swz.z1~15)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~22) swz.z2~16) 0))
(assert
 (>= (+ (* (- 1) swz.t2~22) swz.y2~19) 0))
(assert
 (>= (+ swz.t2~22 (* (- 1) swz.y2~19) (* (- 1) swz.z2~16)) (- 1)))
(check-sat)
