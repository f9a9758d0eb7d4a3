; tilecheck obligation query: file examples/wgmma_chain_lbo_sbo_unshifted_refuted.toml, apply[2], obligation target
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
