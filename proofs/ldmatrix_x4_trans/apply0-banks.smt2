; tilecheck obligation query: file examples/ldmatrix_x4_trans.toml, apply[0], obligation banks
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(check-sat)
