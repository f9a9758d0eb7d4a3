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
 (let ((?x1 (+ (* 2 |src:lane|) (* 256 |src:repeat0|) (* 64 |src:warp|) |src:word|)))
 (let (($x2 (>= ?x1 1024)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 2 2) (< 2 1))))
 (let (($x5 (or $x3 (> 4 4) (< 4 1))))
 (let (($x6 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x7 (+ (* 2 |dst:lane|) (* 256 |dst:repeat0|) (* 64 |dst:warp|) |dst:word|)))
 (let (($x8 (>= ?x7 1024)))
 (or $x5 $x6 $x5 $x4 (< ?x7 0) $x8 $x5 $x6 $x5 $x4 (< ?x1 0) $x2))))))))))
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
