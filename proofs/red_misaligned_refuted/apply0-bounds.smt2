; tilecheck obligation query: file examples/red_misaligned_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |dst:word| () Int)
(assert
 (let (($x1 (>= |src:word| 4)))
 (let (($x2 (< 0 0)))
 (let (($x3 (or $x2 (> 4 4) (< 4 1))))
 (let (($x4 (or $x2 (> 32 32) (< 32 1))))
 (or $x3 $x4 $x3 (< (+ 1 |dst:word|) 0) (>= (+ 1 |dst:word|) 5) $x3 $x4 $x3 (< |src:word| 0) $x1))))))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
