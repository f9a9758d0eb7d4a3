; tilecheck obligation query: file examples/cta_shared_store.toml, apply[0], obligation bounds
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
 (let ((?x91 (+ (* 4 |src:repeat0|) |src:word|)))
 (let (($x71 (>= ?x91 12)))
 (let (($x74 (< 0 0)))
 (let (($x11 (or $x74 (> 4 4) (< 4 1))))
 (let (($x145 (or $x74 (> 3 3) (< 3 1))))
 (let (($x182 (or $x74 (> 32 32) (< 32 1))))
 (let ((?x44 (* 384 |dst:warp|)))
 (let ((?x42 (* 4 |dst:repeat0|)))
 (let ((?x41 (* 12 |dst:lane|)))
 (let ((?x102 (+ ?x41 ?x42 ?x44 |dst:word|)))
 (let (($x64 (>= ?x102 1536)))
 (or $x11 $x182 $x145 $x11 (< ?x102 0) $x64 $x11 $x182 $x145 $x11 (< ?x91 0) $x71)))))))))))))
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
