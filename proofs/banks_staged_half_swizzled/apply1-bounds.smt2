; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[1], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat1| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(assert
 (let ((?x1 (+ (* 32 |src:lane|) (* 1024 |src:repeat0|) (* 4 |src:repeat1|) |src:word|)))
 (let (($x2 (>= ?x1 2048)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x5 (+ (* 32 |dst:repeat0|) (* 4 |dst:repeat1|) |dst:word|)))
 (let (($x6 (>= ?x5 64)))
 (or $x4 (or $x3 (> 2 2) (< 2 1)) (or $x3 (> 8 8) (< 8 1)) (or $x3 (> 4 4) (< 4 1)) (< ?x5 0) $x6 (or $x3 (> 64 64) (< 64 1)) $x4 (< ?x1 0) $x2))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 1))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 7))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 1))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 7))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
