; tilecheck obligation query: file examples/stmatrix_x4_per_warp.toml, apply[0], obligation alignment
; z3 5.4.1: unsat (proved)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status unsat)
(declare-fun ldsm.kr~2 () (_ BitVec 4))
(declare-fun ldsm.tr~4 () (_ BitVec 4))
(declare-fun |a.S.g.q#1~6| () (_ BitVec 4))
(declare-fun |a.S.ib.ia.j#2~9| () (_ BitVec 4))
(declare-fun ldsm.k~1 () (_ BitVec 4))
(declare-fun |a:word| () (_ BitVec 4))
(declare-fun ldsm.t~3 () (_ BitVec 4))
(declare-fun |a:lane| () (_ BitVec 4))
(declare-fun |a.S.g.q#0~5| () (_ BitVec 4))
(declare-fun |a.S.ib.ia.j#1~8| () (_ BitVec 4))
(declare-fun |a.S.ib.ia.j#0~7| () (_ BitVec 4))
(assert
 (let ((?x1 (bvadd (bvmul (_ bv2 4) |a.S.ib.ia.j#2~9|) (bvmul (_ bv4 4) |a.S.g.q#1~6|) (bvmul (_ bv12 4) ldsm.tr~4) (bvmul (_ bv14 4) ldsm.kr~2))))
 (and (distinct ?x1 (_ bv0 4)) true)))
(assert
 (= (bvadd |a:word| (bvmul (_ bv14 4) ldsm.k~1) (bvmul (_ bv15 4) ldsm.kr~2)) (_ bv0 4)))
(assert
 (= (bvadd |a:lane| (bvmul (_ bv12 4) ldsm.t~3) (bvmul (_ bv15 4) ldsm.tr~4)) (_ bv0 4)))
(assert
 (= (bvadd |a:lane| (bvmul (_ bv12 4) |a.S.g.q#0~5|) (bvmul (_ bv15 4) |a.S.g.q#1~6|)) (_ bv0 4)))
(assert
 (let ((?x2 (bvadd |a:word| (bvmul (_ bv12 4) |a.S.ib.ia.j#0~7|) (bvmul (_ bv14 4) |a.S.ib.ia.j#1~8|) (bvmul (_ bv15 4) |a.S.ib.ia.j#2~9|))))
 (= ?x2 (_ bv0 4))))
(assert
 (bvule (bvsub |a.S.g.q#1~6| (_ bv0 4)) (_ bv3 4)))
(assert
 (bvule (bvsub |a.S.ib.ia.j#2~9| (_ bv0 4)) (_ bv1 4)))
(assert
 (bvule (bvsub ldsm.tr~4 (_ bv0 4)) (_ bv3 4)))
(assert
 (bvule (bvsub ldsm.kr~2 (_ bv0 4)) (_ bv1 4)))
(assert
 (bvule (bvsub |a:word| (_ bv0 4)) (_ bv7 4)))
(assert
 (bvule (bvsub ldsm.k~1 (_ bv0 4)) (_ bv3 4)))
(assert
 (bvule (bvsub ldsm.t~3 (_ bv0 4)) (_ bv7 4)))
(assert
 (bvule (bvsub |a.S.g.q#0~5| (_ bv0 4)) (_ bv7 4)))
(assert
 (bvule (bvsub |a.S.ib.ia.j#0~7| (_ bv0 4)) (_ bv1 4)))
(assert
 (bvule (bvsub |a.S.ib.ia.j#1~8| (_ bv0 4)) (_ bv1 4)))
(check-sat)
