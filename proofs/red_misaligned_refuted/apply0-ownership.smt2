; tilecheck obligation query: file examples/red_misaligned_refuted.toml, apply[0], obligation ownership
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(assert
 (let ((?x1 (* 32 |a:warp|)))
(let ((?x2 (+ ?x1 |a:lane|)))
(not (and (= (+ ?x2 0) ?x2))))))
(check-sat)
