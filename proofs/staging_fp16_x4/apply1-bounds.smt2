; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[1], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~18 () Int)
(declare-fun swz.y1~17 () Int)
(declare-fun swz.y0~16 () Int)
(declare-fun swz.t2~21 () Int)
(declare-fun swz.t1~20 () Int)
(declare-fun swz.t0~19 () Int)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src.S.ib.ia.j#2~10| () Int)
(declare-fun |src.S.ib.ia.j#1~9| () Int)
(declare-fun |src.S.ib.ia.j#0~8| () Int)
(declare-fun |src.S.g.q#1~7| () Int)
(declare-fun |src.S.g.q#0~6| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.R.ib.ia.j#2~5| () Int)
(declare-fun |dst.R.ib.ia.j#1~4| () Int)
(declare-fun |dst.R.ib.ia.j#0~3| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |src:word| () Int)
(declare-fun swz.h~11 () Int)
(declare-fun swz.r~12 () Int)
(declare-fun swz.z0~13 () Int)
(declare-fun swz.z1~14 () Int)
(declare-fun swz.z2~15 () Int)
(assert
 (let ((?x1 (* 16 |src:repeat1|)))
 (let ((?x2 (* 1024 |src:repeat0|)))
 (let ((?x3 (* 512 |src.S.ib.ia.j#1~9|)))
 (let ((?x4 (* 8 |src.S.ib.ia.j#0~8|)))
 (let ((?x5 (* 2 |src.S.g.q#1~7|)))
 (let ((?x6 (* 64 |src.S.g.q#0~6|)))
 (let ((?x7 (+ ?x6 ?x5 ?x4 ?x3 |src.S.ib.ia.j#2~10| ?x2 ?x1 (* (- 16) swz.t0~19) (* (- 32) swz.t1~20) (* (- 64) swz.t2~21) (* 8 swz.y0~16) (* 16 swz.y1~17) (* 32 swz.y2~18))))
 (let (($x8 (>= ?x7 2048)))
 (let (($x9 (< 0 0)))
 (let (($x10 (or $x9 (> 64 64) (< 64 1))))
 (let (($x11 (or $x9 (> 32 32) (< 32 1))))
 (let ((?x12 (+ (* 4 |dst.R.ib.ia.j#0~3|) (* 2 |dst.R.ib.ia.j#1~4|) |dst.R.ib.ia.j#2~5| (* 32 |dst:repeat0|) (* 8 |dst:repeat1|))))
 (let (($x13 (>= ?x12 64)))
 (or $x11 $x10 (< ?x12 0) $x13 $x11 $x10 (< ?x7 0) $x8)))))))))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 1))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 3))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
(assert
 (>= |dst.R.ib.ia.j#0~3| 0))
(assert
 (<= |dst.R.ib.ia.j#0~3| 1))
(assert
 (>= |dst.R.ib.ia.j#1~4| 0))
(assert
 (<= |dst.R.ib.ia.j#1~4| 1))
(assert
 (>= |dst.R.ib.ia.j#2~5| 0))
(assert
 (<= |dst.R.ib.ia.j#2~5| 1))
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
 (<= |src:repeat1| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 7))
(assert
 (>= |src.S.g.q#0~6| 0))
(assert
 (<= |src.S.g.q#0~6| 7))
(assert
 (>= |src.S.g.q#1~7| 0))
(assert
 (<= |src.S.g.q#1~7| 3))
(assert
 (>= |src.S.ib.ia.j#0~8| 0))
(assert
 (<= |src.S.ib.ia.j#0~8| 1))
(assert
 (>= |src.S.ib.ia.j#1~9| 0))
(assert
 (<= |src.S.ib.ia.j#1~9| 1))
(assert
 (>= |src.S.ib.ia.j#2~10| 0))
(assert
 (<= |src.S.ib.ia.j#2~10| 1))
(assert
 (>= swz.h~11 0))
(assert
 (<= swz.h~11 3))
(assert
 (>= swz.r~12 0))
(assert
 (<= swz.r~12 7))
(assert
 (>= swz.z0~13 0))
(assert
 (<= swz.z0~13 1))
(assert
 (>= swz.z1~14 0))
(assert
 (<= swz.z1~14 1))
(assert
 (>= swz.z2~15 0))
(assert
 (<= swz.z2~15 1))
(assert
 (>= swz.y0~16 0))
(assert
 (<= swz.y0~16 1))
(assert
 (>= swz.y1~17 0))
(assert
 (<= swz.y1~17 1))
(assert
 (>= swz.y2~18 0))
(assert
 (<= swz.y2~18 1))
(assert
 (>= swz.t0~19 0))
(assert
 (<= swz.t0~19 1))
(assert
 (>= swz.t1~20 0))
(assert
 (<= swz.t1~20 1))
(assert
 (>= swz.t2~21 0))
(assert
 (<= swz.t2~21 1))
(assert
 (let ((?x14 (* (- 2) |dst.R.ib.ia.j#1~4|)))
 (let ((?x15 (* (- 4) |dst.R.ib.ia.j#0~3|)))
 (= (+ ?x15 ?x14 (* (- 1) |dst.R.ib.ia.j#2~5|) |dst:word|) 0))))
(assert
 (= (+ (* (- 4) |src.S.g.q#0~6|) (* (- 1) |src.S.g.q#1~7|) |src:lane|) 0))
(assert
 (let ((?x16 (* (- 2) |src.S.ib.ia.j#1~9|)))
 (let ((?x17 (* (- 4) |src.S.ib.ia.j#0~8|)))
 (= (+ ?x17 ?x16 (* (- 1) |src.S.ib.ia.j#2~10|) |src:word|) 0))))
(assert
 (let ((?x18 (* (- 32) swz.z2~15)))
 (let ((?x19 (* (- 16) swz.z1~14)))
 (let ((?x20 (* (- 8) swz.z0~13)))
 (let ((?x21 (* (- 256) swz.y2~18)))
 (let ((?x22 (* (- 128) swz.y1~17)))
 (let ((?x23 (* (- 64) swz.y0~16)))
 (let ((?x24 (* (- 512) swz.h~11)))
 (let ((?x1 (* 16 |src:repeat1|)))
 (let ((?x2 (* 1024 |src:repeat0|)))
 (let ((?x3 (* 512 |src.S.ib.ia.j#1~9|)))
 (let ((?x4 (* 8 |src.S.ib.ia.j#0~8|)))
 (let ((?x5 (* 2 |src.S.g.q#1~7|)))
 (let ((?x6 (* 64 |src.S.g.q#0~6|)))
 (let ((?x25 (+ ?x6 ?x5 ?x4 ?x3 |src.S.ib.ia.j#2~10| ?x2 ?x1 ?x24 (* (- 1) swz.r~12) ?x23 ?x22 ?x21 ?x20 ?x19 ?x18)))
 (= ?x25 0))))))))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~19) swz.z0~13) 0))
(assert
 (>= (+ (* (- 1) swz.t0~19) swz.y0~16) 0))
(assert
 (>= (+ 1 swz.t0~19 (* (- 1) swz.y0~16) (* (- 1) swz.z0~13)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~20) swz.z1~14) 0))
(assert
 (>= (+ (* (- 1) swz.t1~20) swz.y1~17) 0))
(assert
 (>= (+ 1 swz.t1~20 (* (- 1) swz.y1~17) (* (- 1) swz.z1~14)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~21) swz.z2~15) 0))
(assert
 (>= (+ (* (- 1) swz.t2~21) swz.y2~18) 0))
(assert
 (>= (+ 1 swz.t2~21 (* (- 1) swz.y2~18) (* (- 1) swz.z2~15)) 0))
(check-sat)
