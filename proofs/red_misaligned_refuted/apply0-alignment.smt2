; tilecheck obligation query: file examples/red_misaligned_refuted.toml, apply[0], obligation alignment
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(assert
 (and (distinct (mod 4 16) 0) true))
(check-sat)
