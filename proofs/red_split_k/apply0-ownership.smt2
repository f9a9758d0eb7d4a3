; tilecheck obligation query: file examples/red_split_k.toml, apply[0], obligation ownership
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(assert
 (let ((?x28 (* 32 |a:warp|)))
(let ((?x105 (+ ?x28 |a:lane|)))
(not (and (= (+ ?x105 0) ?x105))))))
(check-sat)
