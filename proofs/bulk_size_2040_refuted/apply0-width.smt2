; tilecheck obligation query: file examples/bulk_size_2040_refuted.toml, apply[0], obligation width
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
