; tilecheck obligation query: file examples/staging_bf16_x4_trans.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |n'| () Int)
(declare-fun |r0'| () Int)
(declare-fun |c0'| () Int)
(declare-fun k () Int)
(declare-fun swz.y2~8 () Int)
(declare-fun swz.y1~7 () Int)
(declare-fun swz.y0~6 () Int)
(declare-fun swz.t2~11 () Int)
(declare-fun swz.t1~10 () Int)
(declare-fun swz.t0~9 () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst:lane| () Int)
(declare-fun swz.h~1 () Int)
(declare-fun swz.r~2 () Int)
(declare-fun swz.z0~3 () Int)
(declare-fun swz.z1~4 () Int)
(declare-fun swz.z2~5 () Int)
(assert
 (let ((?x1 (* 8 |src:repeat0|)))
 (let ((?x2 (* 64 |c0'|)))
 (let ((?x3 (+ ?x2 (* 256 |n'| |r0'|) (* 8 |n'| |src:lane|) ?x1 |src:word|)))
 (let ((?x4 (+ (* 32 |r0'|) |src:lane|)))
 (let (($x5 (< ?x4 k)))
 (let (($x6 (>= ?x4 0)))
 (let ((?x7 (+ ?x2 ?x1)))
 (let (($x8 (>= ?x7 0)))
 (let (($x9 (and $x6 $x5 $x8 (< ?x7 (* 8 |n'|)) $x6 $x5 (>= (+ 1 ?x2 ?x1) 0) (< (+ 1 ?x2 ?x1) (* 8 |n'|)) $x6 $x5 (>= (+ 2 ?x2 ?x1) 0) (< (+ 2 ?x2 ?x1) (* 8 |n'|)) $x6 $x5 (>= (+ 3 ?x2 ?x1) 0) (< (+ 3 ?x2 ?x1) (* 8 |n'|)) $x6 $x5 (>= (+ 4 ?x2 ?x1) 0) (< (+ 4 ?x2 ?x1) (* 8 |n'|)) $x6 $x5 (>= (+ 5 ?x2 ?x1) 0) (< (+ 5 ?x2 ?x1) (* 8 |n'|)) $x6 $x5 (>= (+ 6 ?x2 ?x1) 0) (< (+ 6 ?x2 ?x1) (* 8 |n'|)) $x6 $x5 (>= (+ 7 ?x2 ?x1) 0) (< (+ 7 ?x2 ?x1) (* 8 |n'|)))))
 (let ((?x10 (* 8 |dst:repeat0|)))
 (let ((?x11 (* 64 |dst:lane|)))
 (let ((?x12 (+ ?x11 ?x10 |dst:word| (* (- 16) swz.t0~9) (* (- 32) swz.t1~10) (* (- 64) swz.t2~11) (* 8 swz.y0~6) (* 16 swz.y1~7) (* 32 swz.y2~8))))
 (let (($x13 (>= ?x12 2048)))
 (or (or (< 0 0) (> 32 32) (< 32 1)) (or (< 0 0) (> 64 64) (< 64 1)) (< ?x12 0) $x13 (< k 1) (< (* 8 |n'|) 1) (and $x9 (or (< ?x3 0))))))))))))))))))
(assert
 (>= k 1))
(assert
 (<= k 4096))
(assert
 (>= |n'| 1))
(assert
 (<= |n'| 512))
(assert
 (>= |r0'| 0))
(assert
 (<= |r0'| 127))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 63))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 7))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
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
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 7))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 7))
(assert
 (let ((?x14 (* (- 32) swz.z2~5)))
 (let ((?x15 (* (- 16) swz.z1~4)))
 (let ((?x16 (* (- 8) swz.z0~3)))
 (let ((?x17 (* (- 256) swz.y2~8)))
 (let ((?x18 (* (- 128) swz.y1~7)))
 (let ((?x19 (* (- 64) swz.y0~6)))
 (let ((?x20 (* (- 1) swz.r~2)))
 (let ((?x21 (* (- 512) swz.h~1)))
 (let ((?x10 (* 8 |dst:repeat0|)))
 (let ((?x11 (* 64 |dst:lane|)))
 (= (+ ?x11 ?x10 |dst:word| ?x21 ?x20 ?x19 ?x18 ?x17 ?x16 ?x15 ?x14) 0))))))))))))
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
(assert
 (let ((?x22 (* |n'| |r0'|)))
 (>= ?x22 0)))
(assert
 (let ((?x22 (* |n'| |r0'|)))
 (<= ?x22 65024)))
(assert
 (let ((?x23 (* |n'| |src:lane|)))
 (>= ?x23 0)))
(assert
 (let ((?x23 (* |n'| |src:lane|)))
(<= ?x23 15872)))
(check-sat)
