; tilecheck obligation query: file examples/cta_lane_stride2_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:warp| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst:lane| () Int)
(assert
 (let ((?x1 (+ (* 4 |src:repeat0|) |src:word|)))
 (let (($x2 (>= ?x1 12)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 4 4) (< 4 1))))
 (let (($x5 (or $x3 (> 3 3) (< 3 1))))
 (let (($x6 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x7 (+ (* 12 |dst:lane|) (* 4 |dst:repeat0|) (* 384 |dst:warp|) |dst:word|)))
 (let (($x8 (>= ?x7 1536)))
 (or $x4 $x6 $x5 $x4 (< ?x7 0) $x8 $x4 $x6 $x5 $x4 (< ?x1 0) $x2))))))))))
(assert
 (>= |dst:warp| 0))
(assert
 (<= |dst:warp| 3))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 2))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 2))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
