; tilecheck obligation query: file examples/bulk_copy_row.toml, apply[1], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun i () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(assert
 (let ((?x1 (+ (* 8 |src:repeat0|) |src:word|)))
 (let (($x2 (>= ?x1 1024)))
 (let (($x3 (< 1024 1)))
 (let (($x4 (or (< 0 0) (> 1024 1024) $x3)))
 (let ((?x5 (+ (* 8 |dst:repeat0|) |dst:word| (* 1024 i))))
 (let (($x6 (>= ?x5 1048576)))
 (or (or (< i 0) (> (+ 1 i) 1024) $x3) $x4 (< ?x5 0) $x6 $x4 (< ?x1 0) $x2))))))))
(assert
 (>= i 0))
(assert
 (<= i 1023))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 127))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 7))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 127))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 7))
(check-sat)
