; tilecheck obligation query: file examples/banks_column_half_swizzled.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |dst:repeat0| () Int)
(assert
 (let ((?x1 (+ (* 64 |src:lane|) |src:repeat0|)))
 (let (($x2 (>= ?x1 4096)))
 (let (($x3 (< 64 1)))
 (let (($x4 (< 0 0)))
 (let (($x5 (or $x4 (> 64 64) $x3)))
 (let (($x6 (>= |dst:repeat0| 64)))
 (or (or $x4 (> 32 32) (< 32 1)) $x5 (< |dst:repeat0| 0) $x6 (or $x4 (> 32 64) $x3) $x5 (< ?x1 0) $x2))))))))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 63))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 63))
(check-sat)
