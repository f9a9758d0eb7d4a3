; tilecheck obligation query: file examples/tma_multicast_halves.toml, apply[0], obligation tma_smem
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun r () Int)
(assert
 (and (distinct (mod (* (* 4096 r) 2) 128) 0) true))
(check-sat)
