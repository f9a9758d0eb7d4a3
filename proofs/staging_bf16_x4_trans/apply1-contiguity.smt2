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
 (let ((?x14 (* (- 248) |a.S.nb.kb.j#0~7|)))
 (let ((?x15 (* 511 ldsm.t~3)))
 (let ((?x16 (* (- 511) |a.S.g.q#0~5|)))
 (let ((?x17 (+ ?x16 ?x15 (* 248 |a.S.nb.kb.j#0~21|) ?x14 (* (- 384) |a.S.nb.kb.j#1~22|) ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (not (= ?x17 0))))))))))))))))))))
(assert
 (let ((?x18 (* 4 ldsm.t~3)))
 (let ((?x19 (+ ldsm.tr~4 ?x18)))
 (>= ?x19 0))))
(assert
 (let ((?x18 (* 4 ldsm.t~3)))
 (let ((?x19 (+ ldsm.tr~4 ?x18)))
 (<= ?x19 31))))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 1))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 3))
(assert
 (let ((?x20 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x21 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x22 (+ ?x21 ?x20 |a.S.nb.kb.j#2~23|)))
 (>= ?x22 0)))))
(assert
 (let ((?x20 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x21 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x22 (+ ?x21 ?x20 |a.S.nb.kb.j#2~23|)))
 (<= ?x22 7)))))
(assert
 (>= ldsm.k~1 0))
(assert
 (<= ldsm.k~1 3))
(assert
 (let ((?x23 (* (- 2) ldsm.k~1)))
 (let ((?x20 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x21 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x24 (+ ?x21 ?x20 |a.S.nb.kb.j#2~23| ?x23)))
 (>= ?x24 0))))))
(assert
 (let ((?x23 (* (- 2) ldsm.k~1)))
 (let ((?x20 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x21 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x24 (+ ?x21 ?x20 |a.S.nb.kb.j#2~23| ?x23)))
 (<= ?x24 1))))))
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
 (let ((?x18 (* 4 ldsm.t~3)))
 (let ((?x25 (* (- 4) |a.S.g.q#0~5|)))
 (let ((?x26 (+ ?x25 ldsm.tr~4 ?x18)))
 (>= ?x26 0)))))
(assert
 (let ((?x18 (* 4 ldsm.t~3)))
 (let ((?x25 (* (- 4) |a.S.g.q#0~5|)))
 (let ((?x26 (+ ?x25 ldsm.tr~4 ?x18)))
 (<= ?x26 3)))))
(assert
 (>= |a.S.nb.kb.j#0~7| 0))
(assert
 (<= |a.S.nb.kb.j#0~7| 1))
(assert
 (>= |a.S.nb.kb.j#1~8| 0))
(assert
 (<= |a.S.nb.kb.j#1~8| 1))
(assert
 (let ((?x20 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x21 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x27 (* (- 2) |a.S.nb.kb.j#1~8|)))
 (let ((?x28 (* (- 4) |a.S.nb.kb.j#0~7|)))
 (let ((?x29 (+ ?x28 ?x27 ?x21 ?x20 |a.S.nb.kb.j#2~23|)))
 (>= ?x29 0)))))))
(assert
 (let ((?x20 (* 2 |a.S.nb.kb.j#1~22|)))
 (let ((?x21 (* 4 |a.S.nb.kb.j#0~21|)))
 (let ((?x27 (* (- 2) |a.S.nb.kb.j#1~8|)))
 (let ((?x28 (* (- 4) |a.S.nb.kb.j#0~7|)))
 (let ((?x29 (+ ?x28 ?x27 ?x21 ?x20 |a.S.nb.kb.j#2~23|)))
 (<= ?x29 1)))))))
(assert
 (>= swz.h~10 0))
(assert
 (<= swz.h~10 3))
(assert
 (let ((?x30 (* (- 32) swz.z2~14)))
 (let ((?x31 (* (- 16) swz.z1~13)))
 (let ((?x32 (* (- 8) swz.z0~12)))
 (let ((?x33 (* (- 256) swz.y2~17)))
 (let ((?x34 (* (- 128) swz.y1~16)))
 (let ((?x35 (* (- 64) swz.y0~15)))
 (let ((?x36 (* (- 512) swz.h~10)))
 (let ((?x37 (* 16 |a:repeat1|)))
 (let ((?x38 (* 1024 |a:repeat0|)))
 (let ((?x39 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x40 (* 128 |a.S.nb.kb.j#1~22|)))
 (let ((?x41 (* 256 |a.S.nb.kb.j#0~21|)))
 (let ((?x13 (* 384 |a.S.nb.kb.j#1~8|)))
 (let ((?x14 (* (- 248) |a.S.nb.kb.j#0~7|)))
 (let ((?x42 (* 512 ldsm.t~3)))
 (let ((?x43 (* 128 ldsm.tr~4)))
 (let ((?x16 (* (- 511) |a.S.g.q#0~5|)))
 (let ((?x44 (+ ?x16 ?x43 ?x42 ?x14 ?x13 ?x41 ?x40 ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33 ?x32 ?x31 ?x30)))
 (>= ?x44 0))))))))))))))))))))
(assert
 (let ((?x30 (* (- 32) swz.z2~14)))
 (let ((?x31 (* (- 16) swz.z1~13)))
 (let ((?x32 (* (- 8) swz.z0~12)))
 (let ((?x33 (* (- 256) swz.y2~17)))
 (let ((?x34 (* (- 128) swz.y1~16)))
 (let ((?x35 (* (- 64) swz.y0~15)))
 (let ((?x36 (* (- 512) swz.h~10)))
 (let ((?x37 (* 16 |a:repeat1|)))
 (let ((?x38 (* 1024 |a:repeat0|)))
 (let ((?x39 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x40 (* 128 |a.S.nb.kb.j#1~22|)))
 (let ((?x41 (* 256 |a.S.nb.kb.j#0~21|)))
 (let ((?x13 (* 384 |a.S.nb.kb.j#1~8|)))
 (let ((?x14 (* (- 248) |a.S.nb.kb.j#0~7|)))
 (let ((?x42 (* 512 ldsm.t~3)))
 (let ((?x43 (* 128 ldsm.tr~4)))
 (let ((?x16 (* (- 511) |a.S.g.q#0~5|)))
 (let ((?x44 (+ ?x16 ?x43 ?x42 ?x14 ?x13 ?x41 ?x40 ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33 ?x32 ?x31 ?x30)))
 (<= ?x44 7))))))))))))))))))))
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
 (let ((?x45 (* (- 32) swz.z2~28)))
 (let ((?x46 (* (- 16) swz.z1~27)))
 (let ((?x47 (* (- 8) swz.z0~26)))
 (let ((?x48 (* (- 256) swz.y2~31)))
 (let ((?x49 (* (- 128) swz.y1~30)))
 (let ((?x50 (* (- 64) swz.y0~29)))
 (let ((?x51 (* (- 512) swz.h~24)))
 (let ((?x43 (* 128 ldsm.tr~4)))
 (let ((?x37 (* 16 |a:repeat1|)))
 (let ((?x38 (* 1024 |a:repeat0|)))
 (let ((?x39 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x52 (* 512 |a.S.nb.kb.j#1~22|)))
 (let ((?x53 (* 8 |a.S.nb.kb.j#0~21|)))
 (let ((?x54 (+ ?x53 ?x52 ?x39 ?x38 ?x37 ?x43 ?x51 ?x50 ?x49 ?x48 ?x47 ?x46 ?x45)))
 (>= ?x54 0))))))))))))))))
(assert
 (let ((?x45 (* (- 32) swz.z2~28)))
 (let ((?x46 (* (- 16) swz.z1~27)))
 (let ((?x47 (* (- 8) swz.z0~26)))
 (let ((?x48 (* (- 256) swz.y2~31)))
 (let ((?x49 (* (- 128) swz.y1~30)))
 (let ((?x50 (* (- 64) swz.y0~29)))
 (let ((?x51 (* (- 512) swz.h~24)))
 (let ((?x43 (* 128 ldsm.tr~4)))
 (let ((?x37 (* 16 |a:repeat1|)))
 (let ((?x38 (* 1024 |a:repeat0|)))
 (let ((?x39 (* 64 |a.S.nb.kb.j#2~23|)))
 (let ((?x52 (* 512 |a.S.nb.kb.j#1~22|)))
 (let ((?x53 (* 8 |a.S.nb.kb.j#0~21|)))
 (let ((?x54 (+ ?x53 ?x52 ?x39 ?x38 ?x37 ?x43 ?x51 ?x50 ?x49 ?x48 ?x47 ?x46 ?x45)))
 (<= ?x54 7))))))))))))))))
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
