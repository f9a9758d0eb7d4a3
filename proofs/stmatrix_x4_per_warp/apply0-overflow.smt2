; tilecheck obligation query: file examples/stmatrix_x4_per_warp.toml, apply[0], obligation overflow
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
