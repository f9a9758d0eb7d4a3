; tilecheck obligation query: file examples/tma_phase_ab_one_box_refuted.toml, apply[0], obligation tma_tx
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(assert
 (or (and (distinct 16384 32768) true) (> 32768 1048575)))
(check-sat)
