; tilecheck obligation query: file examples/wgmma_epilogue_pairing_refuted.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun sub~7 () Int)
(declare-fun subr~6 () Int)
(declare-fun |src:repeat1| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:warp| () Int)
(declare-fun |dst:repeat1| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.C.g.q#1~2| () Int)
(declare-fun |dst.C.g.q#0~1| () Int)
(declare-fun |dst:lane| () Int)
(declare-fun |src:lane| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |src:word| () Int)
(declare-fun |src.D.g.q#0~3| () Int)
(declare-fun |src.D.g.q#1~4| () Int)
(declare-fun sub~5 () Int)
(declare-fun subr~8 () Int)
(assert
 (let ((?x1 (+ (* 2 |src:repeat1|) subr~6 (* 4 sub~7))))
 (let (($x2 (>= ?x1 64)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 128 128) (< 128 1))))
 (let (($x5 (or $x3 (> 64 64) (< 64 1))))
 (let ((?x6 (+ (* 128 |dst.C.g.q#0~1|) |dst.C.g.q#1~2| (* 8 |dst:repeat0|) (* 1024 |dst:repeat1|) (* 2048 |dst:warp|) (* 4 |dst:word|))))
 (let (($x7 (>= ?x6 8192)))
 (or $x5 $x4 (< ?x6 0) $x7 $x5 $x4 (< ?x1 0) $x2)))))))))
(assert
 (>= |dst:warp| 0))
(assert
 (<= |dst:warp| 3))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 15))
(assert
 (>= |dst:repeat1| 0))
(assert
 (<= |dst:repeat1| 1))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 1))
(assert
 (>= |dst.C.g.q#0~1| 0))
(assert
 (<= |dst.C.g.q#0~1| 7))
(assert
 (>= |dst.C.g.q#1~2| 0))
(assert
 (<= |dst.C.g.q#1~2| 3))
(assert
 (>= |src:lane| 0))
(assert
 (<= |src:lane| 31))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 15))
(assert
 (>= |src:repeat1| 0))
(assert
 (<= |src:repeat1| 1))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 1))
(assert
 (>= |src.D.g.q#0~3| 0))
(assert
 (<= |src.D.g.q#0~3| 7))
(assert
 (>= |src.D.g.q#1~4| 0))
(assert
 (<= |src.D.g.q#1~4| 3))
(assert
 (>= sub~5 0))
(assert
 (<= sub~5 63))
(assert
 (>= subr~6 0))
(assert
 (<= subr~6 1))
(assert
 (>= sub~7 0))
(assert
 (<= sub~7 15))
(assert
 (>= subr~8 0))
(assert
 (<= subr~8 3))
(assert
 (= (+ (* (- 4) |dst.C.g.q#0~1|) (* (- 1) |dst.C.g.q#1~2|) |dst:lane|) 0))
(assert
 (= (+ (* (- 4) |src.D.g.q#0~3|) (* (- 1) |src.D.g.q#1~4|) |src:lane|) 0))
(assert
 (let ((?x8 (* 4 |src:word|)))
 (let ((?x9 (* 8 |src:repeat0|)))
 (= (+ |src.D.g.q#1~4| ?x9 ?x8 (* (- 1) subr~6) (* (- 2) sub~5)) 0))))
(assert
 (= (+ (* (- 1) subr~8) sub~5 (* (- 4) sub~7)) 0))
(check-sat)
