; tilecheck obligation query: file examples/region_misaligned_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(assert
 (let (($x1 (< 0 0)))
 (let (($x2 (or $x1 (> 8 8) (< 8 1))))
 (let ((?x3 (+ (* 4 |dst:repeat0|) |dst:word|)))
 (let (($x4 (>= ?x3 32)))
 (or $x2 (or $x1 (> 4 4) (< 4 1)) (< ?x3 0) $x4 $x2 (or (< 1 0) (> 5 5) (< 5 1)) (< (+ 1 (* 5 |src:repeat0|) |src:word|) 0) (>= (+ 1 (* 5 |src:repeat0|) |src:word|) 40)))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 7))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 7))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
