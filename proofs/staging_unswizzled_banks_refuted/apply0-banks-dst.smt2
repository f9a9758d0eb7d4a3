; tilecheck obligation query: file examples/staging_unswizzled_banks_refuted.toml, apply[0], obligation banks-dst
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(check-sat)
