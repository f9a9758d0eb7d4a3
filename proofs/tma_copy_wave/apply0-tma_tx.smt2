; tilecheck obligation query: file examples/tma_copy_wave.toml, apply[0], obligation tma_tx
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 (or (and (distinct 4096 4096) true) (> 4096 1048575)))
(check-sat)
