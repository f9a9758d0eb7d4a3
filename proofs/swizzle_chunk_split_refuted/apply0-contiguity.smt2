; tilecheck obligation query: file examples/swizzle_chunk_split_refuted.toml, apply[0], obligation contiguity
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
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
(declare-fun |a:word| () Int)
(declare-fun |a.S.q.c#0~1| () Int)
(declare-fun |a.S.q.c#1~2| () Int)
(declare-fun swz.h~3 () Int)
(declare-fun swz.r~4 () Int)
(declare-fun swz.z0~5 () Int)
(declare-fun swz.z1~6 () Int)
(declare-fun swz.z2~7 () Int)
(declare-fun swz.h~14 () Int)
(declare-fun swz.r~15 () Int)
(declare-fun swz.z0~16 () Int)
(declare-fun swz.z1~17 () Int)
(declare-fun swz.z2~18 () Int)
(assert
 (let ((?x1 (+ (* (- 4) swz.t0~11) (* 4 swz.t0~22) (* (- 8) swz.t1~12) (* 8 swz.t1~23) (* (- 16) swz.t2~13) (* 16 swz.t2~24) (* (- 2) swz.y0~19) (* 2 swz.y0~8) (* (- 4) swz.y1~20) (* 4 swz.y1~9) (* 8 swz.y2~10) (* (- 8) swz.y2~21))))
 (and (distinct ?x1 0) true)))
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
 (<= swz.h~3 15))
(assert
 (>= swz.r~4 0))
(assert
 (<= swz.r~4 1))
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
 (<= swz.h~14 15))
(assert
 (>= swz.r~15 0))
(assert
 (<= swz.r~15 1))
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
 (= (+ (* (- 8) |a.S.q.c#0~1|) (* (- 1) |a.S.q.c#1~2|) |a:lane|) 0))
(assert
 (let ((?x2 (* (- 8) swz.z2~7)))
 (let ((?x3 (* (- 4) swz.z1~6)))
 (let ((?x4 (* (- 2) swz.z0~5)))
 (let ((?x5 (* (- 64) swz.y2~10)))
 (let ((?x6 (* (- 32) swz.y1~9)))
 (let ((?x7 (* (- 16) swz.y0~8)))
 (let ((?x8 (* (- 1) swz.r~4)))
 (let ((?x9 (* (- 128) swz.h~3)))
 (let ((?x10 (* 128 |a:repeat0|)))
 (let ((?x11 (* 4 |a.S.q.c#1~2|)))
 (let ((?x12 (* 32 |a.S.q.c#0~1|)))
 (= (+ ?x12 ?x11 ?x10 |a:word| ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2) 0)))))))))))))
(assert
 (let ((?x13 (* (- 8) swz.z2~18)))
 (let ((?x14 (* (- 4) swz.z1~17)))
 (let ((?x15 (* (- 2) swz.z0~16)))
 (let ((?x16 (* (- 64) swz.y2~21)))
 (let ((?x17 (* (- 32) swz.y1~20)))
 (let ((?x18 (* (- 16) swz.y0~19)))
 (let ((?x19 (* (- 128) swz.h~14)))
 (let ((?x10 (* 128 |a:repeat0|)))
 (let ((?x11 (* 4 |a.S.q.c#1~2|)))
 (let ((?x12 (* 32 |a.S.q.c#0~1|)))
 (let ((?x20 (+ ?x12 ?x11 ?x10 ?x19 (* (- 1) swz.r~15) ?x18 ?x17 ?x16 ?x15 ?x14 ?x13)))
 (= ?x20 0)))))))))))))
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
(assert
 (>= (+ (* (- 1) swz.t0~22) swz.z0~16) 0))
(assert
 (>= (+ (* (- 1) swz.t0~22) swz.y0~19) 0))
(assert
 (>= (+ 1 swz.t0~22 (* (- 1) swz.y0~19) (* (- 1) swz.z0~16)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~23) swz.z1~17) 0))
(assert
 (>= (+ (* (- 1) swz.t1~23) swz.y1~20) 0))
(assert
 (>= (+ 1 swz.t1~23 (* (- 1) swz.y1~20) (* (- 1) swz.z1~17)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~24) swz.z2~18) 0))
(assert
 (>= (+ (* (- 1) swz.t2~24) swz.y2~21) 0))
(assert
 (>= (+ 1 swz.t2~24 (* (- 1) swz.y2~21) (* (- 1) swz.z2~18)) 0))
(check-sat)
