; tilecheck obligation query: file examples/guard_ragged_v4.toml, apply[0], obligation guard
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |k'| () Int)
(declare-fun |c0'| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun n () Int)
(declare-fun |r0'| () Int)
(declare-fun |a:lane| () Int)
(assert
 (let ((?x1 (* 32 |r0'|)))
 (let ((?x2 (+ |a:lane| ?x1)))
 (let (($x3 (< ?x2 n)))
 (let (($x4 (>= ?x2 0)))
 (let (($x5 (and $x4 $x3 (>= (+ 3 (* 4 |a:repeat0|) (* 16 |c0'|)) 0) (< (+ 3 (* 4 |a:repeat0|) (* 16 |c0'|)) (* 4 |k'|)))))
 (let (($x6 (and $x4 $x3 (>= (+ 2 (* 4 |a:repeat0|) (* 16 |c0'|)) 0) (< (+ 2 (* 4 |a:repeat0|) (* 16 |c0'|)) (* 4 |k'|)))))
 (let (($x7 (and $x4 $x3 (>= (+ 1 (* 4 |a:repeat0|) (* 16 |c0'|)) 0) (< (+ 1 (* 4 |a:repeat0|) (* 16 |c0'|)) (* 4 |k'|)))))
 (let ((?x8 (* 16 |c0'|)))
 (let ((?x9 (* 4 |a:repeat0|)))
 (let ((?x10 (+ ?x9 ?x8)))
 (let (($x11 (>= ?x10 0)))
 (let (($x12 (and $x4 $x3 $x11 (< ?x10 (* 4 |k'|)))))
 (let (($x13 (and (or $x12 $x7 $x6 $x5) (or (not $x12) (not $x7) (not $x6) (not $x5)))))
 (or $x13)))))))))))))))
(assert
 (>= n 1))
(assert
 (<= n 4096))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 1024))
(assert
 (>= |r0'| 0))
(assert
 (<= |r0'| 127))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 255))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 3))
(check-sat)
