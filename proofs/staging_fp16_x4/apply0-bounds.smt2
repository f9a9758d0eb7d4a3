; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |k'| () Int)
(declare-fun |r0'| () Int)
(declare-fun |c0'| () Int)
(declare-fun m () Int)
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
 (let ((?x3 (+ ?x2 (* 256 |k'| |r0'|) (* 8 |k'| |src:lane|) ?x1 |src:word|)))
 (let ((?x4 (* 32 |r0'|)))
 (let ((?x5 (+ ?x4 |src:lane|)))
 (let (($x6 (< ?x5 m)))
 (let (($x7 (>= ?x5 0)))
 (let ((?x8 (+ ?x2 ?x1)))
 (let (($x9 (>= ?x8 0)))
 (let (($x10 (and $x7 $x6 $x9 (< ?x8 (* 8 |k'|)) $x7 $x6 (>= (+ 1 ?x2 ?x1) 0) (< (+ 1 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 2 ?x2 ?x1) 0) (< (+ 2 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 3 ?x2 ?x1) 0) (< (+ 3 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 4 ?x2 ?x1) 0) (< (+ 4 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 5 ?x2 ?x1) 0) (< (+ 5 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 6 ?x2 ?x1) 0) (< (+ 6 ?x2 ?x1) (* 8 |k'|)) $x7 $x6 (>= (+ 7 ?x2 ?x1) 0) (< (+ 7 ?x2 ?x1) (* 8 |k'|)))))
 (let ((?x11 (* 8 |dst:repeat0|)))
 (let ((?x12 (* 64 |dst:lane|)))
 (let ((?x13 (+ ?x12 ?x11 |dst:word| (* (- 16) swz.t0~9) (* (- 32) swz.t1~10) (* (- 64) swz.t2~11) (* 8 swz.y0~6) (* 16 swz.y1~7) (* 32 swz.y2~8))))
 (let (($x14 (>= ?x13 2048)))
 (or (or (< 0 0) (> 32 32) (< 32 1)) (or (< 0 0) (> 64 64) (< 64 1)) (< ?x13 0) $x14 (< m 1) (< (* 8 |k'|) 1) (and $x10 (or (< ?x3 0)))))))))))))))))))
(assert
 (>= m 1))
(assert
 (<= m 4096))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 512))
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
 (let ((?x15 (* (- 32) swz.z2~5)))
 (let ((?x16 (* (- 16) swz.z1~4)))
 (let ((?x17 (* (- 8) swz.z0~3)))
 (let ((?x18 (* (- 256) swz.y2~8)))
 (let ((?x19 (* (- 128) swz.y1~7)))
 (let ((?x20 (* (- 64) swz.y0~6)))
 (let ((?x21 (* (- 1) swz.r~2)))
 (let ((?x22 (* (- 512) swz.h~1)))
 (let ((?x11 (* 8 |dst:repeat0|)))
 (let ((?x12 (* 64 |dst:lane|)))
 (= (+ ?x12 ?x11 |dst:word| ?x22 ?x21 ?x20 ?x19 ?x18 ?x17 ?x16 ?x15) 0))))))))))))
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
 (let ((?x23 (* |k'| |r0'|)))
 (>= ?x23 0)))
(assert
 (let ((?x23 (* |k'| |r0'|)))
 (<= ?x23 65024)))
(assert
 (let ((?x24 (* |k'| |src:lane|)))
 (>= ?x24 0)))
(assert
 (let ((?x24 (* |k'| |src:lane|)))
(<= ?x24 15872)))
(check-sat)
