; tilecheck obligation query: file examples/tma_multicast_halves.toml, apply[0], obligation tma_tx
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 (or (and (distinct 16384 16384) true) (> 16384 1048575)))
(check-sat)
