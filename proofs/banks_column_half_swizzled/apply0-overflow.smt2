; tilecheck obligation query: file examples/banks_column_half_swizzled.toml, apply[0], obligation overflow
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y4~12 () Int)
(declare-fun swz.y3~11 () Int)
(declare-fun swz.y2~10 () Int)
(declare-fun swz.y1~9 () Int)
(declare-fun swz.y0~8 () Int)
(declare-fun swz.t4~17 () Int)
(declare-fun swz.t3~16 () Int)
(declare-fun swz.t2~15 () Int)
(declare-fun swz.t1~14 () Int)
(declare-fun swz.t0~13 () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:lane| () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.z0~3 () Int)
(declare-fun swz.z1~4 () Int)
(declare-fun swz.z2~5 () Int)
(declare-fun swz.z3~6 () Int)
(declare-fun swz.z4~7 () Int)
(assert
 (let ((?x1 (* 64 swz.y4~12)))
 (let ((?x2 (* 32 swz.y3~11)))
 (let ((?x3 (* 16 swz.y2~10)))
 (let ((?x4 (* 8 swz.y1~9)))
 (let ((?x5 (* 4 swz.y0~8)))
 (let ((?x6 (* (- 128) swz.t4~17)))
 (let ((?x7 (* (- 64) swz.t3~16)))
 (let ((?x8 (* (- 32) swz.t2~15)))
 (let ((?x9 (* (- 16) swz.t1~14)))
 (let ((?x10 (* (- 8) swz.t0~13)))
 (let ((?x11 (* 2 |a:repeat0|)))
 (let ((?x12 (* 128 |a:lane|)))
 (let ((?x13 (+ 1 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (let ((?x14 (+ ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (or (< ?x14 0) (>= ?x13 4294967296)))))))))))))))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 63))
(assert
 (>= swz.h~1 0))
(assert
 (<= swz.h~1 0))
(assert
 (>= swz.r~2 0))
(assert
 (<= swz.r~2 1))
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
 (>= swz.z3~6 0))
(assert
 (<= swz.z3~6 1))
(assert
 (>= swz.z4~7 0))
(assert
 (<= swz.z4~7 1))
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
 (>= swz.y3~11 0))
(assert
 (<= swz.y3~11 1))
(assert
 (>= swz.y4~12 0))
(assert
 (<= swz.y4~12 1))
(assert
 (>= swz.t0~13 0))
(assert
 (<= swz.t0~13 1))
(assert
 (>= swz.t1~14 0))
(assert
 (<= swz.t1~14 1))
(assert
 (>= swz.t2~15 0))
(assert
 (<= swz.t2~15 1))
(assert
 (>= swz.t3~16 0))
(assert
 (<= swz.t3~16 1))
(assert
 (>= swz.t4~17 0))
(assert
 (<= swz.t4~17 1))
(assert
 (let ((?x15 (* (- 32) swz.z4~7)))
 (let ((?x16 (* (- 16) swz.z3~6)))
 (let ((?x17 (* (- 8) swz.z2~5)))
 (let ((?x18 (* (- 4) swz.z1~4)))
 (let ((?x19 (* (- 2) swz.z0~3)))
 (let ((?x20 (* (- 1024) swz.y4~12)))
 (let ((?x21 (* (- 512) swz.y3~11)))
 (let ((?x22 (* (- 256) swz.y2~10)))
 (let ((?x23 (* (- 128) swz.y1~9)))
 (let ((?x24 (* (- 64) swz.y0~8)))
 (let ((?x25 (* (- 1) swz.r~2)))
 (let ((?x26 (* 64 |a:lane|)))
 (let ((?x27 (+ ?x26 |a:repeat0| (* (- 2048) swz.h~1) ?x25 ?x24 ?x23 ?x22 ?x21 ?x20 ?x19 ?x18 ?x17 ?x16 ?x15)))
 (= ?x27 0)))))))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~13) swz.z0~3) 0))
(assert
 (>= (+ (* (- 1) swz.t0~13) swz.y0~8) 0))
(assert
 (>= (+ 1 swz.t0~13 (* (- 1) swz.y0~8) (* (- 1) swz.z0~3)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~14) swz.z1~4) 0))
(assert
 (>= (+ (* (- 1) swz.t1~14) swz.y1~9) 0))
(assert
 (>= (+ 1 swz.t1~14 (* (- 1) swz.y1~9) (* (- 1) swz.z1~4)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~15) swz.z2~5) 0))
(assert
 (>= (+ (* (- 1) swz.t2~15) swz.y2~10) 0))
(assert
 (>= (+ 1 swz.t2~15 (* (- 1) swz.y2~10) (* (- 1) swz.z2~5)) 0))
(assert
 (>= (+ (* (- 1) swz.t3~16) swz.z3~6) 0))
(assert
 (>= (+ (* (- 1) swz.t3~16) swz.y3~11) 0))
(assert
 (>= (+ 1 swz.t3~16 (* (- 1) swz.y3~11) (* (- 1) swz.z3~6)) 0))
(assert
 (>= (+ (* (- 1) swz.t4~17) swz.z4~7) 0))
(assert
 (>= (+ (* (- 1) swz.t4~17) swz.y4~12) 0))
(assert
 (>= (+ 1 swz.t4~17 (* (- 1) swz.y4~12) (* (- 1) swz.z4~7)) 0))
(check-sat)
