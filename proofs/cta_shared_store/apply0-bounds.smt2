; tilecheck obligation query: file examples/cta_shared_store.toml, apply[0], obligation bounds
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |src:word| () Int)
(declare-fun |src:repeat0| () Int)
(declare-fun |dst:word| () Int)
(declare-fun |dst:warp| () Int)
(declare-fun |dst:repeat0| () Int)
(declare-fun |dst:lane| () Int)
(assert
 (let ((?x136 (* 4 |src:repeat0|)))
 (let ((?x101 (+ ?x136 |src:word|)))
 (let (($x21 (>= ?x101 12)))
 (let (($x93 (< 0 0)))
 (let (($x153 (or $x93 (> 4 4) (< 4 1))))
 (let (($x105 (or $x93 (> 3 3) (< 3 1))))
 (let (($x132 (or $x93 (> 32 32) (< 32 1))))
 (let ((?x30 (* 384 |dst:warp|)))
 (let ((?x83 (* 4 |dst:repeat0|)))
 (let ((?x109 (* 12 |dst:lane|)))
 (let ((?x189 (+ ?x109 ?x83 ?x30 |dst:word|)))
 (let (($x186 (>= ?x189 1536)))
 (or $x153 $x132 $x105 $x153 (< ?x189 0) $x186 $x153 $x132 $x105 $x153 (< ?x101 0) $x21))))))))))))))
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
 (<= |dst:repeat0| 2))
(assert
 (>= |dst:word| 0))
(assert
 (<= |dst:word| 3))
(assert
 (>= |src:repeat0| 0))
(assert
 (<= |src:repeat0| 2))
(assert
 (>= |src:word| 0))
(assert
 (<= |src:word| 3))
(check-sat)
