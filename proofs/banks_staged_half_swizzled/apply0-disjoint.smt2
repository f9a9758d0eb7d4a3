; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~27 () Int)
(declare-fun swz.y1~26 () Int)
(declare-fun swz.y0~25 () Int)
(declare-fun swz.t2~30 () Int)
(declare-fun swz.t1~29 () Int)
(declare-fun swz.t0~28 () Int)
(declare-fun |b:word| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |b.S.q.c#1~19| () Int)
(declare-fun |b.S.q.c#0~18| () Int)
(declare-fun swz.y2~14 () Int)
(declare-fun swz.y1~13 () Int)
(declare-fun swz.y0~12 () Int)
(declare-fun swz.t2~17 () Int)
(declare-fun swz.t1~16 () Int)
(declare-fun swz.t0~15 () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a.S.q.c#1~6| () Int)
(declare-fun |a.S.q.c#0~5| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(declare-fun |a:lane~1| () Int)
(declare-fun |a:laner~2| () Int)
(declare-fun |b:lane~3| () Int)
(declare-fun |b:laner~4| () Int)
(declare-fun swz.h~7 () Int)
(declare-fun swz.r~8 () Int)
(declare-fun swz.z0~9 () Int)
(declare-fun swz.z1~10 () Int)
(declare-fun swz.z2~11 () Int)
(declare-fun swz.h~20 () Int)
(declare-fun swz.r~21 () Int)
(declare-fun swz.z0~22 () Int)
(declare-fun swz.z1~23 () Int)
(declare-fun swz.z2~24 () Int)
(assert
 (let ((?x1 (* 16 swz.y2~27)))
 (let ((?x2 (* 8 swz.y1~26)))
 (let ((?x3 (* 4 swz.y0~25)))
 (let ((?x4 (* (- 32) swz.t2~30)))
 (let ((?x5 (* (- 16) swz.t1~29)))
 (let ((?x6 (* (- 8) swz.t0~28)))
 (let ((?x7 (* 128 |b:repeat0|)))
 (let ((?x8 (* 4 |b.S.q.c#1~19|)))
 (let ((?x9 (* 32 |b.S.q.c#0~18|)))
 (let ((?x10 (* 16 swz.y2~14)))
 (let ((?x11 (* 8 swz.y1~13)))
 (let ((?x12 (* 4 swz.y0~12)))
 (let ((?x13 (* (- 32) swz.t2~17)))
 (let ((?x14 (* (- 16) swz.t1~16)))
 (let ((?x15 (* (- 8) swz.t0~15)))
 (let ((?x16 (* 128 |a:repeat0|)))
 (let ((?x17 (* 4 |a.S.q.c#1~6|)))
 (let ((?x18 (* 32 |a.S.q.c#0~5|)))
 (let (($x19 (= (+ ?x18 ?x17 ?x16 |a:word| ?x15 ?x14 ?x13 ?x12 ?x11 ?x10) (+ ?x9 ?x8 ?x7 |b:word| ?x6 ?x5 ?x4 ?x3 ?x2 ?x1))))
 (let (($x20 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true))))
 (and (and $x20 $x19)))))))))))))))))))))))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 31))
(assert
 (>= |a:lane~1| 0))
(assert
 (<= |a:lane~1| 0))
(assert
 (>= |a:laner~2| 0))
(assert
 (<= |a:laner~2| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 3))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 31))
(assert
 (>= |b:lane~3| 0))
(assert
 (<= |b:lane~3| 0))
(assert
 (>= |b:laner~4| 0))
(assert
 (<= |b:laner~4| 31))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 15))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 3))
(assert
 (>= |a.S.q.c#0~5| 0))
(assert
 (<= |a.S.q.c#0~5| 3))
(assert
 (>= |a.S.q.c#1~6| 0))
(assert
 (<= |a.S.q.c#1~6| 7))
(assert
 (>= swz.h~7 0))
(assert
 (<= swz.h~7 7))
(assert
 (>= swz.r~8 0))
(assert
 (<= swz.r~8 3))
(assert
 (>= swz.z0~9 0))
(assert
 (<= swz.z0~9 1))
(assert
 (>= swz.z1~10 0))
(assert
 (<= swz.z1~10 1))
(assert
 (>= swz.z2~11 0))
(assert
 (<= swz.z2~11 1))
(assert
 (>= swz.y0~12 0))
(assert
 (<= swz.y0~12 1))
(assert
 (>= swz.y1~13 0))
(assert
 (<= swz.y1~13 1))
(assert
 (>= swz.y2~14 0))
(assert
 (<= swz.y2~14 1))
(assert
 (>= swz.t0~15 0))
(assert
 (<= swz.t0~15 1))
(assert
 (>= swz.t1~16 0))
(assert
 (<= swz.t1~16 1))
(assert
 (>= swz.t2~17 0))
(assert
 (<= swz.t2~17 1))
(assert
 (>= |b.S.q.c#0~18| 0))
(assert
 (<= |b.S.q.c#0~18| 3))
(assert
 (>= |b.S.q.c#1~19| 0))
(assert
 (<= |b.S.q.c#1~19| 7))
(assert
 (>= swz.h~20 0))
(assert
 (<= swz.h~20 7))
(assert
 (>= swz.r~21 0))
(assert
 (<= swz.r~21 3))
(assert
 (>= swz.z0~22 0))
(assert
 (<= swz.z0~22 1))
(assert
 (>= swz.z1~23 0))
(assert
 (<= swz.z1~23 1))
(assert
 (>= swz.z2~24 0))
(assert
 (<= swz.z2~24 1))
(assert
 (>= swz.y0~25 0))
(assert
 (<= swz.y0~25 1))
(assert
 (>= swz.y1~26 0))
(assert
 (<= swz.y1~26 1))
(assert
 (>= swz.y2~27 0))
(assert
 (<= swz.y2~27 1))
(assert
 (>= swz.t0~28 0))
(assert
 (<= swz.t0~28 1))
(assert
 (>= swz.t1~29 0))
(assert
 (<= swz.t1~29 1))
(assert
 (>= swz.t2~30 0))
(assert
 (<= swz.t2~30 1))
(assert
 (= (+ (* (- 1) |a:laner~2|) (* (- 32) |a:lane~1|) |a:thread|) 0))
(assert
 (= (+ (* (- 1) |b:laner~4|) (* (- 32) |b:lane~3|) |b:thread|) 0))
(assert
 (= (+ (* (- 8) |a.S.q.c#0~5|) (* (- 1) |a.S.q.c#1~6|) |a:laner~2|) 0))
(assert
 (let ((?x21 (* (- 16) swz.z2~11)))
 (let ((?x22 (* (- 8) swz.z1~10)))
 (let ((?x23 (* (- 4) swz.z0~9)))
 (let ((?x24 (* (- 128) swz.y2~14)))
 (let ((?x25 (* (- 64) swz.y1~13)))
 (let ((?x26 (* (- 32) swz.y0~12)))
 (let ((?x27 (* (- 256) swz.h~7)))
 (let ((?x16 (* 128 |a:repeat0|)))
 (let ((?x17 (* 4 |a.S.q.c#1~6|)))
 (let ((?x18 (* 32 |a.S.q.c#0~5|)))
 (let ((?x28 (+ ?x18 ?x17 ?x16 |a:word| ?x27 (* (- 1) swz.r~8) ?x26 ?x25 ?x24 ?x23 ?x22 ?x21)))
 (= ?x28 0)))))))))))))
(assert
 (= (+ (* (- 8) |b.S.q.c#0~18|) (* (- 1) |b.S.q.c#1~19|) |b:laner~4|) 0))
(assert
 (let ((?x29 (* (- 16) swz.z2~24)))
 (let ((?x30 (* (- 8) swz.z1~23)))
 (let ((?x31 (* (- 4) swz.z0~22)))
 (let ((?x32 (* (- 128) swz.y2~27)))
 (let ((?x33 (* (- 64) swz.y1~26)))
 (let ((?x34 (* (- 32) swz.y0~25)))
 (let ((?x35 (* (- 256) swz.h~20)))
 (let ((?x7 (* 128 |b:repeat0|)))
 (let ((?x8 (* 4 |b.S.q.c#1~19|)))
 (let ((?x9 (* 32 |b.S.q.c#0~18|)))
 (let ((?x36 (+ ?x9 ?x8 ?x7 |b:word| ?x35 (* (- 1) swz.r~21) ?x34 ?x33 ?x32 ?x31 ?x30 ?x29)))
 (= ?x36 0)))))))))))))
(assert
 (>= (+ (* (- 1) swz.t0~15) swz.z0~9) 0))
(assert
 (>= (+ (* (- 1) swz.t0~15) swz.y0~12) 0))
(assert
 (>= (+ 1 swz.t0~15 (* (- 1) swz.y0~12) (* (- 1) swz.z0~9)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~16) swz.z1~10) 0))
(assert
 (>= (+ (* (- 1) swz.t1~16) swz.y1~13) 0))
(assert
 (>= (+ 1 swz.t1~16 (* (- 1) swz.y1~13) (* (- 1) swz.z1~10)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~17) swz.z2~11) 0))
(assert
 (>= (+ (* (- 1) swz.t2~17) swz.y2~14) 0))
(assert
 (>= (+ 1 swz.t2~17 (* (- 1) swz.y2~14) (* (- 1) swz.z2~11)) 0))
(assert
 (>= (+ (* (- 1) swz.t0~28) swz.z0~22) 0))
(assert
 (>= (+ (* (- 1) swz.t0~28) swz.y0~25) 0))
(assert
 (>= (+ 1 swz.t0~28 (* (- 1) swz.y0~25) (* (- 1) swz.z0~22)) 0))
(assert
 (>= (+ (* (- 1) swz.t1~29) swz.z1~23) 0))
(assert
 (>= (+ (* (- 1) swz.t1~29) swz.y1~26) 0))
(assert
 (>= (+ 1 swz.t1~29 (* (- 1) swz.y1~26) (* (- 1) swz.z1~23)) 0))
(assert
 (>= (+ (* (- 1) swz.t2~30) swz.z2~24) 0))
(assert
 (>= (+ (* (- 1) swz.t2~30) swz.y2~27) 0))
(assert
 (>= (+ 1 swz.t2~30 (* (- 1) swz.y2~27) (* (- 1) swz.z2~24)) 0))
(check-sat)
