"""Pillow as the independent image oracle of the C++ image tests: decodes, resizes and writes images.

Usage (each command writes OUT as a raw dump: a line "HEIGHT WIDTH CHANNELS DTYPE", then the
interleaved pixels, little-endian):
  decode IN OUT [MODE]              open IN (palette → RGB/RGBA, bilevel → L), convert to MODE
  draft IN OUT HEIGHT WIDTH         JPEG: Pillow's DCT-domain draft('RGB', size), then decode
  resize IN OUT HEIGHT WIDTH METHOD [MODE]   METHOD box|bilinear
  gray16 OUT_PNG HEIGHT WIDTH       write a 16-bit grayscale PNG of a deterministic pattern
"""
import sys

from PIL import Image

CHANNELS = {"L": 1, "LA": 2, "RGB": 3, "RGBA": 4, "I": 1, "I;16": 1}


def _open(path, mode=None):
    im = Image.open(path)
    if im.mode == "P":
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    elif im.mode == "1":
        im = im.convert("L")
    if mode:
        im = im.convert(mode)
    return im


def _dump(im, out):
    sixteen = im.mode in ("I", "I;16")  # Pillow opens 16-bit gray PNGs as mode I (int32)
    with open(out, "wb") as f:
        f.write(f"{im.height} {im.width} {CHANNELS[im.mode]} {'uint16' if sixteen else 'uint8'}\n".encode())
        if sixteen:
            f.write(b"".join(int(v).to_bytes(2, "little") for v in im.getdata()))
        else:
            f.write(im.tobytes())


def main(argv):
    cmd = argv[0]
    if cmd == "decode":
        _dump(_open(argv[1], argv[3] if len(argv) > 3 else None), argv[2])
    elif cmd == "draft":
        im = Image.open(argv[1])
        im.draft("RGB", (int(argv[4]), int(argv[3])))
        _dump(im.convert("RGB"), argv[2])
    elif cmd == "resize":
        im = _open(argv[1], argv[6] if len(argv) > 6 else None)
        method = {"box": Image.BOX, "bilinear": Image.BILINEAR}[argv[5]]
        _dump(im.resize((int(argv[4]), int(argv[3])), method), argv[2])
    elif cmd == "gray16":
        height, width = int(argv[2]), int(argv[3])
        im = Image.new("I;16", (width, height))
        im.putdata([(y * 7919 + x * 104729) % 65536 for y in range(height) for x in range(width)])
        im.save(argv[1])
    else:
        raise SystemExit(f"unknown command {cmd}")


if __name__ == "__main__":
    main(sys.argv[1:])
