; tilecheck obligation query: file examples/region_misaligned_refuted.toml, apply[0], obligation alignment
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(declare-fun |a:repeat0| () Int)
(assert
 (let ((?x1 (mod (+ 4 (* 4 |a:repeat0|)) 16)))
 (and (distinct ?x1 0) true)))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 7))
(check-sat)
