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
 (let ((?x14 (* 256 sub~1)))
 (let ((?x46 (* 8 subr~2)))
 (let ((?x127 (* 1024 |src:warp|)))
 (let ((?x81 (* 4096 |src:repeat0|)))
 (let ((?x69 (+ ?x81 ?x127 |src:word| ?x46 ?x14)))
 (let (($x66 (>= ?x69 16192)))
 (let (($x180 (< 0 0)))
 (let (($x124 (or $x180 (> 8 8) (< 8 1))))
 (let (($x76 (or $x180 (> 4 4) (< 4 1))))
 (let (($x136 (or $x180 (> 32 32) (< 32 1))))
 (let ((?x35 (* 256 |dst:warp|)))
 (let ((?x89 (* 1024 |dst:repeat0|)))
 (let ((?x91 (* 8 |dst:lane|)))
 (let ((?x27 (+ ?x91 ?x89 ?x35 |dst:word|)))
 (let (($x80 (>= ?x27 4096)))
 (or $x76 $x136 $x76 $x124 (< ?x27 0) $x80 $x76 $x136 $x76 $x124 (< ?x69 0) $x66)))))))))))))))))
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
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(check-sat)
