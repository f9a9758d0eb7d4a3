; tilecheck obligation query: file examples/tma_store_ragged_rows.toml, apply[0], obligation tma_inner
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun n () Int)
(assert
 (and (distinct (mod (* (* 32 n) 4) 16) 0) true))
(check-sat)
