; tilecheck obligation query: file examples/bulk_copy_row.toml, apply[1], obligation bulk_copy-dst
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 (or (<= 2048 0) (and (distinct (mod 2048 16) 0) true) (and (distinct 2048 (* 16 128)) true) (and (distinct 0 0) true)))
(check-sat)
