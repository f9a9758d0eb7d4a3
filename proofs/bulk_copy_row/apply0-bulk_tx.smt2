; tilecheck obligation query: file examples/bulk_copy_row.toml, apply[0], obligation bulk_tx
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 (or (and (distinct 2048 2048) true) (> 2048 1048575)))
(check-sat)
