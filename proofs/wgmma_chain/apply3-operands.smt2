; tilecheck obligation query: file examples/wgmma_chain.toml, apply[3], obligation operands
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
