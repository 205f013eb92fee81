"""Unit tests of the training losses (stdlib unittest; `.ci/run` runs them):

    .venv/bin/python -m unittest training.test_loss
"""
from __future__ import annotations

import unittest

import torch

from .loss import distill_loss
from .model import HEAD_CHANNELS, NUM_HEAT, NUM_SUB, WIDE, Detector, arch_of, branch_only, detector_from, subtype_only, widen


def labels(shape: tuple[int, int, int]) -> dict[str, torch.Tensor]:
    heat = torch.zeros(shape[0], NUM_HEAT, shape[1], shape[2])
    heat[:, 0, 2, 3] = 1.0  # one labelled honeybee per patch
    return {"heat": heat}


class DistillLossTest(unittest.TestCase):
    def setUp(self) -> None:
        g = torch.Generator().manual_seed(0)
        self.teacher = torch.randn(2, HEAD_CHANNELS, 8, 8, generator=g) * 2
        self.t = labels((2, 8, 8))

    def test_zero_where_the_student_agrees(self) -> None:
        kd = distill_loss(self.teacher.clone(), self.teacher, self.t)
        for key in ("kd_heat", "kd_sub", "kd_box", "kd_total"):
            self.assertAlmostEqual(float(kd[key]), 0.0, places=5, msg=key)

    def test_each_term_pulls_the_student_towards_the_teacher(self) -> None:
        student = torch.zeros_like(self.teacher, requires_grad=True)
        opt = torch.optim.Adam([student], lr=0.1)
        first = {k: float(v) for k, v in distill_loss(student, self.teacher, self.t).items()}
        for _ in range(200):
            opt.zero_grad()
            distill_loss(student, self.teacher, self.t)["kd_total"].backward()
            opt.step()
        last = distill_loss(student, self.teacher, self.t)
        for key in ("kd_heat", "kd_sub", "kd_box"):
            self.assertGreater(first[key], 0.0, key)
            self.assertLess(float(last[key]), 0.2 * first[key], key)

    def test_subtypes_count_only_where_the_teacher_sees_a_bee(self) -> None:
        teacher = self.teacher.clone()
        teacher[:, 0] = -20.0  # the teacher sees no honeybee anywhere
        student = teacher.clone()
        student[:, NUM_HEAT:NUM_HEAT + NUM_SUB] = torch.randn(2, NUM_SUB, 8, 8) * 5
        self.assertLess(float(distill_loss(student, teacher, self.t)["kd_sub"]), 1e-3)


class SubtypeOnlyTest(unittest.TestCase):
    def test_only_the_subtype_rows_change(self) -> None:
        torch.manual_seed(0)
        net = Detector(**WIDE)
        before = {k: v.clone() for k, v in net.state_dict().items()}
        opt = torch.optim.AdamW(subtype_only(net), lr=0.1, weight_decay=0.0)
        net.eval()
        x = torch.rand(2, 3, 64, 64)
        for _ in range(3):
            opt.zero_grad()
            net(x).pow(2).mean().backward()  # a loss that pulls on every output channel
            opt.step()
        after = net.state_dict()
        changed = [k for k in before if not torch.equal(before[k], after[k])]
        self.assertEqual(sorted(changed), ["head.1.bias", "head.1.weight"])
        rows = [i for i in range(HEAD_CHANNELS) if not torch.equal(before["head.1.weight"][i], after["head.1.weight"][i])]
        self.assertEqual(rows, list(range(NUM_HEAT, NUM_HEAT + NUM_SUB)))


class SubtypeBranchTest(unittest.TestCase):
    def setUp(self) -> None:
        torch.manual_seed(0)
        self.plain = Detector(**WIDE).eval()
        self.x = torch.rand(2, 3, 64, 96)

    def test_a_new_branch_leaves_the_output_as_it_was(self) -> None:
        net = widen(self.plain, WIDE | {"branch": (16,)}).eval()  # widen checks the output itself
        self.assertIsNotNone(net.sub_branch)
        self.assertEqual(arch_of(net.state_dict()), WIDE | {"branch": (16,)})
        self.assertEqual(arch_of(self.plain.state_dict()), WIDE)
        self.assertTrue(torch.allclose(net(self.x), self.plain(self.x), atol=1e-5))

    def test_only_the_branch_trains_and_only_subtypes_move(self) -> None:
        net = widen(self.plain, WIDE | {"branch": (16,)})
        before = {k: v.clone() for k, v in net.state_dict().items()}
        opt = torch.optim.AdamW(branch_only(net), lr=0.1)
        net.eval()
        for _ in range(3):
            opt.zero_grad()
            net(self.x).pow(2).mean().backward()
            opt.step()
        after = net.state_dict()
        changed = {k.split(".")[0] for k in before if not torch.equal(before[k], after[k])}
        self.assertEqual(changed, {"sub_branch"})
        moved = (net(self.x) - self.plain(self.x)).abs().amax(dim=(0, 2, 3))
        self.assertTrue(bool((moved[NUM_HEAT:NUM_HEAT + NUM_SUB] > 1e-4).all()), moved)
        rest = torch.cat([moved[:NUM_HEAT], moved[NUM_HEAT + NUM_SUB:]])
        self.assertLess(float(rest.max()), 1e-5)
        # A checkpoint with a branch rebuilds with it (export, average, --init).
        again = detector_from(net.state_dict()).eval()
        self.assertTrue(torch.equal(again(self.x), net(self.x)))

    def test_branch_only_refuses_a_net_without_one(self) -> None:
        with self.assertRaises(ValueError):
            branch_only(self.plain)


if __name__ == "__main__":
    unittest.main()
