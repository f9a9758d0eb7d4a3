; tilecheck obligation query: file examples/bulk_size_2040_refuted.toml, apply[0], obligation bulk_copy-src
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(assert
 (or (<= 2040 0) (and (distinct (mod 2040 16) 0) true) (and (distinct 2040 (* 16 128)) true) (and (distinct 0 0) true)))
(check-sat)
