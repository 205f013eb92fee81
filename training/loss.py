"""CenterNet losses: penalty-reduced focal loss on heatmaps, gaussian-weighted L1 on box
regression, masked cross-entropy on the subtype (only where the subtype is known)."""
from __future__ import annotations

import torch
import torch.nn.functional as F

from .model import NUM_HEAT, NUM_SUB


def focal_loss(logits: torch.Tensor, target: torch.Tensor, ignore: torch.Tensor) -> torch.Tensor:
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = (1 - pos) * (1 - ignore)
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


def giou_loss(pred: torch.Tensor, target: torch.Tensor) -> torch.Tensor:
    """1 - GIoU per cell between the predicted and the labelled box, both (dx, dy, log w, log h)
    in cells from the cell's centre. AP50 scores boxes by IoU, which smooth-L1 on the log size
    weighs only indirectly (a box 20 % too tall costs the same whatever its width)."""
    def corners(r: torch.Tensor) -> tuple[torch.Tensor, ...]:
        w, h = r[:, 2].clamp(-4, 6).exp(), r[:, 3].clamp(-4, 6).exp()
        return r[:, 0] - w / 2, r[:, 1] - h / 2, r[:, 0] + w / 2, r[:, 1] + h / 2
    px1, py1, px2, py2 = corners(pred)
    tx1, ty1, tx2, ty2 = corners(target)
    iw = (torch.minimum(px2, tx2) - torch.maximum(px1, tx1)).clamp(min=0)
    ih = (torch.minimum(py2, ty2) - torch.maximum(py1, ty1)).clamp(min=0)
    inter = iw * ih
    union = (px2 - px1) * (py2 - py1) + (tx2 - tx1) * (ty2 - ty1) - inter
    hull = ((torch.maximum(px2, tx2) - torch.minimum(px1, tx1))
            * (torch.maximum(py2, ty2) - torch.minimum(py1, ty1)))
    iou = inter / union.clamp(min=1e-6)
    return 1 - iou + (hull - union) / hull.clamp(min=1e-6)


def detection_loss(raw: torch.Tensor, t: dict[str, torch.Tensor],
                   iou_weight: float = 0.0) -> dict[str, torch.Tensor]:
    heat = focal_loss(raw[:, :NUM_HEAT], t["heat"], t["ignore"])
    w = t["reg_w"]
    wsum = w.sum().clamp(min=1)
    pred_reg = raw[:, NUM_HEAT + NUM_SUB:]
    l1 = F.smooth_l1_loss(pred_reg, t["reg"], reduction="none", beta=0.1)
    off = (l1[:, :2].sum(1) * w).sum() / wsum
    size = (l1[:, 2:].sum(1) * w).sum() / wsum
    # Subtype CE: invalid logits (e.g. drone for pollen-crops workers) are pushed to -inf so the
    # loss only compares the subtypes the label can actually tell apart.
    sub_logits = raw[:, NUM_HEAT:NUM_HEAT + NUM_SUB]
    mask = t["sub_mask"][:, :, None, None].float()
    sub_logits = sub_logits + (mask - 1) * 1e4
    target = t["sub"]
    valid = (target >= 0) & t["sub_mask"].any(1)[:, None, None]
    ce = F.cross_entropy(sub_logits, target.clamp(min=0), reduction="none")
    cw = w * valid.float()
    # Pollen and drones are rare (~4% / ~6% of hive boxes): up-weight them, but only in samples
    # with the hive label set (drone valid). Pollen-crops are ~50% pollen already; up-weighting
    # pollen there taught the head to call every large worker "pollen" (crop acc 0.49, 107/113
    # crops predicted pollen).
    rare = torch.tensor([1.0, 4.0, 3.0], device=raw.device)[target.clamp(min=0)]
    hive_like = t["sub_mask"][:, 2].float()[:, None, None]
    cls_w = hive_like * rare + (1 - hive_like)
    sub = (ce * cw * cls_w).sum() / (cw * cls_w).sum().clamp(min=1)
    total = heat + off + size + 0.5 * sub
    out = {"heat": heat, "off": off, "size": size, "sub": sub}
    if iou_weight > 0:
        out["giou"] = (giou_loss(pred_reg, t["reg"]) * w).sum() / wsum
        total = total + iou_weight * out["giou"]
    return {"total": total, **out}
