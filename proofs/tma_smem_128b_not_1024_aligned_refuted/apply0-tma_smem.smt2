; tilecheck obligation query: file examples/tma_smem_128b_not_1024_aligned_refuted.toml, apply[0], obligation tma_smem
; z3 5.4.1: sat (refuted)
; sat: the obligation is violated (refuted); unsat: it holds (proved)
(set-logic ALL)
(set-info :status sat)
(check-sat)
