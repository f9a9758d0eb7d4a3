; tilecheck obligation query: file examples/guard_straddle_v4_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |c0'| () Int)
(declare-fun |k'| () Int)
(declare-fun |dst:word| () Int)
(assert
 (let ((?x1 (* 4 |src:lane|)))
 (let ((?x2 (* 128 |c0'|)))
 (let ((?x3 (+ ?x2 ?x1)))
 (let (($x4 (>= ?x3 0)))
 (let (($x5 (and $x4 (< ?x3 (* 2 |k'|)) (>= (+ 1 ?x2 ?x1) 0) (< (+ 1 ?x2 ?x1) (* 2 |k'|)) (>= (+ 2 ?x2 ?x1) 0) (< (+ 2 ?x2 ?x1) (* 2 |k'|)) (>= (+ 3 ?x2 ?x1) 0) (< (+ 3 ?x2 ?x1) (* 2 |k'|)))))
 (let (($x6 (>= |dst:word| 4)))
 (or (or (< 0 0) (> 32 32) (< 32 1)) (or (< 0 0) (> 4 4) (< 4 1)) (< |dst:word| 0) $x6 (< (* 2 |k'|) 1) (and $x5 (or (< (+ ?x2 ?x1 |src:word|) 0)))))))))))
(assert
 (>= |k'| 1))
(assert
 (<= |k'| 524288))
(assert
 (>= |c0'| 0))
(assert
 (<= |c0'| 8191))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
