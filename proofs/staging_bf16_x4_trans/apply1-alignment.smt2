; tilecheck obligation query: file examples/staging_bf16_x4_trans.toml, apply[1], obligation alignment
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun ldsm.t~3 () Int)
(declare-fun |a.S.g.q#0~5| () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a:word| () Int)
(declare-fun ldsm.k~1 () Int)
(declare-fun ldsm.kr~2 () Int)
(declare-fun ldsm.tr~4 () Int)
(declare-fun |a.S.g.q#1~6| () Int)
(declare-fun |a.S.nb.kb.j#0~7| () Int)
(declare-fun |a.S.nb.kb.j#1~8| () Int)
(declare-fun |a.S.nb.kb.j#2~9| () Int)
(declare-fun swz.h~10 () Int)
(declare-fun swz.r~11 () Int)
(declare-fun swz.z0~12 () Int)
(declare-fun swz.z1~13 () Int)
(declare-fun swz.z2~14 () Int)
(declare-fun swz.y0~15 () Int)
(declare-fun swz.y1~16 () Int)
(declare-fun swz.y2~17 () Int)
(declare-fun swz.t0~18 () Int)
(declare-fun swz.t1~19 () Int)
(declare-fun swz.t2~20 () Int)
(assert
 (and (distinct (mod (+ (* 2 |a.S.g.q#0~5|) (* 14 ldsm.t~3)) 16) 0) true))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 1))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 3))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= ldsm.k~1 0))
(assert
 (<= ldsm.k~1 3))
(assert
 (>= ldsm.kr~2 0))
(assert
 (<= ldsm.kr~2 1))
(assert
 (>= ldsm.t~3 0))
(assert
 (<= ldsm.t~3 7))
(assert
 (>= ldsm.tr~4 0))
(assert
 (<= ldsm.tr~4 3))
(assert
 (>= |a.S.g.q#0~5| 0))
(assert
 (<= |a.S.g.q#0~5| 7))
(assert
 (>= |a.S.g.q#1~6| 0))
(assert
 (<= |a.S.g.q#1~6| 3))
(assert
 (>= |a.S.nb.kb.j#0~7| 0))
(assert
 (<= |a.S.nb.kb.j#0~7| 1))
(assert
 (>= |a.S.nb.kb.j#1~8| 0))
(assert
 (<= |a.S.nb.kb.j#1~8| 1))
(assert
 (>= |a.S.nb.kb.j#2~9| 0))
(assert
 (<= |a.S.nb.kb.j#2~9| 1))
(assert
 (>= swz.h~10 0))
(assert
 (<= swz.h~10 3))
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
 (= (+ |a:word| (* (- 1) ldsm.kr~2) (* (- 2) ldsm.k~1)) 0))
(assert
 (= (+ |a:lane| (* (- 1) ldsm.tr~4) (* (- 4) ldsm.t~3)) 0))
(assert
 (= (+ (* (- 4) |a.S.g.q#0~5|) (* (- 1) |a.S.g.q#1~6|) |a:lane|) 0))
(assert
 (let ((?x1 (* (- 2) |a.S.nb.kb.j#1~8|)))
 (let ((?x2 (* (- 4) |a.S.nb.kb.j#0~7|)))
 (= (+ ?x2 ?x1 (* (- 1) |a.S.nb.kb.j#2~9|) |a:word|) 0))))
(assert
 (let ((?x3 (* (- 32) swz.z2~14)))
 (let ((?x4 (* (- 16) swz.z1~13)))
 (let ((?x5 (* (- 8) swz.z0~12)))
 (let ((?x6 (* (- 256) swz.y2~17)))
 (let ((?x7 (* (- 128) swz.y1~16)))
 (let ((?x8 (* (- 64) swz.y0~15)))
 (let ((?x9 (* (- 512) swz.h~10)))
 (let ((?x10 (* 16 |a:repeat1|)))
 (let ((?x11 (* 1024 |a:repeat0|)))
 (let ((?x12 (* 512 |a.S.nb.kb.j#1~8|)))
 (let ((?x13 (* 8 |a.S.nb.kb.j#0~7|)))
 (let ((?x14 (+ |a.S.g.q#0~5| (* 128 |a.S.g.q#1~6|) ?x13 ?x12 (* 64 |a.S.nb.kb.j#2~9|) ?x11 ?x10 ?x9 (* (- 1) swz.r~11) ?x8 ?x7 ?x6 ?x5 ?x4 ?x3)))
 (= ?x14 0))))))))))))))
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
