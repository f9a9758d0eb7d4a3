; tilecheck obligation query: file examples/cp_async_cg_8_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:warp| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:warp| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst:lane| () Int)
(assert
 (let ((?x1 (* 64 |src:warp|)))
 (let ((?x2 (* 256 |src:repeat0|)))
 (let ((?x3 (* 2 |src:lane|)))
 (let ((?x4 (+ ?x3 ?x2 ?x1 |src:word|)))
 (let (($x5 (>= ?x4 1024)))
 (let (($x6 (< 0 0)))
 (let (($x7 (or $x6 (> 2 2) (< 2 1))))
 (let (($x8 (or $x6 (> 4 4) (< 4 1))))
 (let (($x9 (or $x6 (> 32 32) (< 32 1))))
 (let ((?x10 (* 64 |dst:warp|)))
 (let ((?x11 (* 256 |dst:repeat0|)))
 (let ((?x12 (* 2 |dst:lane|)))
 (let ((?x13 (+ ?x12 ?x11 ?x10 |dst:word|)))
 (let (($x14 (>= ?x13 1024)))
 (or $x8 $x9 $x8 $x7 (< ?x13 0) $x14 $x8 $x9 $x8 $x7 (< ?x4 0) $x5))))))))))))))))
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
 (<= |dst:repeat0| 3))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 1))
(assert
 (>= |src:warp| 0))
(assert
 (<= |src:warp| 3))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 1))
(check-sat)
