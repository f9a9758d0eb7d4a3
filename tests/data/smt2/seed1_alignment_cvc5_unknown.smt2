; tilecheck obligation query: file <fuzz>, apply[0], obligation alignment
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun r () Int)
(declare-fun |k'| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun |c'| () Int)
(declare-fun |a:repeat1| () Int)
(declare-fun n () Int)
(assert
 (let (($x1 (and (distinct (mod (+ (* 4 |a:repeat0| |k'|) (* 4 |k'| r)) 8) 0) true)))
 (let ((?x2 (+ |a:repeat0| r)))
 (let (($x3 (< ?x2 n)))
 (let (($x4 (>= ?x2 0)))
 (let ((?x5 (* 16 |c'|)))
 (let ((?x6 (* 4 |a:repeat1|)))
 (let ((?x7 (+ ?x6 ?x5)))
 (let (($x8 (>= ?x7 0)))
 (let (($x9 (and $x4 $x3 $x8 (< ?x7 (* 2 |k'|)) $x4 $x3 (>= (+ 1 ?x6 ?x5) 0) (< (+ 1 ?x6 ?x5) (* 2 |k'|)) $x4 $x3 (>= (+ 2 ?x6 ?x5) 0) (< (+ 2 ?x6 ?x5) (* 2 |k'|)) $x4 $x3 (>= (+ 3 ?x6 ?x5) 0) (< (+ 3 ?x6 ?x5) (* 2 |k'|)))))
 (and $x9 $x1)))))))))))
(assert
 (>= n 1))
(assert
 (<= n 65))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 524288))
(assert
 (>= r 0))
(assert
 (<= r 1048576))
(assert
 (>= |c'| 0))
(assert
 (<= |c'| 65536))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 0))
(assert
 (>= |a:repeat1| 0))
(assert
 (<= |a:repeat1| 3))
(assert
 (let ((?x10 (* |a:repeat0| |k'|)))
 (>= ?x10 0)))
(assert
 (let ((?x10 (* |a:repeat0| |k'|)))
 (<= ?x10 0)))
(assert
 (let ((?x11 (* |k'| r)))
 (>= ?x11 0)))
(assert
 (let ((?x11 (* |k'| r)))
(<= ?x11 549755813888)))
(check-sat)
