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
(declare-fun |a.S.nb.kb.j#1~8| () Int)
(declare-fun |a.S.nb.kb.j#1~22| () Int)
(declare-fun |a.S.nb.kb.j#0~7| () Int)
(declare-fun |a.S.nb.kb.j#0~21| () Int)
(declare-fun ldsm.t~3 () Int)
(declare-fun |a.S.g.q#0~5| () Int)
(declare-fun ldsm.tr~4 () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun |a.S.nb.kb.j#2~23| () Int)
(declare-fun ldsm.k~1 () Int)
(declare-fun swz.h~10 () Int)
(declare-fun swz.z2~14 () Int)
(declare-fun swz.z1~13 () Int)
(declare-fun swz.z0~12 () Int)
(declare-fun swz.h~24 () Int)
(declare-fun swz.z2~28 () Int)
(declare-fun swz.z1~27 () Int)
(declare-fun swz.z0~26 () Int)
(assert
 (let ((?x1 (* (- 32) swz.y2~31)))
 (let ((?x2 (* 32 swz.y2~17)))
 (let ((?x3 (* (- 16) swz.y1~30)))
 (let ((?x4 (* 16 swz.y1~16)))
 (let ((?x5 (* (- 8) swz.y0~29)))
 (let ((?x6 (* 8 swz.y0~15)))
 (let ((?x7 (* 64 swz.t2~34)))
 (let ((?x8 (* (- 64) swz.t2~20)))
 (let ((?x9 (* 32 swz.t1~33)))
 (let ((?x10 (* (- 32) swz.t1~19)))
 (let ((?x11 (* 16 swz.t0~32)))
 (let ((?x12 (* (- 16) swz.t0~18)))
 (let ((?x13 (* 384 |a.S.nb.kb.j#1~8|)))
 (let ((?x14 (* (- 384) |a.S.nb.kb.j#1~22|)))
 (let ((?x15 (* (- 248) |a.S.nb.kb.j#0~7|)))
 (let ((?x16 (* 248 |a.S.nb.kb.j#0~21|)))
 (let ((?x17 (* 511 ldsm.t~3)))
 (let ((?x18 (* (- 511) |a.S.g.q#0~5|)))
 (let ((?x19 (+ ?x18 ?x17 ?x16 ?x15 ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (not (= ?x19 0))))))))))))))))))))))
(assert
 (let ((?x20 (* 4 ldsm.t~3)))
 (let ((?x21 (+ ldsm.tr~4 ?x20)))
 (>= ?x21 0))))
(assert
 (let ((?x20 (* 4 ldsm.t~3)))
 (let ((?x21 (+ ldsm.tr~4 ?x20)))
 (<= ?x21 31))))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 1))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 3))
(assert
 (let ((?x22 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x23 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x24 (+ ?x23 ?x22 |a.S.nb.kb.j#2~23|)))
 (>= ?x24 0)))))
(assert
 (let ((?x22 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x23 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x24 (+ ?x23 ?x22 |a.S.nb.kb.j#2~23|)))
 (<= ?x24 7)))))
(assert
 (>= ldsm.k~1 0))
(assert
 (<= ldsm.k~1 3))
(assert
 (let ((?x25 (* (- 2) ldsm.k~1)))
 (let ((?x22 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x23 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x26 (+ ?x23 ?x22 |a.S.nb.kb.j#2~23| ?x25)))
 (>= ?x26 0))))))
(assert
 (let ((?x25 (* (- 2) ldsm.k~1)))
 (let ((?x22 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x23 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x26 (+ ?x23 ?x22 |a.S.nb.kb.j#2~23| ?x25)))
 (<= ?x26 1))))))
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
 (let ((?x20 (* 4 ldsm.t~3)))
 (let ((?x27 (* (- 4) |a.S.g.q#0~5|)))
 (let ((?x28 (+ ?x27 ldsm.tr~4 ?x20)))
 (>= ?x28 0)))))
(assert
 (let ((?x20 (* 4 ldsm.t~3)))
 (let ((?x27 (* (- 4) |a.S.g.q#0~5|)))
 (let ((?x28 (+ ?x27 ldsm.tr~4 ?x20)))
 (<= ?x28 3)))))
(assert
 (>= |a.S.nb.kb.j#0~7| 0))
(assert
 (<= |a.S.nb.kb.j#0~7| 1))
(assert
 (>= |a.S.nb.kb.j#1~8| 0))
(assert
 (<= |a.S.nb.kb.j#1~8| 1))
(assert
 (let ((?x22 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x23 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x29 (* (- 2) |a.S.nb.kb.j#1~8|)))
 (let ((?x30 (* (- 4) |a.S.nb.kb.j#0~7|)))
 (let ((?x31 (+ ?x30 ?x29 ?x23 ?x22 |a.S.nb.kb.j#2~23|)))
 (>= ?x31 0)))))))
(assert
 (let ((?x22 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x23 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x29 (* (- 2) |a.S.nb.kb.j#1~8|)))
 (let ((?x30 (* (- 4) |a.S.nb.kb.j#0~7|)))
 (let ((?x31 (+ ?x30 ?x29 ?x23 ?x22 |a.S.nb.kb.j#2~23|)))
 (<= ?x31 1)))))))
(assert
 (>= swz.h~10 0))
(assert
 (<= swz.h~10 3))
(assert
 (let ((?x32 (* (- 32) swz.z2~14)))
 (let ((?x33 (* (- 16) swz.z1~13)))
 (let ((?x34 (* (- 8) swz.z0~12)))
 (let ((?x35 (* (- 256) swz.y2~17)))
 (let ((?x36 (* (- 128) swz.y1~16)))
 (let ((?x37 (* (- 64) swz.y0~15)))
 (let ((?x38 (* (- 512) swz.h~10)))
 (let ((?x39 (* 16 |a:repeat1|)))
 (let ((?x40 (* 1024 |a:repeat0|)))
 (let ((?x41 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x42 (* 128 |a.S.nb.kb.j#1~22|)))
 (let ((?x43 (* 256 |a.S.nb.kb.j#0~21|)))
 (let ((?x13 (* 384 |a.S.nb.kb.j#1~8|)))
 (let ((?x15 (* (- 248) |a.S.nb.kb.j#0~7|)))
 (let ((?x44 (* 512 ldsm.t~3)))
 (let ((?x45 (* 128 ldsm.tr~4)))
 (let ((?x18 (* (- 511) |a.S.g.q#0~5|)))
 (let ((?x46 (+ ?x18 ?x45 ?x44 ?x15 ?x13 ?x43 ?x42 ?x41 ?x40 ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33 ?x32)))
 (>= ?x46 0))))))))))))))))))))
(assert
 (let ((?x32 (* (- 32) swz.z2~14)))
 (let ((?x33 (* (- 16) swz.z1~13)))
 (let ((?x34 (* (- 8) swz.z0~12)))
 (let ((?x35 (* (- 256) swz.y2~17)))
 (let ((?x36 (* (- 128) swz.y1~16)))
 (let ((?x37 (* (- 64) swz.y0~15)))
 (let ((?x38 (* (- 512) swz.h~10)))
 (let ((?x39 (* 16 |a:repeat1|)))
 (let ((?x40 (* 1024 |a:repeat0|)))
 (let ((?x41 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x42 (* 128 |a.S.nb.kb.j#1~22|)))
 (let ((?x43 (* 256 |a.S.nb.kb.j#0~21|)))
 (let ((?x13 (* 384 |a.S.nb.kb.j#1~8|)))
 (let ((?x15 (* (- 248) |a.S.nb.kb.j#0~7|)))
 (let ((?x44 (* 512 ldsm.t~3)))
 (let ((?x45 (* 128 ldsm.tr~4)))
 (let ((?x18 (* (- 511) |a.S.g.q#0~5|)))
 (let ((?x46 (+ ?x18 ?x45 ?x44 ?x15 ?x13 ?x43 ?x42 ?x41 ?x40 ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33 ?x32)))
 (<= ?x46 7))))))))))))))))))))
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
 (let ((?x47 (* (- 32) swz.z2~28)))
 (let ((?x48 (* (- 16) swz.z1~27)))
 (let ((?x49 (* (- 8) swz.z0~26)))
 (let ((?x50 (* (- 256) swz.y2~31)))
 (let ((?x51 (* (- 128) swz.y1~30)))
 (let ((?x52 (* (- 64) swz.y0~29)))
 (let ((?x53 (* (- 512) swz.h~24)))
 (let ((?x45 (* 128 ldsm.tr~4)))
 (let ((?x39 (* 16 |a:repeat1|)))
 (let ((?x40 (* 1024 |a:repeat0|)))
 (let ((?x41 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x54 (* 512 |a.S.nb.kb.j#1~22|)))
 (let ((?x55 (* 8 |a.S.nb.kb.j#0~21|)))
 (let ((?x56 (+ ?x55 ?x54 ?x41 ?x40 ?x39 ?x45 ?x53 ?x52 ?x51 ?x50 ?x49 ?x48 ?x47)))
 (>= ?x56 0))))))))))))))))
(assert
 (let ((?x47 (* (- 32) swz.z2~28)))
 (let ((?x48 (* (- 16) swz.z1~27)))
 (let ((?x49 (* (- 8) swz.z0~26)))
 (let ((?x50 (* (- 256) swz.y2~31)))
 (let ((?x51 (* (- 128) swz.y1~30)))
 (let ((?x52 (* (- 64) swz.y0~29)))
 (let ((?x53 (* (- 512) swz.h~24)))
 (let ((?x45 (* 128 ldsm.tr~4)))
 (let ((?x39 (* 16 |a:repeat1|)))
 (let ((?x40 (* 1024 |a:repeat0|)))
 (let ((?x41 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x54 (* 512 |a.S.nb.kb.j#1~22|)))
 (let ((?x55 (* 8 |a.S.nb.kb.j#0~21|)))
 (let ((?x56 (+ ?x55 ?x54 ?x41 ?x40 ?x39 ?x45 ?x53 ?x52 ?x51 ?x50 ?x49 ?x48 ?x47)))
 (<= ?x56 7))))))))))))))))
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
 (>= (+ (* (- 1) swz.t0~18) swz.z0~12) 0))
(assert
 (>= (+ (* (- 1) swz.t0~18) swz.y0~15) 0))
(assert
 (>= (+ swz.t0~18 (* (- 1) swz.y0~15) (* (- 1) swz.z0~12)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~19) swz.z1~13) 0))
(assert
 (>= (+ (* (- 1) swz.t1~19) swz.y1~16) 0))
(assert
 (>= (+ swz.t1~19 (* (- 1) swz.y1~16) (* (- 1) swz.z1~13)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~20) swz.z2~14) 0))
(assert
 (>= (+ (* (- 1) swz.t2~20) swz.y2~17) 0))
(assert
 (>= (+ swz.t2~20 (* (- 1) swz.y2~17) (* (- 1) swz.z2~14)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t0~32) swz.z0~26) 0))
(assert
 (>= (+ (* (- 1) swz.t0~32) swz.y0~29) 0))
(assert
 (>= (+ swz.t0~32 (* (- 1) swz.y0~29) (* (- 1) swz.z0~26)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~33) swz.z1~27) 0))
(assert
 (>= (+ (* (- 1) swz.t1~33) swz.y1~30) 0))
(assert
 (>= (+ swz.t1~33 (* (- 1) swz.y1~30) (* (- 1) swz.z1~27)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~34) swz.z2~28) 0))
(assert
 (>= (+ (* (- 1) swz.t2~34) swz.y2~31) 0))
(assert
 (>= (+ swz.t2~34 (* (- 1) swz.y2~31) (* (- 1) swz.z2~28)) (- 1)))
(check-sat)
