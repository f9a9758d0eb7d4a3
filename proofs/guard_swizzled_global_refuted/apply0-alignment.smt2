; tilecheck obligation query: file examples/guard_swizzled_global_refuted.toml, apply[0], obligation alignment
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun n () Int)
(declare-fun |a:lane| () Int)
(assert
 (let (($x1 (>= |a:lane| 0)))
(let (($x2 (and $x1 (< |a:lane| n))))
(and $x2 (and (distinct (mod 0 4) 0) true)))))
(check-sat)
