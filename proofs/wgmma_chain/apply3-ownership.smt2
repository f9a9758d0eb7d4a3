; tilecheck obligation query: file examples/wgmma_chain.toml, apply[3], obligation ownership
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |a:lane| () Int)
(declare-fun |a:warp| () Int)
(declare-fun |a.D.g.q#1~2| () Int)
(declare-fun |a.D.g.q#0~1| () Int)
(assert
 (let ((?x1 (+ (+ (* 32 |a:warp|) (+ (* 4 |a.D.g.q#0~1|) |a.D.g.q#1~2|)) 0)))
 (not (and (= ?x1 (+ (* 32 |a:warp|) |a:lane|))))))
(assert
 (>= |a:warp| 0))
(assert
 (<= |a:warp| 3))
(assert
 (>= |a:lane| 0))
(assert
 (<= |a:lane| 31))
(assert
 (>= |a.D.g.q#0~1| 0))
(assert
 (<= |a.D.g.q#0~1| 7))
(assert
 (>= |a.D.g.q#1~2| 0))
(assert
 (<= |a.D.g.q#1~2| 3))
(assert
 (= (+ (* (- 4) |a.D.g.q#0~1|) (* (- 1) |a.D.g.q#1~2|) |a:lane|) 0))
(check-sat)
