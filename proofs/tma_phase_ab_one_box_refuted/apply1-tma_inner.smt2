; tilecheck obligation query: file examples/tma_phase_ab_one_box_refuted.toml, apply[1], obligation tma_inner
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun k () Int)
(assert
 (and (distinct (mod (* (* 64 k) 2) 16) 0) true))
(check-sat)
