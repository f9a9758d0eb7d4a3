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
 (let (($x190 (< 0 0)))
 (let (($x56 (or $x190 (> 8 8) (< 8 1))))
 (let ((?x102 (* 4 |dst:repeat0|)))
 (let ((?x110 (+ ?x102 |dst:word|)))
 (let (($x231 (>= ?x110 32)))
 (or $x56 (or $x190 (> 4 4) (< 4 1)) (< ?x110 0) $x231 $x56 (or (< 1 0) (> 5 5) (< 5 1)) (< (+ 1 (* 5 |src:repeat0|) |src:word|) 0) (>= (+ 1 (* 5 |src:repeat0|) |src:word|) 40))))))))
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
