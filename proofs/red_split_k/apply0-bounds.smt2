; tilecheck obligation query: file examples/red_split_k.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |dst:word| () Int)
(assert
 (let (($x104 (>= |src:word| 4)))
 (let (($x50 (< 0 0)))
 (let (($x152 (or $x50 (> 4 4) (< 4 1))))
 (let (($x57 (or $x50 (> 32 32) (< 32 1))))
 (let (($x166 (>= |dst:word| 4)))
 (or $x152 $x57 $x152 (< |dst:word| 0) $x166 $x152 $x57 $x152 (< |src:word| 0) $x104)))))))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
