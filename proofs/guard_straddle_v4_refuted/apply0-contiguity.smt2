; tilecheck obligation query: file examples/guard_straddle_v4_refuted.toml, apply[0], obligation contiguity
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |k'| () Int)
(declare-fun |c0'| () Int)
(declare-fun |a:lane| () Int)
(assert
 (let (($x1 (and (>= (+ (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)) (>= (+ 1 (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ 1 (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)) (>= (+ 2 (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ 2 (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)) (>= (+ 3 (* 4 |a:lane|) (* 128 |c0'|)) 0) (< (+ 3 (* 4 |a:lane|) (* 128 |c0'|)) (* 2 |k'|)))))
(and $x1 (and (distinct 0 0) true))))
(check-sat)
