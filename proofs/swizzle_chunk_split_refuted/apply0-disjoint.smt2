; tilecheck obligation query: file examples/swizzle_chunk_split_refuted.toml, apply[0], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun swz.y2~14 () Int)
(declare-fun swz.y1~13 () Int)
(declare-fun swz.y0~12 () Int)
(declare-fun swz.t2~17 () Int)
(declare-fun swz.t1~16 () Int)
(declare-fun swz.t0~15 () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a:thread| () Int)
(declare-fun swz.y2~27 () Int)
(declare-fun swz.y1~26 () Int)
(declare-fun swz.y0~25 () Int)
(declare-fun swz.t2~30 () Int)
(declare-fun swz.t1~29 () Int)
(declare-fun swz.t0~28 () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |b:thread| () Int)
(declare-fun |b:word| () Int)
(declare-fun |a.S.q.c#0~5| () Int)
(declare-fun swz.h~7 () Int)
(declare-fun swz.z2~11 () Int)
(declare-fun swz.z1~10 () Int)
(declare-fun swz.z0~9 () Int)
(declare-fun |b.S.q.c#0~18| () Int)
(declare-fun swz.h~20 () Int)
(declare-fun swz.z2~24 () Int)
(declare-fun swz.z1~23 () Int)
(declare-fun swz.z0~22 () Int)
(assert
 (let ((?x1 (* (- 8) swz.y2~14)))
 (let ((?x2 (* (- 4) swz.y1~13)))
 (let ((?x3 (* (- 2) swz.y0~12)))
 (let ((?x4 (* 16 swz.t2~17)))
 (let ((?x5 (* 8 swz.t1~16)))
 (let ((?x6 (* 4 swz.t0~15)))
 (let ((?x7 (* (- 128) |a:repeat0|)))
 (let ((?x8 (* (- 4) |a:thread|)))
 (let ((?x9 (* 8 swz.y2~27)))
 (let ((?x10 (* 4 swz.y1~26)))
 (let ((?x11 (* 2 swz.y0~25)))
 (let ((?x12 (* (- 16) swz.t2~30)))
 (let ((?x13 (* (- 8) swz.t1~29)))
 (let ((?x14 (* (- 4) swz.t0~28)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x17 (+ ?x16 ?x15 ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (let (($x18 (not (= |a:repeat0| |b:repeat0|))))
 (let (($x19 (not (= |a:thread| |b:thread|))))
 (or $x19 $x18 (not (= ?x17 0)))))))))))))))))))))))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 15))
(assert
 (let ((?x1 (* (- 8) swz.y2~14)))
 (let ((?x2 (* (- 4) swz.y1~13)))
 (let ((?x3 (* (- 2) swz.y0~12)))
 (let ((?x4 (* 16 swz.t2~17)))
 (let ((?x5 (* 8 swz.t1~16)))
 (let ((?x6 (* 4 swz.t0~15)))
 (let ((?x7 (* (- 128) |a:repeat0|)))
 (let ((?x8 (* (- 4) |a:thread|)))
 (let ((?x9 (* 8 swz.y2~27)))
 (let ((?x10 (* 4 swz.y1~26)))
 (let ((?x11 (* 2 swz.y0~25)))
 (let ((?x12 (* (- 16) swz.t2~30)))
 (let ((?x13 (* (- 8) swz.t1~29)))
 (let ((?x14 (* (- 4) swz.t0~28)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x20 (+ ?x16 ?x15 |b:word| ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (>= ?x20 0)))))))))))))))))))
(assert
 (let ((?x1 (* (- 8) swz.y2~14)))
 (let ((?x2 (* (- 4) swz.y1~13)))
 (let ((?x3 (* (- 2) swz.y0~12)))
 (let ((?x4 (* 16 swz.t2~17)))
 (let ((?x5 (* 8 swz.t1~16)))
 (let ((?x6 (* 4 swz.t0~15)))
 (let ((?x7 (* (- 128) |a:repeat0|)))
 (let ((?x8 (* (- 4) |a:thread|)))
 (let ((?x9 (* 8 swz.y2~27)))
 (let ((?x10 (* 4 swz.y1~26)))
 (let ((?x11 (* 2 swz.y0~25)))
 (let ((?x12 (* (- 16) swz.t2~30)))
 (let ((?x13 (* (- 8) swz.t1~29)))
 (let ((?x14 (* (- 4) swz.t0~28)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x20 (+ ?x16 ?x15 |b:word| ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x8 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1)))
 (<= ?x20 3)))))))))))))))))))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 31))
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
 (let ((?x21 (* (- 8) |a.S.q.c#0~5|)))
 (let ((?x22 (+ ?x21 |a:thread|)))
 (>= ?x22 0))))
(assert
 (let ((?x21 (* (- 8) |a.S.q.c#0~5|)))
 (let ((?x22 (+ ?x21 |a:thread|)))
 (<= ?x22 7))))
(assert
 (>= swz.h~7 0))
(assert
 (<= swz.h~7 15))
(assert
 (let ((?x23 (* (- 8) swz.z2~11)))
 (let ((?x24 (* (- 4) swz.z1~10)))
 (let ((?x25 (* (- 2) swz.z0~9)))
 (let ((?x26 (* (- 128) swz.h~7)))
 (let ((?x27 (* (- 72) swz.y2~14)))
 (let ((?x28 (* (- 36) swz.y1~13)))
 (let ((?x29 (* (- 18) swz.y0~12)))
 (let ((?x4 (* 16 swz.t2~17)))
 (let ((?x5 (* 8 swz.t1~16)))
 (let ((?x6 (* 4 swz.t0~15)))
 (let ((?x9 (* 8 swz.y2~27)))
 (let ((?x10 (* 4 swz.y1~26)))
 (let ((?x11 (* 2 swz.y0~25)))
 (let ((?x12 (* (- 16) swz.t2~30)))
 (let ((?x13 (* (- 8) swz.t1~29)))
 (let ((?x14 (* (- 4) swz.t0~28)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x30 (+ ?x16 ?x15 |b:word| ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x6 ?x5 ?x4 ?x29 ?x28 ?x27 ?x26 ?x25 ?x24 ?x23)))
 (>= ?x30 0)))))))))))))))))))))
(assert
 (let ((?x23 (* (- 8) swz.z2~11)))
 (let ((?x24 (* (- 4) swz.z1~10)))
 (let ((?x25 (* (- 2) swz.z0~9)))
 (let ((?x26 (* (- 128) swz.h~7)))
 (let ((?x27 (* (- 72) swz.y2~14)))
 (let ((?x28 (* (- 36) swz.y1~13)))
 (let ((?x29 (* (- 18) swz.y0~12)))
 (let ((?x4 (* 16 swz.t2~17)))
 (let ((?x5 (* 8 swz.t1~16)))
 (let ((?x6 (* 4 swz.t0~15)))
 (let ((?x9 (* 8 swz.y2~27)))
 (let ((?x10 (* 4 swz.y1~26)))
 (let ((?x11 (* 2 swz.y0~25)))
 (let ((?x12 (* (- 16) swz.t2~30)))
 (let ((?x13 (* (- 8) swz.t1~29)))
 (let ((?x14 (* (- 4) swz.t0~28)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x30 (+ ?x16 ?x15 |b:word| ?x14 ?x13 ?x12 ?x11 ?x10 ?x9 ?x6 ?x5 ?x4 ?x29 ?x28 ?x27 ?x26 ?x25 ?x24 ?x23)))
 (<= ?x30 1)))))))))))))))))))))
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
 (let ((?x31 (* (- 8) |b.S.q.c#0~18|)))
 (let ((?x32 (+ ?x31 |b:thread|)))
 (>= ?x32 0))))
(assert
 (let ((?x31 (* (- 8) |b.S.q.c#0~18|)))
 (let ((?x32 (+ ?x31 |b:thread|)))
 (<= ?x32 7))))
(assert
 (>= swz.h~20 0))
(assert
 (<= swz.h~20 15))
(assert
 (let ((?x33 (* (- 8) swz.z2~24)))
 (let ((?x34 (* (- 4) swz.z1~23)))
 (let ((?x35 (* (- 2) swz.z0~22)))
 (let ((?x36 (* (- 64) swz.y2~27)))
 (let ((?x37 (* (- 32) swz.y1~26)))
 (let ((?x38 (* (- 16) swz.y0~25)))
 (let ((?x39 (* (- 128) swz.h~20)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x40 (+ ?x16 ?x15 |b:word| ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33)))
 (>= ?x40 0))))))))))))
(assert
 (let ((?x33 (* (- 8) swz.z2~24)))
 (let ((?x34 (* (- 4) swz.z1~23)))
 (let ((?x35 (* (- 2) swz.z0~22)))
 (let ((?x36 (* (- 64) swz.y2~27)))
 (let ((?x37 (* (- 32) swz.y1~26)))
 (let ((?x38 (* (- 16) swz.y0~25)))
 (let ((?x39 (* (- 128) swz.h~20)))
 (let ((?x15 (* 128 |b:repeat0|)))
 (let ((?x16 (* 4 |b:thread|)))
 (let ((?x40 (+ ?x16 ?x15 |b:word| ?x39 ?x38 ?x37 ?x36 ?x35 ?x34 ?x33)))
 (<= ?x40 1))))))))))))
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
 (>= (+ (* (- 1) swz.t0~15) swz.z0~9) 0))
(assert
 (>= (+ (* (- 1) swz.t0~15) swz.y0~12) 0))
(assert
 (>= (+ swz.t0~15 (* (- 1) swz.y0~12) (* (- 1) swz.z0~9)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~16) swz.z1~10) 0))
(assert
 (>= (+ (* (- 1) swz.t1~16) swz.y1~13) 0))
(assert
 (>= (+ swz.t1~16 (* (- 1) swz.y1~13) (* (- 1) swz.z1~10)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~17) swz.z2~11) 0))
(assert
 (>= (+ (* (- 1) swz.t2~17) swz.y2~14) 0))
(assert
 (>= (+ swz.t2~17 (* (- 1) swz.y2~14) (* (- 1) swz.z2~11)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t0~28) swz.z0~22) 0))
(assert
 (>= (+ (* (- 1) swz.t0~28) swz.y0~25) 0))
(assert
 (>= (+ swz.t0~28 (* (- 1) swz.y0~25) (* (- 1) swz.z0~22)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t1~29) swz.z1~23) 0))
(assert
 (>= (+ (* (- 1) swz.t1~29) swz.y1~26) 0))
(assert
 (>= (+ swz.t1~29 (* (- 1) swz.y1~26) (* (- 1) swz.z1~23)) (- 1)))
(assert
 (>= (+ (* (- 1) swz.t2~30) swz.z2~24) 0))
(assert
 (>= (+ (* (- 1) swz.t2~30) swz.y2~27) 0))
(assert
 (>= (+ swz.t2~30 (* (- 1) swz.y2~27) (* (- 1) swz.z2~24)) (- 1)))
(check-sat)
