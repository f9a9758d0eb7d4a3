; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun swz.y2~10 () Int)
(declare-fun swz.y1~9 () Int)
(declare-fun swz.y0~8 () Int)
(declare-fun swz.t2~13 () Int)
(declare-fun swz.t1~12 () Int)
(declare-fun swz.t0~11 () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.S.q.c#1~2| () Int)
(declare-fun |dst.S.q.c#0~1| () Int)
(declare-fun |dst:lane| () Int)
(declare-fun swz.h~3 () Int)
(declare-fun swz.r~4 () Int)
(declare-fun swz.z0~5 () Int)
(declare-fun swz.z1~6 () Int)
(declare-fun swz.z2~7 () Int)
(assert
 (let ((?x1 (+ (* 4 |src:repeat0|) |src:word|)))
 (let (($x2 (>= ?x1 64)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x5 (* 128 |dst:repeat0|)))
 (let ((?x6 (* 4 |dst.S.q.c#1~2|)))
 (let ((?x7 (* 32 |dst.S.q.c#0~1|)))
 (let ((?x8 (+ ?x7 ?x6 ?x5 |dst:word| (* (- 8) swz.t0~11) (* (- 16) swz.t1~12) (* (- 32) swz.t2~13) (* 4 swz.y0~8) (* 8 swz.y1~9) (* 16 swz.y2~10))))
 (let (($x9 (>= ?x8 2048)))
 (or (or $x3 (> 64 64) (< 64 1)) $x4 (< ?x8 0) $x9 $x4 (or $x3 (> 16 16) (< 16 1)) (or $x3 (> 4 4) (< 4 1)) (< ?x1 0) $x2)))))))))))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 15))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |dst.S.q.c#0~1| 0))
(assert
 (<= |dst.S.q.c#0~1| 3))
(assert
 (>= |dst.S.q.c#1~2| 0))
(assert
 (<= |dst.S.q.c#1~2| 7))
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
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 15))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(assert
 (= (+ (* (- 8) |dst.S.q.c#0~1|) (* (- 1) |dst.S.q.c#1~2|) |dst:lane|) 0))
(assert
 (let ((?x10 (* (- 16) swz.z2~7)))
 (let ((?x11 (* (- 8) swz.z1~6)))
 (let ((?x12 (* (- 4) swz.z0~5)))
 (let ((?x13 (* (- 128) swz.y2~10)))
 (let ((?x14 (* (- 64) swz.y1~9)))
 (let ((?x15 (* (- 32) swz.y0~8)))
 (let ((?x16 (* (- 1) swz.r~4)))
 (let ((?x17 (* (- 256) swz.h~3)))
 (let ((?x5 (* 128 |dst:repeat0|)))
 (let ((?x6 (* 4 |dst.S.q.c#1~2|)))
 (let ((?x7 (* 32 |dst.S.q.c#0~1|)))
 (let ((?x18 (+ ?x7 ?x6 ?x5 |dst:word| ?x17 ?x16 ?x15 ?x14 ?x13 ?x12 ?x11 ?x10)))
 (= ?x18 0))))))))))))))
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
