; tilecheck obligation query: file examples/guard_straddle_v4_refuted.toml, apply[0], obligation guard
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |k'| () Int)
(declare-fun |c0'| () Int)
(declare-fun |a:lane| () Int)
(assert
 (let (($x1 (and (>= (+ 3 (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ 3 (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)))))
 (let (($x2 (and (>= (+ 2 (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ 2 (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)))))
 (let (($x3 (and (>= (+ 1 (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ 1 (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)))))
 (let ((?x4 (* 128 |c0'|)))
 (let ((?x5 (* 4 |a:lane|)))
 (let ((?x6 (+ ?x5 ?x4)))
 (let (($x7 (>= ?x6 0)))
 (let (($x8 (and $x7 (< ?x6 (* 2 |k'|)))))
 (let (($x9 (and (or $x8 $x3 $x2 $x1) (or (not $x8) (not $x3) (not $x2) (not $x1)))))
 (or $x9)))))))))))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 524288))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 8191))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (let ((?x10 (* 2 |k'|)))
 (= ?x10 2)))
(assert
 (let ((?x4 (* 128 |c0'|)))
(= ?x4 0)))
(check-sat)
