; tilecheck obligation query: file examples/half_packed_v4_b32.toml, apply[0], obligation alignment
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun div~3 () (_ BitVec 4))
(declare-fun |a:repeat0| () (_ BitVec 4))
(declare-fun div~1 () (_ BitVec 4))
(declare-fun divr~2 () (_ BitVec 4))
(declare-fun |c0'| () (_ BitVec 4))
(declare-fun divr~4 () (_ BitVec 4))
(declare-fun |k'| () (_ BitVec 4))
(assert
 (and (distinct (bvadd (bvmul (_ bv4 4) div~1) (bvmul (_ bv4 4) (bvmul |a:repeat0| div~3))) (_ bv0 4)) true))
(assert
 (= (bvadd (bvmul (_ bv8 4) |c0'|) (bvmul (_ bv14 4) div~1) (bvmul (_ bv15 4) divr~2)) (_ bv0 4)))
(assert
 (= (bvadd (bvmul (_ bv8 4) |k'|) (bvmul (_ bv14 4) div~3) (bvmul (_ bv15 4) divr~4)) (_ bv0 4)))
(assert
 (bvule (bvsub |a:repeat0| (_ bv0 4)) (_ bv7 4)))
(assert
 (bvule (bvsub divr~2 (_ bv0 4)) (_ bv1 4)))
(assert
 (bvule (bvsub divr~4 (_ bv0 4)) (_ bv1 4)))
(check-sat)
