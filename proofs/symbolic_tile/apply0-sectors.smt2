; tilecheck obligation query: file examples/symbolic_tile.toml, apply[0], obligation sectors
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(assert
 (let ((?x1 (div (- (+ (* 8 (+ (ite and 1 0))) 32) 1) 32)))
(let ((?x2 (+ (ite and 1 0))))
(and (> ?x2 ?x1)))))
(check-sat)
