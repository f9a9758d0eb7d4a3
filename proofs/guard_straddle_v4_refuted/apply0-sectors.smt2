; tilecheck obligation query: file examples/guard_straddle_v4_refuted.toml, apply[0], obligation sectors
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(check-sat)
