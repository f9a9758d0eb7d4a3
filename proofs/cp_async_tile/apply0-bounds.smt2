; tilecheck obligation query: file examples/cp_async_tile.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun sub~1 () Int)
(declare-fun subr~2 () Int)
(declare-fun |src:word| () Int)
(declare-fun |src:warp| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:warp| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst:lane| () Int)
(declare-fun |src:lane| () Int)
(assert
 (let ((?x1 (+ (* 4096 |src:repeat0|) (* 1024 |src:warp|) |src:word| (* 8 subr~2) (* 256 sub~1))))
 (let (($x2 (>= ?x1 16192)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 8 8) (< 8 1))))
 (let (($x5 (or $x3 (> 4 4) (< 4 1))))
 (let (($x6 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x7 (+ (* 8 |dst:lane|) (* 1024 |dst:repeat0|) (* 256 |dst:warp|) |dst:word|)))
 (let (($x8 (>= ?x7 4096)))
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
 (<= |dst:word| 7))
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
 (<= |src:word| 7))
(assert
 (>= sub~1 0))
(assert
 (<= sub~1 3))
(assert
 (>= subr~2 0))
(assert
 (<= subr~2 7))
(assert
 (= (+ |src:lane| (* (- 1) subr~2) (* (- 8) sub~1)) 0))
(check-sat)
