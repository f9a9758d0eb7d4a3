; tilecheck obligation query: file examples/swizzle_chunk_split_refuted.toml, apply[0], obligation contiguity
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun swz.y2~21 () Int)
(declare-fun swz.y2~10 () Int)
(declare-fun swz.y1~9 () Int)
(declare-fun swz.y1~20 () Int)
(declare-fun swz.y0~8 () Int)
(declare-fun swz.y0~19 () Int)
(declare-fun swz.t2~24 () Int)
(declare-fun swz.t2~13 () Int)
(declare-fun swz.t1~23 () Int)
(declare-fun swz.t1~12 () Int)
(declare-fun swz.t0~22 () Int)
(declare-fun swz.t0~11 () Int)
(declare-fun |a:lane| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:word| () Int)
(declare-fun |a.S.q.c#0~1| () Int)
(declare-fun |a.S.q.c#1~2| () Int)
(declare-fun swz.h~3 () Int)
(declare-fun swz.r~4 () Int)
(declare-fun swz.z0~5 () Int)
(declare-fun swz.z1~6 () Int)
(declare-fun swz.z2~7 () Int)
(declare-fun swz.h~14 () Int)
(declare-fun swz.r~15 () Int)
(declare-fun swz.z0~16 () Int)
(declare-fun swz.z1~17 () Int)
(declare-fun swz.z2~18 () Int)
(declare-fun swz.h~25 () Int)
(declare-fun swz.r~26 () Int)
(declare-fun swz.z0~27 () Int)
(declare-fun swz.z1~28 () Int)
(declare-fun swz.z2~29 () Int)
(declare-fun swz.y0~30 () Int)
(declare-fun swz.y1~31 () Int)
(declare-fun swz.y2~32 () Int)
(declare-fun swz.t0~33 () Int)
(declare-fun swz.t1~34 () Int)
(declare-fun swz.t2~35 () Int)
(declare-fun swz.h~36 () Int)
(declare-fun swz.r~37 () Int)
(declare-fun swz.z0~38 () Int)
(declare-fun swz.z1~39 () Int)
(declare-fun swz.z2~40 () Int)
(declare-fun swz.y0~41 () Int)
(declare-fun swz.y1~42 () Int)
(declare-fun swz.y2~43 () Int)
(declare-fun swz.t0~44 () Int)
(declare-fun swz.t1~45 () Int)
(declare-fun swz.t2~46 () Int)
(assert
 (let ((?x1 (* (- 8) swz.y2~21)))
 (let ((?x2 (* 8 swz.y2~10)))
 (let ((?x3 (* 4 swz.y1~9)))
 (let ((?x4 (* (- 4) swz.y1~20)))
 (let ((?x5 (* 2 swz.y0~8)))
 (let ((?x6 (* (- 2) swz.y0~19)))
 (let ((?x7 (* 16 swz.t2~24)))
 (let ((?x8 (* (- 16) swz.t2~13)))
 (let ((?x9 (* 8 swz.t1~23)))
 (let ((?x10 (* (- 8) swz.t1~12)))
 (let ((?x11 (* 4 swz.t0~22)))
 (let ((?x12 (* (- 4) swz.t0~11)))
 (let ((?x13 (+ ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (and (distinct ?x13 0) true)))))))))))))))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |a.S.q.c#0~1| 0))
(assert
 (<= |a.S.q.c#0~1| 3))
(assert
 (>= |a.S.q.c#1~2| 0))
(assert
 (<= |a.S.q.c#1~2| 7))
(assert
 (>= swz.h~3 0))
(assert
 (<= swz.h~3 15))
(assert
 (>= swz.r~4 0))
(assert
 (<= swz.r~4 1))
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
 (>= swz.h~14 0))
(assert
 (<= swz.h~14 15))
(assert
 (>= swz.r~15 0))
(assert
 (<= swz.r~15 1))
(assert
 (>= swz.z0~16 0))
(assert
 (<= swz.z0~16 1))
(assert
 (>= swz.z1~17 0))
(assert
 (<= swz.z1~17 1))
(assert
 (>= swz.z2~18 0))
(assert
 (<= swz.z2~18 1))
(assert
 (>= swz.y0~19 0))
(assert
 (<= swz.y0~19 1))
(assert
 (>= swz.y1~20 0))
(assert
 (<= swz.y1~20 1))
(assert
 (>= swz.y2~21 0))
(assert
 (<= swz.y2~21 1))
(assert
 (>= swz.t0~22 0))
(assert
 (<= swz.t0~22 1))
(assert
 (>= swz.t1~23 0))
(assert
 (<= swz.t1~23 1))
(assert
 (>= swz.t2~24 0))
(assert
 (<= swz.t2~24 1))
(assert
 (>= swz.h~25 0))
(assert
 (<= swz.h~25 0))
(assert
 (>= swz.r~26 0))
(assert
 (<= swz.r~26 1))
(assert
 (>= swz.z0~27 0))
(assert
 (<= swz.z0~27 1))
(assert
 (>= swz.z1~28 0))
(assert
 (<= swz.z1~28 1))
(assert
 (>= swz.z2~29 0))
(assert
 (<= swz.z2~29 1))
(assert
 (>= swz.y0~30 0))
(assert
 (<= swz.y0~30 1))
(assert
 (>= swz.y1~31 0))
(assert
 (<= swz.y1~31 1))
(assert
 (>= swz.y2~32 0))
(assert
 (<= swz.y2~32 1))
(assert
 (>= swz.t0~33 0))
(assert
 (<= swz.t0~33 1))
(assert
 (>= swz.t1~34 0))
(assert
 (<= swz.t1~34 1))
(assert
 (>= swz.t2~35 0))
(assert
 (<= swz.t2~35 1))
(assert
 (>= swz.h~36 0))
(assert
 (<= swz.h~36 0))
(assert
 (>= swz.r~37 0))
(assert
 (<= swz.r~37 1))
(assert
 (>= swz.z0~38 0))
(assert
 (<= swz.z0~38 1))
(assert
 (>= swz.z1~39 0))
(assert
 (<= swz.z1~39 1))
(assert
 (>= swz.z2~40 0))
(assert
 (<= swz.z2~40 1))
(assert
 (>= swz.y0~41 0))
(assert
 (<= swz.y0~41 1))
(assert
 (>= swz.y1~42 0))
(assert
 (<= swz.y1~42 1))
(assert
 (>= swz.y2~43 0))
(assert
 (<= swz.y2~43 1))
(assert
 (>= swz.t0~44 0))
(assert
 (<= swz.t0~44 1))
(assert
 (>= swz.t1~45 0))
(assert
 (<= swz.t1~45 1))
(assert
 (>= swz.t2~46 0))
(assert
 (<= swz.t2~46 1))
(assert
 (= (+ (* (- 8) |a.S.q.c#0~1|) (* (- 1) |a.S.q.c#1~2|) |a:lane|) 0))
(assert
 (let ((?x14 (* (- 8) swz.z2~7)))
 (let ((?x15 (* (- 4) swz.z1~6)))
 (let ((?x16 (* (- 2) swz.z0~5)))
 (let ((?x17 (* (- 64) swz.y2~10)))
 (let ((?x18 (* (- 32) swz.y1~9)))
 (let ((?x19 (* (- 16) swz.y0~8)))
 (let ((?x20 (* (- 1) swz.r~4)))
 (let ((?x21 (* (- 128) swz.h~3)))
 (let ((?x22 (* 128 |a:repeat0|)))
 (let ((?x23 (* 4 |a.S.q.c#1~2|)))
 (let ((?x24 (* 32 |a.S.q.c#0~1|)))
 (= (+ ?x24 ?x23 ?x22 |a:word| ?x21 ?x20 ?x19 ?x18 ?x17 ?x16 ?x15 ?x14) 0)))))))))))))
(assert
 (let ((?x25 (* (- 8) swz.z2~18)))
 (let ((?x26 (* (- 4) swz.z1~17)))
 (let ((?x27 (* (- 2) swz.z0~16)))
 (let ((?x28 (* (- 64) swz.y2~21)))
 (let ((?x29 (* (- 32) swz.y1~20)))
 (let ((?x30 (* (- 16) swz.y0~19)))
 (let ((?x31 (* (- 128) swz.h~14)))
 (let ((?x22 (* 128 |a:repeat0|)))
 (let ((?x23 (* 4 |a.S.q.c#1~2|)))
 (let ((?x24 (* 32 |a.S.q.c#0~1|)))
 (let ((?x32 (+ ?x24 ?x23 ?x22 ?x31 (* (- 1) swz.r~15) ?x30 ?x29 ?x28 ?x27 ?x26 ?x25)))
 (= ?x32 0)))))))))))))
(assert
 (let ((?x33 (* (- 8) swz.z2~29)))
 (let ((?x34 (* (- 4) swz.z1~28)))
 (let ((?x35 (* (- 2) swz.z0~27)))
 (let ((?x36 (* (- 64) swz.y2~32)))
 (let ((?x37 (* (- 32) swz.y1~31)))
 (let ((?x38 (* (- 16) swz.y0~30)))
 (let ((?x39 (* (- 1) swz.r~26)))
 (let ((?x40 (* (- 128) swz.h~25)))
 (let ((?x23 (* 4 |a.S.q.c#1~2|)))
 (let ((?x24 (* 32 |a.S.q.c#0~1|)))
 (= (+ ?x24 ?x23 |a:word| ?x40 ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33) 0))))))))))))
(assert
 (let ((?x41 (* (- 8) swz.z2~40)))
 (let ((?x42 (* (- 4) swz.z1~39)))
 (let ((?x43 (* (- 2) swz.z0~38)))
 (let ((?x44 (* (- 64) swz.y2~43)))
 (let ((?x45 (* (- 32) swz.y1~42)))
 (let ((?x46 (* (- 16) swz.y0~41)))
 (let ((?x23 (* 4 |a.S.q.c#1~2|)))
 (let ((?x24 (* 32 |a.S.q.c#0~1|)))
 (let ((?x47 (+ ?x24 ?x23 (* (- 128) swz.h~36) (* (- 1) swz.r~37) ?x46 ?x45 ?x44 ?x43 ?x42 ?x41)))
 (= ?x47 0)))))))))))
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
(assert
 (>= (+ (* (- 1) swz.t0~22) swz.z0~16) 0))
(assert
 (>= (+ (* (- 1) swz.t0~22) swz.y0~19) 0))
(assert
 (>= (+ 1 swz.t0~22 (* (- 1) swz.y0~19) (* (- 1) swz.z0~16)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~23) swz.z1~17) 0))
(assert
 (>= (+ (* (- 1) swz.t1~23) swz.y1~20) 0))
(assert
 (>= (+ 1 swz.t1~23 (* (- 1) swz.y1~20) (* (- 1) swz.z1~17)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~24) swz.z2~18) 0))
(assert
 (>= (+ (* (- 1) swz.t2~24) swz.y2~21) 0))
(assert
 (>= (+ 1 swz.t2~24 (* (- 1) swz.y2~21) (* (- 1) swz.z2~18)) 0))
(assert
 (>= (+ (* (- 1) swz.t0~33) swz.z0~27) 0))
(assert
 (>= (+ (* (- 1) swz.t0~33) swz.y0~30) 0))
(assert
 (>= (+ 1 swz.t0~33 (* (- 1) swz.y0~30) (* (- 1) swz.z0~27)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~34) swz.z1~28) 0))
(assert
 (>= (+ (* (- 1) swz.t1~34) swz.y1~31) 0))
(assert
 (>= (+ 1 swz.t1~34 (* (- 1) swz.y1~31) (* (- 1) swz.z1~28)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~35) swz.z2~29) 0))
(assert
 (>= (+ (* (- 1) swz.t2~35) swz.y2~32) 0))
(assert
 (>= (+ 1 swz.t2~35 (* (- 1) swz.y2~32) (* (- 1) swz.z2~29)) 0))
(assert
 (>= (+ (* (- 1) swz.t0~44) swz.z0~38) 0))
(assert
 (>= (+ (* (- 1) swz.t0~44) swz.y0~41) 0))
(assert
 (>= (+ 1 swz.t0~44 (* (- 1) swz.y0~41) (* (- 1) swz.z0~38)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~45) swz.z1~39) 0))
(assert
 (>= (+ (* (- 1) swz.t1~45) swz.y1~42) 0))
(assert
 (>= (+ 1 swz.t1~45 (* (- 1) swz.y1~42) (* (- 1) swz.z1~39)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~46) swz.z2~40) 0))
(assert
 (>= (+ (* (- 1) swz.t2~46) swz.y2~43) 0))
(assert
 (>= (+ 1 swz.t2~46 (* (- 1) swz.y2~43) (* (- 1) swz.z2~40)) 0))
(assert
 (= 0 |a.S.q.c#0~1|))
(assert
 (= 4 |a.S.q.c#1~2|))
(assert
 (= 4 |a:lane|))
(assert
 (= 0 |a:repeat0|))
(assert
 (= 2 |a:word|))
(assert
 (= 0 swz.h~14))
(assert
 (= 0 swz.h~25))
(assert
 (= 0 swz.h~3))
(assert
 (= 0 swz.h~36))
(assert
 (= 0 swz.r~15))
(assert
 (= 0 swz.r~26))
(assert
 (= 0 swz.r~37))
(assert
 (= 0 swz.r~4))
(assert
 (= 1 swz.t0~11))
(assert
 (= 0 swz.t0~22))
(assert
 (= 1 swz.t0~33))
(assert
 (= 0 swz.t0~44))
(assert
 (= 0 swz.t1~12))
(assert
 (= 0 swz.t1~23))
(assert
 (= 0 swz.t1~34))
(assert
 (= 0 swz.t1~45))
(assert
 (= 0 swz.t2~13))
(assert
 (= 0 swz.t2~24))
(assert
 (= 0 swz.t2~35))
(assert
 (= 0 swz.t2~46))
(assert
 (= 1 swz.y0~19))
(assert
 (= 1 swz.y0~30))
(assert
 (= 1 swz.y0~41))
(assert
 (= 1 swz.y0~8))
(assert
 (= 0 swz.y1~20))
(assert
 (= 0 swz.y1~31))
(assert
 (= 0 swz.y1~42))
(assert
 (= 0 swz.y1~9))
(assert
 (= 0 swz.y2~10))
(assert
 (= 0 swz.y2~21))
(assert
 (= 0 swz.y2~32))
(assert
 (= 0 swz.y2~43))
(assert
 (= 0 swz.z0~16))
(assert
 (= 1 swz.z0~27))
(assert
 (= 0 swz.z0~38))
(assert
 (= 1 swz.z0~5))
(assert
 (= 0 swz.z1~17))
(assert
 (= 0 swz.z1~28))
(assert
 (= 0 swz.z1~39))
(assert
 (= 0 swz.z1~6))
(assert
 (= 0 swz.z2~18))
(assert
 (= 0 swz.z2~29))
(assert
 (= 0 swz.z2~40))
(assert
 (= 0 swz.z2~7))
(check-sat)
