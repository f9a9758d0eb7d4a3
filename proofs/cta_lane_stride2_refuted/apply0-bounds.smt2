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
 (let ((?x132 (* 4 |src:repeat0|)))
 (let ((?x106 (+ ?x132 |src:word|)))
 (let (($x102 (>= ?x106 12)))
 (let (($x98 (< 0 0)))
 (let (($x177 (or $x98 (> 4 4) (< 4 1))))
 (let (($x40 (or $x98 (> 3 3) (< 3 1))))
 (let (($x35 (or $x98 (> 32 32) (< 32 1))))
 (let ((?x125 (* 384 |dst:warp|)))
 (let ((?x121 (* 4 |dst:repeat0|)))
 (let ((?x119 (* 12 |dst:lane|)))
 (let ((?x127 (+ ?x119 ?x121 ?x125 |dst:word|)))
 (let (($x130 (>= ?x127 1536)))
 (or $x177 $x35 $x40 $x177 (< ?x127 0) $x130 $x177 $x35 $x40 $x177 (< ?x106 0) $x102))))))))))))))
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
