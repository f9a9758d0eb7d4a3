; tilecheck obligation query: file examples/bulk_copy_row.toml, apply[1], obligation disjoint
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun |b:word| () Int)
(declare-fun |a:word| () Int)
(declare-fun |b:repeat0| () Int)
(declare-fun |a:repeat0| () Int)
(declare-fun i () Int)
(declare-fun |b:thread| () Int)
(declare-fun |a:thread| () Int)
(assert
 (let (($x1 (= |a:word| |b:word|)))
 (let (($x2 (= |a:repeat0| |b:repeat0|)))
 (let (($x3 (= (+ (* 8 |a:repeat0|) |a:word| (* 1024 i)) (+ (* 8 |b:repeat0|) |b:word| (* 1024 i)))))
 (let (($x4 (or (and (distinct |a:repeat0| |b:repeat0|) true) (and (distinct |a:word| |b:word|) true) (and (distinct |a:thread| |b:thread|) true))))
 (and (and $x4 $x3) $x2 $x1))))))
(assert
 (>= i 0))
(assert
 (<= i 1023))
(assert
 (>= |a:thread| 0))
(assert
 (<= |a:thread| 0))
(assert
 (>= |a:repeat0| 0))
(assert
 (<= |a:repeat0| 127))
(assert
 (>= |a:word| 0))
(assert
 (<= |a:word| 7))
(assert
 (>= |b:thread| 0))
(assert
 (<= |b:thread| 0))
(assert
 (>= |b:repeat0| 0))
(assert
 (<= |b:repeat0| 127))
(assert
 (>= |b:word| 0))
(assert
 (<= |b:word| 7))
(check-sat)
