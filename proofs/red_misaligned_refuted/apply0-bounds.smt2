; tilecheck obligation query: file examples/red_misaligned_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |dst:word| () Int)
(assert
 (let (($x150 (>= |src:word| 4)))
 (let (($x66 (< 0 0)))
 (let (($x131 (or $x66 (> 4 4) (< 4 1))))
 (let (($x104 (or $x66 (> 32 32) (< 32 1))))
 (or $x131 $x104 $x131 (< (+ 1 |dst:word|) 0) (>= (+ 1 |dst:word|) 5) $x131 $x104 $x131 (< |src:word| 0) $x150))))))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
