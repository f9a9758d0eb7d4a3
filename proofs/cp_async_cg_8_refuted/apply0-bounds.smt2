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
 (let ((?x96 (* 64 |src:warp|)))
 (let ((?x21 (* 256 |src:repeat0|)))
 (let ((?x131 (* 2 |src:lane|)))
 (let ((?x99 (+ ?x131 ?x21 ?x96 |src:word|)))
 (let (($x101 (>= ?x99 1024)))
 (let (($x141 (< 0 0)))
 (let (($x41 (or $x141 (> 2 2) (< 2 1))))
 (let (($x152 (or $x141 (> 4 4) (< 4 1))))
 (let (($x144 (or $x141 (> 32 32) (< 32 1))))
 (let ((?x124 (* 64 |dst:warp|)))
 (let ((?x120 (* 256 |dst:repeat0|)))
 (let ((?x37 (* 2 |dst:lane|)))
 (let ((?x126 (+ ?x37 ?x120 ?x124 |dst:word|)))
 (let (($x129 (>= ?x126 1024)))
 (or $x152 $x144 $x152 $x41 (< ?x126 0) $x129 $x152 $x144 $x152 $x41 (< ?x99 0) $x101))))))))))))))))
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
