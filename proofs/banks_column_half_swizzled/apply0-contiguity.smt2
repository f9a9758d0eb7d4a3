; tilecheck obligation query: file examples/banks_column_half_swizzled.toml, apply[0], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:word| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:lane| () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.z0~3 () Int)
(declare-fun swz.z1~4 () Int)
(declare-fun swz.z2~5 () Int)
(declare-fun swz.z3~6 () Int)
(declare-fun swz.z4~7 () Int)
(declare-fun swz.y0~8 () Int)
(declare-fun swz.y1~9 () Int)
(declare-fun swz.y2~10 () Int)
(declare-fun swz.y3~11 () Int)
(declare-fun swz.y4~12 () Int)
(declare-fun swz.t0~13 () Int)
(declare-fun swz.t1~14 () Int)
(declare-fun swz.t2~15 () Int)
(declare-fun swz.t3~16 () Int)
(declare-fun swz.t4~17 () Int)
(assert
 (let ((?x1 (* (- 1) |a:word|)))
 (let (($x2 (= ?x1 0)))
 (let (($x3 (=> (and $x2 (= (mod (+ (* 64 |a:lane|) |a:repeat0|) 1) 0)) $x2)))
 (and (and (distinct ?x1 0) true) $x3)))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 63))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 0))
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
 (let ((?x4 (* (- 32) swz.z4~7)))
 (let ((?x5 (* (- 16) swz.z3~6)))
 (let ((?x6 (* (- 8) swz.z2~5)))
 (let ((?x7 (* (- 4) swz.z1~4)))
 (let ((?x8 (* (- 2) swz.z0~3)))
 (let ((?x9 (* (- 1024) swz.y4~12)))
 (let ((?x10 (* (- 512) swz.y3~11)))
 (let ((?x11 (* (- 256) swz.y2~10)))
 (let ((?x12 (* (- 128) swz.y1~9)))
 (let ((?x13 (* (- 64) swz.y0~8)))
 (let ((?x14 (* (- 1) swz.r~2)))
 (let ((?x15 (* 64 |a:lane|)))
 (let ((?x16 (+ ?x15 |a:repeat0| (* (- 2048) swz.h~1) ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4)))
 (= ?x16 0)))))))))))))))
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
