; tilecheck obligation query: file examples/wgmma_chain_k_advance_past_atom_refuted.toml, apply[3], obligation overflow
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
