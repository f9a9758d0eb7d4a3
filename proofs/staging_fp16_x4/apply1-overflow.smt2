; tilecheck obligation query: file examples/staging_fp16_x4.toml, apply[1], obligation overflow
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 false)
(check-sat)
