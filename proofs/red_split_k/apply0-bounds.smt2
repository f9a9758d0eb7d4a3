; tilecheck obligation query: file examples/red_split_k.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |dst:word| () Int)
(assert
 (let (($x31 (>= |src:word| 4)))
 (let (($x56 (< 0 0)))
 (let (($x110 (or $x56 (> 4 4) (< 4 1))))
 (let (($x25 (or $x56 (> 32 32) (< 32 1))))
 (let (($x30 (>= |dst:word| 4)))
 (or $x110 $x25 $x110 (< |dst:word| 0) $x30 $x110 $x25 $x110 (< |src:word| 0) $x31)))))))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
