; tilecheck obligation query: file examples/tma_swizzle_mismatch_refuted.toml, apply[0], obligation tma_landing
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun tma_k1 () Int)
(declare-fun tma_k0 () Int)
(declare-fun swz.y2~17 () Int)
(declare-fun swz.y1~16 () Int)
(declare-fun swz.y0~15 () Int)
(declare-fun swz.t2~20 () Int)
(declare-fun swz.t1~19 () Int)
(declare-fun swz.t0~18 () Int)
(declare-fun swz.y1~7 () Int)
(declare-fun swz.y0~6 () Int)
(declare-fun swz.t1~9 () Int)
(declare-fun swz.t0~8 () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.g~3 () Int)
(declare-fun swz.z0~4 () Int)
(declare-fun swz.z1~5 () Int)
(declare-fun swz.h~10 () Int)
(declare-fun swz.r~11 () Int)
(declare-fun swz.z0~12 () Int)
(declare-fun swz.z1~13 () Int)
(declare-fun swz.z2~14 () Int)
(assert
 (let ((?x1 (* 64 tma_k0)))
 (let ((?x2 (* 32 swz.y2~17)))
 (let ((?x3 (* 16 swz.y1~16)))
 (let ((?x4 (* 8 swz.y0~15)))
 (let ((?x5 (* (- 64) swz.t2~20)))
 (let ((?x6 (* (- 32) swz.t1~19)))
 (let ((?x7 (* (- 16) swz.t0~18)))
 (let ((?x8 (* 16 swz.y1~7)))
 (let ((?x9 (* 8 swz.y0~6)))
 (let ((?x10 (* (- 32) swz.t1~9)))
 (let ((?x11 (* (- 16) swz.t0~8)))
 (and (distinct (+ ?x11 ?x10 ?x9 ?x8 ?x1 tma_k1) (+ ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1 tma_k1)) true)))))))))))))
(assert
 (>= tma_k0 0))
(assert
 (<= tma_k0 127))
(assert
 (>= tma_k1 0))
(assert
 (<= tma_k1 63))
(assert
 (>= swz.h~1 0))
(assert
 (<= swz.h~1 31))
(assert
 (>= swz.r~2 0))
(assert
 (<= swz.r~2 7))
(assert
 (>= swz.g~3 0))
(assert
 (<= swz.g~3 1))
(assert
 (>= swz.z0~4 0))
(assert
 (<= swz.z0~4 1))
(assert
 (>= swz.z1~5 0))
(assert
 (<= swz.z1~5 1))
(assert
 (>= swz.y0~6 0))
(assert
 (<= swz.y0~6 1))
(assert
 (>= swz.y1~7 0))
(assert
 (<= swz.y1~7 1))
(assert
 (>= swz.t0~8 0))
(assert
 (<= swz.t0~8 1))
(assert
 (>= swz.t1~9 0))
(assert
 (<= swz.t1~9 1))
(assert
 (>= swz.h~10 0))
(assert
 (<= swz.h~10 15))
(assert
 (>= swz.r~11 0))
(assert
 (<= swz.r~11 7))
(assert
 (>= swz.z0~12 0))
(assert
 (<= swz.z0~12 1))
(assert
 (>= swz.z1~13 0))
(assert
 (<= swz.z1~13 1))
(assert
 (>= swz.z2~14 0))
(assert
 (<= swz.z2~14 1))
(assert
 (>= swz.y0~15 0))
(assert
 (<= swz.y0~15 1))
(assert
 (>= swz.y1~16 0))
(assert
 (<= swz.y1~16 1))
(assert
 (>= swz.y2~17 0))
(assert
 (<= swz.y2~17 1))
(assert
 (>= swz.t0~18 0))
(assert
 (<= swz.t0~18 1))
(assert
 (>= swz.t1~19 0))
(assert
 (<= swz.t1~19 1))
(assert
 (>= swz.t2~20 0))
(assert
 (<= swz.t2~20 1))
(assert
 (let ((?x1 (* 64 tma_k0)))
 (let ((?x12 (* (- 16) swz.z1~5)))
 (let ((?x13 (* (- 8) swz.z0~4)))
 (let ((?x14 (* (- 128) swz.y1~7)))
 (let ((?x15 (* (- 64) swz.y0~6)))
 (let ((?x16 (* (- 256) swz.h~1)))
 (let ((?x17 (* (- 32) swz.g~3)))
 (= (+ ?x17 ?x16 (* (- 1) swz.r~2) ?x15 ?x14 ?x13 ?x12 ?x1 tma_k1) 0)))))))))
(assert
 (let ((?x1 (* 64 tma_k0)))
 (let ((?x18 (* (- 32) swz.z2~14)))
 (let ((?x19 (* (- 16) swz.z1~13)))
 (let ((?x20 (* (- 8) swz.z0~12)))
 (let ((?x21 (* (- 256) swz.y2~17)))
 (let ((?x22 (* (- 128) swz.y1~16)))
 (let ((?x23 (* (- 64) swz.y0~15)))
 (let ((?x24 (* (- 1) swz.r~11)))
 (let ((?x25 (* (- 512) swz.h~10)))
 (= (+ ?x25 ?x24 ?x23 ?x22 ?x21 ?x20 ?x19 ?x18 ?x1 tma_k1) 0)))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~8) swz.z0~4) 0))
(assert
 (>= (+ (* (- 1) swz.t0~8) swz.y0~6) 0))
(assert
 (>= (+ 1 swz.t0~8 (* (- 1) swz.y0~6) (* (- 1) swz.z0~4)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~9) swz.z1~5) 0))
(assert
 (>= (+ (* (- 1) swz.t1~9) swz.y1~7) 0))
(assert
 (>= (+ 1 swz.t1~9 (* (- 1) swz.y1~7) (* (- 1) swz.z1~5)) 0))
(assert
 (>= (+ (* (- 1) swz.t0~18) swz.z0~12) 0))
(assert
 (>= (+ (* (- 1) swz.t0~18) swz.y0~15) 0))
(assert
 (>= (+ 1 swz.t0~18 (* (- 1) swz.y0~15) (* (- 1) swz.z0~12)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~19) swz.z1~13) 0))
(assert
 (>= (+ (* (- 1) swz.t1~19) swz.y1~16) 0))
(assert
 (>= (+ 1 swz.t1~19 (* (- 1) swz.y1~16) (* (- 1) swz.z1~13)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~20) swz.z2~14) 0))
(assert
 (>= (+ (* (- 1) swz.t2~20) swz.y2~17) 0))
(assert
 (>= (+ 1 swz.t2~20 (* (- 1) swz.y2~17) (* (- 1) swz.z2~14)) 0))
(check-sat)
