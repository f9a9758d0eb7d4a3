; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[1], obligation bounds
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
(declare-fun |src:word| () Int)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.z0~3 () Int)
(declare-fun swz.z1~4 () Int)
(declare-fun swz.z2~5 () Int)
(assert
 (let ((?x1 (* 4 |src:repeat1|)))
 (let ((?x2 (* 1024 |src:repeat0|)))
 (let ((?x3 (* 32 |src:lane|)))
 (let ((?x4 (+ ?x3 ?x2 ?x1 |src:word| (* (- 8) swz.t0~9) (* (- 16) swz.t1~10) (* (- 32) swz.t2~11) (* 4 swz.y0~6) (* 8 swz.y1~7) (* 16 swz.y2~8))))
 (let (($x5 (>= ?x4 2048)))
 (let (($x6 (< 0 0)))
 (let (($x7 (or $x6 (> 32 32) (< 32 1))))
 (let ((?x8 (+ (* 32 |dst:repeat0|) (* 4 |dst:repeat1|) |dst:word|)))
 (let (($x9 (>= ?x8 64)))
 (or $x7 (or $x6 (> 2 2) (< 2 1)) (or $x6 (> 8 8) (< 8 1)) (or $x6 (> 4 4) (< 4 1)) (< ?x8 0) $x9 (or $x6 (> 64 64) (< 64 1)) $x7 (< ?x4 0) $x5)))))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 1))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 7))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 1))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 7))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
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
 (let ((?x10 (* (- 16) swz.z2~5)))
 (let ((?x11 (* (- 8) swz.z1~4)))
 (let ((?x12 (* (- 4) swz.z0~3)))
 (let ((?x13 (* (- 128) swz.y2~8)))
 (let ((?x14 (* (- 64) swz.y1~7)))
 (let ((?x15 (* (- 32) swz.y0~6)))
 (let ((?x16 (* (- 1) swz.r~2)))
 (let ((?x17 (* (- 256) swz.h~1)))
 (let ((?x1 (* 4 |src:repeat1|)))
 (let ((?x2 (* 1024 |src:repeat0|)))
 (let ((?x3 (* 32 |src:lane|)))
 (let ((?x18 (+ ?x3 ?x2 ?x1 |src:word| ?x17 ?x16 ?x15 ?x14 ?x13 ?x12 ?x11 ?x10)))
 (= ?x18 0))))))))))))))
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
