; tilecheck obligation query: file examples/staging_bf16_x4_trans.toml, apply[1], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~31 () Int)
(declare-fun swz.y2~17 () Int)
(declare-fun swz.y1~30 () Int)
(declare-fun swz.y1~16 () Int)
(declare-fun swz.y0~29 () Int)
(declare-fun swz.y0~15 () Int)
(declare-fun swz.t2~34 () Int)
(declare-fun swz.t2~20 () Int)
(declare-fun swz.t1~33 () Int)
(declare-fun swz.t1~19 () Int)
(declare-fun swz.t0~32 () Int)
(declare-fun swz.t0~18 () Int)
(declare-fun ldsm.t~3 () Int)
(declare-fun ldsm.tr~4 () Int)
(declare-fun |a.S.nb.kb.j#2~9| () Int)
(declare-fun |a.S.nb.kb.j#2~23| () Int)
(declare-fun |a.S.nb.kb.j#1~8| () Int)
(declare-fun |a.S.nb.kb.j#1~22| () Int)
(declare-fun |a.S.nb.kb.j#0~7| () Int)
(declare-fun |a.S.nb.kb.j#0~21| () Int)
(declare-fun |a.S.g.q#1~6| () Int)
(declare-fun |a.S.g.q#0~5| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:word| () Int)
(declare-fun ldsm.k~1 () Int)
(declare-fun ldsm.kr~2 () Int)
(declare-fun swz.h~10 () Int)
(declare-fun swz.r~11 () Int)
(declare-fun swz.z0~12 () Int)
(declare-fun swz.z1~13 () Int)
(declare-fun swz.z2~14 () Int)
(declare-fun swz.h~24 () Int)
(declare-fun swz.r~25 () Int)
(declare-fun swz.z0~26 () Int)
(declare-fun swz.z1~27 () Int)
(declare-fun swz.z2~28 () Int)
(assert
 (let ((?x1 (* (- 1) ldsm.t~3)))
 (let ((?x2 (* (- 128) ldsm.tr~4)))
 (let ((?x3 (* 64 |a.S.nb.kb.j#2~9|)))
 (let ((?x4 (* (- 64) |a.S.nb.kb.j#2~23|)))
 (let ((?x5 (* 512 |a.S.nb.kb.j#1~8|)))
 (let ((?x6 (* (- 512) |a.S.nb.kb.j#1~22|)))
 (let ((?x7 (* 8 |a.S.nb.kb.j#0~7|)))
 (let ((?x8 (* (- 8) |a.S.nb.kb.j#0~21|)))
 (let ((?x9 (* 128 |a.S.g.q#1~6|)))
 (let ((?x10 (+ |a.S.g.q#0~5| ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1 (* (- 16) swz.t0~18) (* 16 swz.t0~32) (* (- 32) swz.t1~19) (* 32 swz.t1~33) (* (- 64) swz.t2~20) (* 64 swz.t2~34) (* 8 swz.y0~15) (* (- 8) swz.y0~29) (* 16 swz.y1~16) (* (- 16) swz.y1~30) (* 32 swz.y2~17) (* (- 32) swz.y2~31))))
 (let (($x11 (= ?x10 0)))
 (let ((?x12 (* 128 ldsm.tr~4)))
 (let ((?x13 (* 16 |a:repeat1|)))
 (let ((?x14 (* 1024 |a:repeat0|)))
 (let ((?x15 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x16 (* 512 |a.S.nb.kb.j#1~22|)))
 (let ((?x17 (* 8 |a.S.nb.kb.j#0~21|)))
 (let (($x18 (= (+ |a.S.g.q#0~5| ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 0)))
 (let (($x19 (=> (and $x18 (= (mod (+ ?x17 ?x16 ?x15 ?x14 ?x13 ?x12) 8) 0)) $x11)))
 (and (and (distinct ?x10 0) true) $x19)))))))))))))))))))))
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
 (>= |a.S.nb.kb.j#0~21| 0))
(assert
 (<= |a.S.nb.kb.j#0~21| 1))
(assert
 (>= |a.S.nb.kb.j#1~22| 0))
(assert
 (<= |a.S.nb.kb.j#1~22| 1))
(assert
 (>= |a.S.nb.kb.j#2~23| 0))
(assert
 (<= |a.S.nb.kb.j#2~23| 1))
(assert
 (>= swz.h~24 0))
(assert
 (<= swz.h~24 3))
(assert
 (>= swz.r~25 0))
(assert
 (<= swz.r~25 7))
(assert
 (>= swz.z0~26 0))
(assert
 (<= swz.z0~26 1))
(assert
 (>= swz.z1~27 0))
(assert
 (<= swz.z1~27 1))
(assert
 (>= swz.z2~28 0))
(assert
 (<= swz.z2~28 1))
(assert
 (>= swz.y0~29 0))
(assert
 (<= swz.y0~29 1))
(assert
 (>= swz.y1~30 0))
(assert
 (<= swz.y1~30 1))
(assert
 (>= swz.y2~31 0))
(assert
 (<= swz.y2~31 1))
(assert
 (>= swz.t0~32 0))
(assert
 (<= swz.t0~32 1))
(assert
 (>= swz.t1~33 0))
(assert
 (<= swz.t1~33 1))
(assert
 (>= swz.t2~34 0))
(assert
 (<= swz.t2~34 1))
(assert
 (= (+ |a:word| (* (- 1) ldsm.kr~2) (* (- 2) ldsm.k~1)) 0))
(assert
 (= (+ |a:lane| (* (- 1) ldsm.tr~4) (* (- 4) ldsm.t~3)) 0))
(assert
 (= (+ (* (- 4) |a.S.g.q#0~5|) (* (- 1) |a.S.g.q#1~6|) |a:lane|) 0))
(assert
 (let ((?x20 (* (- 2) |a.S.nb.kb.j#1~8|)))
 (let ((?x21 (* (- 4) |a.S.nb.kb.j#0~7|)))
 (= (+ ?x21 ?x20 (* (- 1) |a.S.nb.kb.j#2~9|) |a:word|) 0))))
(assert
 (let ((?x22 (* (- 32) swz.z2~14)))
 (let ((?x23 (* (- 16) swz.z1~13)))
 (let ((?x24 (* (- 8) swz.z0~12)))
 (let ((?x25 (* (- 256) swz.y2~17)))
 (let ((?x26 (* (- 128) swz.y1~16)))
 (let ((?x27 (* (- 64) swz.y0~15)))
 (let ((?x28 (* (- 512) swz.h~10)))
 (let ((?x13 (* 16 |a:repeat1|)))
 (let ((?x14 (* 1024 |a:repeat0|)))
 (let ((?x3 (* 64 |a.S.nb.kb.j#2~9|)))
 (let ((?x5 (* 512 |a.S.nb.kb.j#1~8|)))
 (let ((?x7 (* 8 |a.S.nb.kb.j#0~7|)))
 (let ((?x9 (* 128 |a.S.g.q#1~6|)))
 (let ((?x29 (+ |a.S.g.q#0~5| ?x9 ?x7 ?x5 ?x3 ?x14 ?x13 ?x28 (* (- 1) swz.r~11) ?x27 ?x26 ?x25 ?x24 ?x23 ?x22)))
 (= ?x29 0))))))))))))))))
(assert
 (let ((?x30 (* 2 ldsm.k~1)))
 (let ((?x31 (* (- 1) |a.S.nb.kb.j#2~23|)))
 (let ((?x32 (* (- 2) |a.S.nb.kb.j#1~22|)))
 (let ((?x33 (* (- 4) |a.S.nb.kb.j#0~21|)))
 (= (+ ?x33 ?x32 ?x31 ldsm.kr~2 ?x30) 0))))))
(assert
 (let ((?x34 (* (- 32) swz.z2~28)))
 (let ((?x35 (* (- 16) swz.z1~27)))
 (let ((?x36 (* (- 8) swz.z0~26)))
 (let ((?x37 (* (- 256) swz.y2~31)))
 (let ((?x38 (* (- 128) swz.y1~30)))
 (let ((?x39 (* (- 64) swz.y0~29)))
 (let ((?x40 (* (- 512) swz.h~24)))
 (let ((?x12 (* 128 ldsm.tr~4)))
 (let ((?x13 (* 16 |a:repeat1|)))
 (let ((?x14 (* 1024 |a:repeat0|)))
 (let ((?x15 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x16 (* 512 |a.S.nb.kb.j#1~22|)))
 (let ((?x17 (* 8 |a.S.nb.kb.j#0~21|)))
 (let ((?x41 (+ ?x17 ?x16 ?x15 ?x14 ?x13 ?x12 ?x40 (* (- 1) swz.r~25) ?x39 ?x38 ?x37 ?x36 ?x35 ?x34)))
 (= ?x41 0))))))))))))))))
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
(assert
 (>= (+ (* (- 1) swz.t0~32) swz.z0~26) 0))
(assert
 (>= (+ (* (- 1) swz.t0~32) swz.y0~29) 0))
(assert
 (>= (+ 1 swz.t0~32 (* (- 1) swz.y0~29) (* (- 1) swz.z0~26)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~33) swz.z1~27) 0))
(assert
 (>= (+ (* (- 1) swz.t1~33) swz.y1~30) 0))
(assert
 (>= (+ 1 swz.t1~33 (* (- 1) swz.y1~30) (* (- 1) swz.z1~27)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~34) swz.z2~28) 0))
(assert
 (>= (+ (* (- 1) swz.t2~34) swz.y2~31) 0))
(assert
 (>= (+ 1 swz.t2~34 (* (- 1) swz.y2~31) (* (- 1) swz.z2~28)) 0))
(check-sat)
