; tilecheck obligation query: file examples/red_split_k.toml, apply[0], obligation ownership
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(assert
 (let ((?x157 (* 32 |a:warp|)))
(let ((?x130 (+ ?x157 |a:lane|)))
(not (and (= (+ ?x130 0) ?x130))))))
(check-sat)
