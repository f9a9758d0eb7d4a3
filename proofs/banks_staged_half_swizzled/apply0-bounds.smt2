; tilecheck obligation query: file examples/banks_staged_half_swizzled.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst.S.q.c#1~2| () Int)
(declare-fun |dst.S.q.c#0~1| () Int)
(declare-fun |dst:lane| () Int)
(assert
 (let ((?x1 (+ (* 4 |src:repeat0|) |src:word|)))
 (let (($x2 (>= ?x1 64)))
 (let (($x3 (< 0 0)))
 (let (($x4 (or $x3 (> 32 32) (< 32 1))))
 (let ((?x5 (+ (* 32 |dst.S.q.c#0~1|) (* 4 |dst.S.q.c#1~2|) (* 128 |dst:repeat0|) |dst:word|)))
 (let (($x6 (>= ?x5 2048)))
 (or (or $x3 (> 64 64) (< 64 1)) $x4 (< ?x5 0) $x6 $x4 (or $x3 (> 16 16) (< 16 1)) (or $x3 (> 4 4) (< 4 1)) (< ?x1 0) $x2))))))))
(assert
 (>= |dst:lane| 0))
(assert
 (<= |dst:lane| 31))
(assert
 (>= |dst:repeat0| 0))
(assert
 (<= |dst:repeat0| 15))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |dst.S.q.c#0~1| 0))
(assert
 (<= |dst.S.q.c#0~1| 3))
(assert
 (>= |dst.S.q.c#1~2| 0))
(assert
 (<= |dst.S.q.c#1~2| 7))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 15))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(assert
 (= (+ (* (- 8) |dst.S.q.c#0~1|) (* (- 1) |dst.S.q.c#1~2|) |dst:lane|) 0))
(check-sat)
