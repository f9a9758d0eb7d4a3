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
 (let ((?x182 (* 4 |src:repeat0|)))
 (let ((?x101 (+ ?x182 |src:word|)))
 (let (($x38 (>= ?x101 12)))
 (let (($x65 (< 0 0)))
 (let (($x70 (or $x65 (> 4 4) (< 4 1))))
 (let (($x122 (or $x65 (> 3 3) (< 3 1))))
 (let (($x180 (or $x65 (> 32 32) (< 32 1))))
 (let ((?x17 (* 384 |dst:warp|)))
 (let ((?x113 (* 4 |dst:repeat0|)))
 (let ((?x184 (* 12 |dst:lane|)))
 (let ((?x97 (+ ?x184 ?x113 ?x17 |dst:word|)))
 (let (($x185 (>= ?x97 1536)))
 (or $x70 $x180 $x122 $x70 (< ?x97 0) $x185 $x70 $x180 $x122 $x70 (< ?x101 0) $x38))))))))))))))
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
