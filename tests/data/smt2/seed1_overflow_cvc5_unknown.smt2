; tilecheck obligation query: file <fuzz>, apply[0], obligation overflow
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |r'| () Int)
(declare-fun |k'| () Int)
(declare-fun |c'| () Int)
(declare-fun |a:word| () Int)
(declare-fun |a:warp| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |a.A.gi.q#1~2| () Int)
(declare-fun |a.A.gi.q#0~1| () Int)
(declare-fun n () Int)
(declare-fun |a:lane| () Int)
(assert
 (let ((?x1 (* 192 |k'| |r'|)))
 (let ((?x2 (* 32 |c'|)))
 (let ((?x3 (* 4 |a:word|)))
 (let ((?x4 (* 64 |a:warp| |k'|)))
 (let ((?x5 (* 192 |a:repeat0| |k'|)))
 (let ((?x6 (* 8 |a.A.gi.q#1~2|)))
 (let ((?x7 (* 8 |a.A.gi.q#0~1| |k'|)))
 (let (($x8 (or (< (+ ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 0) (>= (+ 3 ?x7 ?x6 ?x5 ?x4 ?x3 ?x2 ?x1) 4294967296))))
 (let ((?x9 (* 24 |r'|)))
 (let ((?x10 (+ |a.A.gi.q#0~1| (* 24 |a:repeat0|) (* 8 |a:warp|) ?x9)))
 (let (($x11 (< ?x10 n)))
 (let (($x12 (>= ?x10 0)))
 (let ((?x13 (* 8 |c'|)))
 (let ((?x14 (* 2 |a.A.gi.q#1~2|)))
 (let ((?x15 (+ ?x14 ?x13)))
 (let (($x16 (>= ?x15 0)))
 (let (($x17 (and $x12 $x11 $x16 (< ?x15 (* 2 |k'|)) $x12 $x11 (>= (+ 1 ?x14 ?x13) 0) (< (+ 1 ?x14 ?x13) (* 2 |k'|)))))
 (and $x17 $x8)))))))))))))))))))
(assert
 (>= n 1))
(assert
 (<= n 2147483647))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 524288))
(assert
 (>= |r'| 0))
(assert
 (<= |r'| 89478485))
(assert
 (>= |c'| 0))
(assert
 (<= |c'| 8))
(assert
 (>= |a:warp| 0))
(assert
 (<= |a:warp| 2))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 0))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 1))
(assert
 (>= |a.A.gi.q#0~1| 0))
(assert
 (<= |a.A.gi.q#0~1| 7))
(assert
 (>= |a.A.gi.q#1~2| 0))
(assert
 (<= |a.A.gi.q#1~2| 3))
(assert
 (= (+ (* (- 4) |a.A.gi.q#0~1|) (* (- 1) |a.A.gi.q#1~2|) |a:lane|) 0))
(assert
 (let ((?x18 (* |a.A.gi.q#0~1| |k'|)))
 (>= ?x18 0)))
(assert
 (let ((?x18 (* |a.A.gi.q#0~1| |k'|)))
 (<= ?x18 3670016)))
(assert
 (let ((?x19 (* |a:repeat0| |k'|)))
 (>= ?x19 0)))
(assert
 (let ((?x19 (* |a:repeat0| |k'|)))
 (<= ?x19 0)))
(assert
 (let ((?x20 (* |a:warp| |k'|)))
 (>= ?x20 0)))
(assert
 (let ((?x20 (* |a:warp| |k'|)))
 (<= ?x20 1048576)))
(assert
 (let ((?x21 (* |k'| |r'|)))
 (>= ?x21 0)))
(assert
 (let ((?x21 (* |k'| |r'|)))
(<= ?x21 46912495943680)))
(check-sat)
