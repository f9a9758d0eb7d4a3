; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[0], obligation overflow-dst
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~8 () Int)
(declare-fun swz.y1~7 () Int)
(declare-fun swz.y0~6 () Int)
(declare-fun swz.t2~11 () Int)
(declare-fun swz.t1~10 () Int)
(declare-fun swz.t0~9 () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:lane| () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.z0~3 () Int)
(declare-fun swz.z1~4 () Int)
(declare-fun swz.z2~5 () Int)
(assert
 (let ((?x1 (* 64 swz.y2~8)))
 (let ((?x2 (* 32 swz.y1~7)))
 (let ((?x3 (* 16 swz.y0~6)))
 (let ((?x4 (* (- 128) swz.t2~11)))
 (let ((?x5 (* (- 64) swz.t1~10)))
 (let ((?x6 (* (- 32) swz.t0~9)))
 (let ((?x7 (* 2 |a:word|)))
 (let ((?x8 (* 16 |a:repeat0|)))
 (let ((?x9 (* 128 |a:lane|)))
 (or (< (+ ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 0) (>= (+ 1 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 4294967296))))))))))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 7))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= swz.h~1 0))
(assert
 (<= swz.h~1 3))
(assert
 (>= swz.r~2 0))
(assert
 (<= swz.r~2 7))
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
 (let ((?x10 (* (- 32) swz.z2~5)))
 (let ((?x11 (* (- 16) swz.z1~4)))
 (let ((?x12 (* (- 8) swz.z0~3)))
 (let ((?x13 (* (- 256) swz.y2~8)))
 (let ((?x14 (* (- 128) swz.y1~7)))
 (let ((?x15 (* (- 64) swz.y0~6)))
 (let ((?x16 (* (- 1) swz.r~2)))
 (let ((?x17 (* (- 512) swz.h~1)))
 (let ((?x18 (* 8 |a:repeat0|)))
 (let ((?x19 (* 64 |a:lane|)))
 (= (+ ?x19 ?x18 |a:word| ?x17 ?x16 ?x15 ?x14 ?x13 ?x12 ?x11 ?x10) 0))))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~9) swz.z0~3) 0))
(assert
 (>= (+ (* (- 1) swz.t0~9) swz.y0~6) 0))
(assert
 (>= (+ 1 swz.t0~9 (* (- 1) swz.y0~6) (* (- 1) swz.z0~3)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~10) swz.z1~4) 0))
(assert
 (>= (+ (* (- 1) swz.t1~10) swz.y1~7) 0))
(assert
 (>= (+ 1 swz.t1~10 (* (- 1) swz.y1~7) (* (- 1) swz.z1~4)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~11) swz.z2~5) 0))
(assert
 (>= (+ (* (- 1) swz.t2~11) swz.y2~8) 0))
(assert
 (>= (+ 1 swz.t2~11 (* (- 1) swz.y2~8) (* (- 1) swz.z2~5)) 0))
(check-sat)
